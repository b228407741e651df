"""Recognising the canonical scene: which KB scene an image shows, and where its parts are.

Two signals, both classical (no image-embedding model ships offline):

- a 64-bit DCT perceptual hash (pHash: 32x32 grey, top-left 8x8 DCT block against its median) of
  the whole image, which recognises the full image and small edits of it at once but not crops;
- SIFT keypoints matched (FLANN) with Lowe's ratio test (0.75) and a RANSAC homography, which
  also survives crops, rescaling and edits. SIFT descriptors are not mirror-invariant, so the
  mirrored image is matched too and the flip is folded into the transform.

A scene is recognised when its homography has at least :data:`MIN_INLIERS` inliers (or, failing
that, when the hash distance is at most :data:`MAX_HASH_DISTANCE` bits). Both orientations are always tried (text
and symmetric layouts give dozens of spurious unmirrored inliers on a mirror image; the true
orientation gives several times more). The result carries the
homography from the canonical image to the query, so recorded boxes (people, objects, text) can
be looked at in the query's own pixels, whatever the crop or flip.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from forgebench.construct.scenes import SceneRecord

MIN_INLIERS = 15
"""RANSAC inliers needed to accept a local-feature match."""
CANDIDATES = 3
"""Scenes (most ratio-test votes first) that get a homography."""
MAX_HASH_DISTANCE = 10
"""pHash bit distance under which a whole image counts as the canonical one."""
RATIO = 0.75
"""Lowe's ratio test."""
WORK_SIDE = 800
"""Images are matched with their longer side scaled to at most this many pixels."""

Box = tuple[int, int, int, int]


def phash(rgb: np.ndarray) -> int:
    """64-bit DCT perceptual hash of an RGB image."""
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    small = cv2.resize(grey, (32, 32), interpolation=cv2.INTER_AREA).astype(np.float32)
    block = cv2.dct(small)[:8, :8].ravel()
    bits = block > np.median(block[1:])
    return int("".join("1" if b else "0" for b in bits), 2)


def hamming(a: int, b: int) -> int:
    """Bit distance between two hashes."""
    return int(bin(a ^ b).count("1"))


@dataclass
class _Features:
    scale: float
    keypoints: np.ndarray
    """``N x 2`` keypoint positions in the original image's pixels."""
    descriptors: np.ndarray | None


def _digest(rgb: np.ndarray) -> bytes:
    """A digest of an image's shape and pixels (equal digests: equal images, so equal features)."""
    h = hashlib.blake2b(repr((rgb.shape, rgb.dtype.str)).encode(), digest_size=20)
    h.update(np.ascontiguousarray(rgb).data)
    return h.digest()


def _features(rgb: np.ndarray) -> _Features:
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    scale = min(1.0, WORK_SIDE / max(grey.shape))
    if scale < 1.0:
        grey = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    kps, desc = cv2.SIFT.create(nfeatures=3000).detectAndCompute(grey, None)
    pts = np.array([kp.pt for kp in kps], np.float32).reshape(-1, 2) / scale
    return _Features(scale, pts, desc)


@dataclass(frozen=True)
class SceneMatch:
    """A recognised scene and how the query relates to its canonical image."""

    scene: SceneRecord
    to_query: np.ndarray | None
    """3x3 homography from canonical pixels to query pixels (None: matched by hash only, where
    the query is the canonical frame, possibly rescaled)."""
    inliers: int
    """RANSAC inliers (0 for a hash match)."""
    mirrored: bool
    """True when the query is the mirror image of the canonical one."""
    query_size: tuple[int, int]
    """``(width, height)`` of the query."""

    def to_canonical(self, rgb: np.ndarray, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
        """The query warped into the canonical frame (``size`` = canonical ``(w, h)``) and a mask
        of the canonical pixels the query covers."""
        hom = np.eye(3) if self.to_query is None else self.to_query
        inv = np.linalg.inv(hom)
        warped = cv2.warpPerspective(rgb, inv, size, flags=cv2.INTER_LINEAR)
        ones = np.full(rgb.shape[:2], 255, np.uint8)
        covered = cv2.warpPerspective(ones, inv, size, flags=cv2.INTER_NEAREST) > 0
        return warped, covered

    def map_box(self, box: list[int] | tuple[int, ...]) -> tuple[Box, float] | None:
        """A canonical box in query pixels, clipped, with the share of it inside the query
        (None when none of it is)."""
        x0, y0, x1, y1 = (float(v) for v in box[:4])
        corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32).reshape(-1, 1, 2)
        if self.to_query is None:
            pts: np.ndarray = corners.reshape(-1, 2)
        else:
            pts = cv2.perspectiveTransform(corners, self.to_query).reshape(-1, 2)
        w, h = self.query_size
        bx0, by0 = float(pts[:, 0].min()), float(pts[:, 1].min())
        bx1, by1 = float(pts[:, 0].max()), float(pts[:, 1].max())
        area = max(bx1 - bx0, 1e-6) * max(by1 - by0, 1e-6)
        cx0, cy0, cx1, cy1 = max(bx0, 0), max(by0, 0), min(bx1, w), min(by1, h)
        if cx1 <= cx0 or cy1 <= cy0:
            return None
        inside = (cx1 - cx0) * (cy1 - cy0) / area
        return (int(cx0), int(cy0), int(np.ceil(cx1)), int(np.ceil(cy1))), float(inside)


