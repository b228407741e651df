"""Reading visible text: RapidOCR (PP-OCR detection + recognition, ONNX models bundled in the
``rapidocr`` wheel, run by ``onnxruntime``; the ``ocr`` extra). Nothing is downloaded.

:func:`read_text` returns one :class:`TextLine` per detected line with its axis-aligned box and
recognition score; lines below :data:`MIN_SCORE` are dropped. Text is NFKC-normalised (the
recogniser returns full-width punctuation such as ``3：2``).

Memory for the networks' tensors: RapidOCR runs onnxruntime with its arena off, so every tensor
of every image is a fresh ``malloc``; under :func:`forgebench.util.memory.bound_heap` (the demo's
1 MiB mmap threshold) each is its own mapping, faulted in page by page and unmapped again. The
detection and recognition sessions are therefore built here, on one onnxruntime arena that both
share, registered once per process (:func:`_arena`): a region of :data:`ARENA_REGION` bytes of
address space in which a read's tensors reuse each other's pages, given back after every read
(:func:`_run`), so nothing is held between images. On the demo's 44 text images (one thread,
load 6-8) that is 31k page faults per image instead of 77-82k, 0.49-0.51 CPU-s instead of
0.63-0.70 (system time 0.08 instead of 0.21-0.24), and a lower peak (347-349 MB against 363-366).
Keeping the region between reads would cut the faults to 4k and the time to 0.41-0.45 CPU-s, but
holds the largest image's working set (~130 MB) throughout: the demo's peak rose by 30-50 MB
(586-607 MB against 545-577), past its 600 MB budget. The weights stay outside the arena, and the
memory-pattern planner is off (its one block per input shape would split the arena). The text,
boxes and scores read are the same bit for bit.
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

ARENA_REGION = 256 << 20
"""Address space of the arena's working region (pages become resident only when touched); a read
whose working set does not fit gets a further, larger region, given back with the rest."""
_SHRINK = ("memory.enable_memory_arena_shrinkage", "cpu:0")

_lock = threading.RLock()
_engine: Any = None
_arena_state: bool | None = None


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


def _arena() -> bool:
    """Register the shared CPU arena with onnxruntime once per process (False where this
    onnxruntime cannot; RapidOCR's own sessions are used then)."""
    global _arena_state
    if _arena_state is None:
        import onnxruntime as ort

        try:
            cfg = ort.OrtArenaCfg(
                {
                    "arena_extend_strategy": 0,  # kNextPowerOfTwo: growth as set below
                    "initial_chunk_size_bytes": 1 << 20,  # the first region, never given back
                    "initial_growth_chunk_size_bytes": ARENA_REGION,  # every region after a shrink
                }
            )
            info = ort.OrtMemoryInfo(
                "Cpu", ort.OrtAllocatorType.ORT_ARENA_ALLOCATOR, 0, ort.OrtMemType.DEFAULT
            )
            ort.create_and_register_allocator(info, cfg)
            _arena_state = True
        except (AttributeError, TypeError, RuntimeError, ValueError):
            _arena_state = False
    return _arena_state


def _shrink(session: Any) -> None:
    """Run ``session`` once on a tiny input with arena shrinkage on: every arena region without a
    live tensor is given back, and the arena's next region is :data:`ARENA_REGION` bytes."""
    import onnxruntime as ort

    opts = ort.RunOptions()
    opts.add_run_config_entry(*_SHRINK)
    inp = session.get_inputs()[0]
    shape = [d if isinstance(d, int) else (1 if i == 0 else 32) for i, d in enumerate(inp.shape)]
    session.run(None, {inp.name: np.zeros(shape, np.float32)}, opts)


def _load_sessions(engine: Any) -> None:
    """Give ``engine`` detection and recognition sessions on the shared arena (once; on the OCR
    thread, before its first read). RapidOCR takes a ready session in its config (``session``)."""
    det = engine.cfg.Det
    if det.get("session") is not None or engine.text_det is not None or not _arena():
        return
    from pathlib import Path

    import onnxruntime as ort
    from omegaconf import flag_override
    from rapidocr.inference_engine.base import FileInfo, InferSession

    root = Path(engine.cfg.Global.model_root_dir)
    sessions = []
    for section in (det, engine.cfg.Rec):
        info = FileInfo(
            engine_type=section.engine_type,
            ocr_version=section.ocr_version,
            task_type=section.task_type,
            lang_type=section.lang_type,
            model_type=section.model_type,
        )
        path = root / Path(InferSession.get_model_url(info)["model_dir"]).name
        opts = ort.SessionOptions()
        opts.log_severity_level = 4
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL  # as RapidOCR's
        opts.intra_op_num_threads = 1  # as ENGINE_PARAMS
        opts.inter_op_num_threads = 1
        opts.enable_mem_pattern = False
        opts.add_session_config_entry("session.use_env_allocators", "1")
        opts.add_session_config_entry("session.use_device_allocator_for_initializers", "1")
        sessions.append(
            ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"])
        )
    _shrink(sessions[0])  # from here on the arena grows by whole regions
    for section, session in zip((det, engine.cfg.Rec), sessions, strict=True):
        with flag_override(section, "allow_objects", True):
            section.session = session


def _run(engine: Any, bgr: np.ndarray) -> Any:
    """One read; then the arena's pages go back (the read's outputs are no longer held)."""
    with _lock:
        _load_sessions(engine)
    out = engine(bgr)
    det = engine.cfg.Det.get("session")
    if det is not None:
        _shrink(det)
    return out


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
    out = threads.OCR.call(_run, engine, bgr)  # the engine's sessions are shared; one at a time
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
