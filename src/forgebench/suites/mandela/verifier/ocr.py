"""Reading visible text: RapidOCR (PP-OCR detection + recognition, ONNX models bundled in the
``rapidocr`` wheel, run by ``onnxruntime``; the ``ocr`` extra). Nothing is downloaded.

:func:`read_text` returns one :class:`TextLine` per detected line with its axis-aligned box and
recognition score; lines below :data:`MIN_SCORE` are dropped. Text is NFKC-normalised (the
recogniser returns full-width punctuation such as ``3：2``).
"""

from __future__ import annotations

import threading
import unicodedata
from dataclasses import dataclass
from typing import Any

import numpy as np

from forgebench.suites.mandela.verifier import threads

MIN_SCORE = 0.6
"""Lines the recogniser is less sure of are not used as evidence."""

ENGINE_PARAMS = {
    "Global.log_level": "critical",
    "Global.use_cls": False,
    "EngineConfig.onnxruntime.intra_op_num_threads": 1,
    "EngineConfig.onnxruntime.inter_op_num_threads": 1,
}
"""RapidOCR settings. One onnxruntime thread: images are read one at a time under a lock, and
the default pool (a thread per core, spinning between operators) spent about 1.7x the CPU time
for the same lines on a busy two-core machine; the text read is the same."""

_lock = threading.RLock()
_engine: Any = None


class ToolUnavailable(Exception):
    """An optional tool's package is not installed; the message names the extra."""


@dataclass(frozen=True)
class TextLine:
    """One line of visible text."""

    text: str
    """What it reads (NFKC-normalised, stripped)."""
    box: tuple[int, int, int, int]
    """``[x0, y0, x1, y1]`` in the image read."""
    score: float
    """Recognition confidence in [0, 1]."""


def _get_engine() -> Any:
    global _engine
    with _lock:
        if _engine is None:
            try:
                from rapidocr import RapidOCR
            except ImportError as exc:
                raise ToolUnavailable(
                    f"OCR needs package {exc.name!r}; pip install 'forgebench[ocr]'"
                ) from None
            _engine = RapidOCR(params=ENGINE_PARAMS)
        return _engine


def release() -> None:
    """Drop the engine (its sessions' memory goes back; the next read loads it again)."""
    global _engine
    with _lock:
        _engine = None


def available() -> bool:
    """True when the OCR packages import."""
    try:
        _get_engine()
    except ToolUnavailable:
        return False
    return True


def normalise(text: str) -> str:
    """NFKC, single spaces, stripped."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def read_text(rgb: np.ndarray, min_score: float = MIN_SCORE) -> list[TextLine]:
    """The text lines in an ``H x W x 3`` uint8 RGB image, top to bottom."""
    engine = _get_engine()
    bgr = np.ascontiguousarray(rgb[..., ::-1])
    out = threads.OCR.call(engine, bgr)  # the engine's sessions are shared; one image at a time
    lines: list[TextLine] = []
    boxes = out.boxes if out.boxes is not None else ()
    texts = out.txts if out.txts is not None else ()
    scores = out.scores if out.scores is not None else ()
    for quad, text, score in zip(boxes, texts, scores, strict=False):
        if float(score) < min_score:
            continue
        q = np.asarray(quad, dtype=np.float64).reshape(-1, 2)
        box = (
            int(np.floor(q[:, 0].min())),
            int(np.floor(q[:, 1].min())),
            int(np.ceil(q[:, 0].max())),
            int(np.ceil(q[:, 1].max())),
        )
        t = normalise(str(text))
        if t:
            lines.append(TextLine(t, box, float(score)))
    return sorted(lines, key=lambda ln: (ln.box[1], ln.box[0]))