class SceneIndex:
    """The canonical images of a KB's scenes, ready for matching.

    All canonical descriptors go into one FLANN KD-tree; a query's descriptors are matched once
    (ratio test against the whole gallery), the matches vote for their scene, and only the
    :data:`CANDIDATES` scenes with most votes get a RANSAC homography. A query whose pixels are a
    canonical image's (a dataset's unedited originals) reuses that image's features instead of
    running SIFT on it again (a quarter of the demo's images).

    The canonical images are decoded when the index is made (an unreadable one fails there, once),
    their features and the KD-tree on the first :meth:`match`: a resumed run whose scene matches
    are all kept on disk (:mod:`.toolcache`, which needs only :meth:`record`) never computes them
    (1.6 CPU-s on the demo's 11 scenes).
    """

    def __init__(self, scenes: list[SceneRecord], root: Path) -> None:
        self._entries: list[tuple[SceneRecord, int, np.ndarray]] = []
        """Each scene, its canonical image's perceptual hash and the image (RGB)."""
        self.images: dict[str, np.ndarray] = {}
        """Scene id -> canonical RGB image."""
        for s in scenes:
            with Image.open(root / s.image) as im:
                rgb = np.asarray(im.convert("RGB")).copy()
            self._entries.append((s, phash(rgb), rgb))
            self.images[s.id] = rgb
        self._lock = threading.Lock()
        self._features: list[_Features] | None = None
        """Each scene's canonical features (:meth:`_ready`)."""
        self._known: dict[bytes, _Features] = {}
        self._owner = np.zeros(0, np.int32)
        self._offset = np.zeros(len(self._entries) + 1, np.int64)
        self._matcher: cv2.FlannBasedMatcher | None = None

    def _ready(self) -> list[_Features]:
        """The canonical images' features, computed (and the KD-tree trained) on first use."""
        with self._lock:
            if self._features is not None:
                return self._features
            feats = [_features(rgb) for _scene, _hash, rgb in self._entries]
            self._known = {
                _digest(rgb): f for (_, _, rgb), f in zip(self._entries, feats, strict=True)
            }
            descs = [
                f.descriptors.astype(np.float32)
                for f in feats
                if f.descriptors is not None and len(f.descriptors)
            ]
            sizes = [0 if f.descriptors is None else len(f.descriptors) for f in feats]
            self._owner = np.repeat(np.arange(len(feats), dtype=np.int32), sizes)
            self._offset = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
            if descs:
                matcher = cv2.FlannBasedMatcher({"algorithm": 1, "trees": 4}, {"checks": 64})
                matcher.add([np.concatenate(descs)])
                matcher.train()
                self._matcher = matcher
            self._features = feats
            return feats

    def __len__(self) -> int:
        return len(self._entries)

    def record(self, scene_id: str) -> SceneRecord:
        """The KB scene of that id (``KeyError`` when it has none)."""
        for scene, _hash, _rgb in self._entries:
            if scene.id == scene_id:
                return scene
        raise KeyError(scene_id)

    def _votes(self, query: _Features) -> dict[int, list[tuple[int, int]]]:
        """Scene index -> ``(canonical keypoint, query keypoint)`` pairs passing the ratio test."""
        out: dict[int, list[tuple[int, int]]] = {}
        if self._matcher is None or query.descriptors is None or len(query.descriptors) < 2:
            return out
        pairs = self._matcher.knnMatch(query.descriptors.astype(np.float32), k=2)
        for p in pairs:
            if len(p) == 2 and p[0].distance < RATIO * p[1].distance:
                owner = int(self._owner[p[0].trainIdx])
                local = p[0].trainIdx - int(self._offset[owner])
                out.setdefault(owner, []).append((local, p[0].queryIdx))
        return out

    def _homography(
        self, canon: _Features, query: _Features, pairs: list[tuple[int, int]]
    ) -> tuple[np.ndarray | None, int]:
        if len(pairs) < MIN_INLIERS:
            return None, len(pairs)
        src = canon.keypoints[[c for c, _ in pairs]].reshape(-1, 1, 2)
        dst = query.keypoints[[q for _, q in pairs]].reshape(-1, 1, 2)
        hom, mask = cv2.findHomography(src, dst, cv2.RANSAC, 5.0)
        if hom is None or mask is None:
            return None, 0
        inliers = int(mask.sum())
        det = float(np.linalg.det(hom[:2, :2]))
        if not 0.02 < det < 50:  # degenerate, or a flip (mirrors are matched separately)
            return None, 0
        return hom, inliers

    def match(self, rgb: np.ndarray) -> SceneMatch | None:
        """The best-matching scene of ``rgb``, or None when no scene is recognised."""
        if not self._entries:
            return None
        canonical = self._ready()
        h, w = rgb.shape[:2]
        flip = np.array([[-1.0, 0.0, w - 1.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
        best: SceneMatch | None = None
        for mirrored in (False, True):
            if mirrored:
                q = _features(np.ascontiguousarray(rgb[:, ::-1]))
            else:
                q = self._known.get(_digest(rgb)) or _features(rgb)
            votes = self._votes(q)
            ranked = sorted(votes, key=lambda i: len(votes[i]), reverse=True)[:CANDIDATES]
            for i in ranked:
                scene = self._entries[i][0]
                hom, inliers = self._homography(canonical[i], q, votes[i])
                if hom is None or inliers < MIN_INLIERS:
                    continue
                if best is None or inliers > best.inliers:
                    to_query = flip @ hom if mirrored else hom
                    best = SceneMatch(scene, to_query, inliers, mirrored, (w, h))
        if best is not None:
            return best
        qh = phash(rgb)
        near = min(self._entries, key=lambda e: hamming(qh, e[1]))
        if hamming(qh, near[1]) <= MAX_HASH_DISTANCE:
            ch, cw = near[2].shape[:2]
            scale = np.diag([w / cw, h / ch, 1.0])
            return SceneMatch(near[0], scale, 0, False, (w, h))
        return None
