"""Pixel gates every benchmark's candidates share: edit footprint, re-encoding, near-duplicates.

Footprint (seed 000 Appendix L): "the median fraction of pixels changed outside the annotated
region (the edit footprint)", measured "under two conventions: the recorded edit box and the
largest connected component of the observed pixel difference". Here a pixel is *changed* when
PIXAR's ``d(p) > tau`` holds (:mod:`forgebench.construct.pixels`; tau 0.05 by default, our
choice: the seed does not give one); ``footprint`` is the share of all pixels changed outside
the recorded region (box or mask), ``footprint_measured`` the share changed outside the bounding
box of the largest 8-connected component of the changed pixels (the box, to parallel the
recorded convention; ours). The gate fails when ``footprint`` exceeds ``max_outside``.

:class:`PixelGateConfig` also holds the thresholds of PIXAR's effectiveness gate (its
construction parts run it); the seed gives Table 13 but no magnitude bounds: those defaults are
ours.

Re-encoding (seed 000 Appendix C): JPEG quality 92, longest side 1280
(:func:`forgebench.util.images.normalize_image`). Near-duplicates: 64-bit perceptual hashes
(``imagehash.phash``, the ``construct`` extra); two images within ``max_distance`` bits are
near-duplicates and the later one fails.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import cv2
import numpy as np
from PIL import Image
from pydantic import BaseModel

from forgebench.construct.gate_result import GateResult
from forgebench.construct.pixels import DEFAULT_TAU, pixel_label
from forgebench.util.images import JPEG_QUALITY, LONGEST_SIDE, Normalized, normalize_image

Region = Sequence[int] | np.ndarray


class PixelGateConfig(BaseModel):
    """Thresholds of the pixel gates (all ours where the seeds give none)."""

    tau: float = DEFAULT_TAU
    """A pixel is changed when d(p) > tau (PIXAR's definition; 0.05 is its main tau)."""
    max_outside: float = 0.05
    """Footprint gate: the largest share of all pixels that may change outside the region."""
    min_share: float = 0.0005
    """PIXAR effectiveness: the smallest changed share that counts as an effective edit."""
    max_share: float = 0.6
    """PIXAR effectiveness: the largest changed share (beyond it the editor redrew the image)."""
    grid: int = 8
    """Spatial-concentration grid (g x g)."""
    max_hash_distance: int = 4
    """Near-duplicates: the largest Hamming distance (of 64 bits) between two pHashes."""


def region_mask(region: Region, shape: tuple[int, int]) -> np.ndarray:
    """Boolean H x W mask of a box ``[x0, y0, x1, y1]`` or of a mask array (> 0)."""
    if isinstance(region, np.ndarray) and region.ndim == 2:
        if region.shape != shape:
            raise ValueError(f"mask shape {region.shape} differs from image {shape}")
        return region > 0
    x0, y0, x1, y1 = (int(v) for v in region)
    m = np.zeros(shape, bool)
    m[max(0, y0) : max(0, y1), max(0, x0) : max(0, x1)] = True
    return m


def largest_component_box(changed: np.ndarray) -> tuple[list[int] | None, int]:
    """Bounding box ``[x0, y0, x1, y1]`` and pixel count of the largest 8-connected component."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(changed.astype(np.uint8), connectivity=8)
    if n <= 1:
        return None, 0
    i = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, w, h, area = (int(v) for v in stats[i])
    return [x, y, x + w, y + h], area


def footprint_gate(
    original: np.ndarray, edited: np.ndarray, region: Region, cfg: PixelGateConfig | None = None
) -> GateResult:
    """Changed pixels outside the recorded region and outside the measured largest component."""
    cfg = cfg or PixelGateConfig()
    changed = pixel_label(original, edited, cfg.tau)
    total = changed.size
    inside = region_mask(region, changed.shape)
    outside = int(np.count_nonzero(changed & ~inside))
    box, area = largest_component_box(changed)
    if box is None:
        measured = 0.0
    else:
        outside_lcc = changed & ~region_mask(box, changed.shape)
        measured = int(np.count_nonzero(outside_lcc)) / total
    value = outside / total
    passed = value <= cfg.max_outside
    return GateResult(
        gate="footprint",
        passed=passed,
        value=value,
        threshold=cfg.max_outside,
        model=f"d(p)>{cfg.tau:g}",
        reason=f"{value:.2%} of the pixels changed outside the region"
        + ("" if passed else f" (> {cfg.max_outside:.2%})"),
        details={
            "footprint": value,
            "footprint_measured": measured,
            "changed_share": int(np.count_nonzero(changed)) / total,
            "largest_component_box": box,
            "largest_component_px": area,
        },
    )


def reencode(
    src: Path, dst: Path, quality: int = JPEG_QUALITY, longest_side: int = LONGEST_SIDE
) -> tuple[GateResult, Normalized]:
    """Re-encode as the release is (JPEG q92, longest side 1280); the result records the size."""
    n = normalize_image(src, dst, quality=quality, longest_side=longest_side)
    return (
        GateResult(
            gate="reencode",
            passed=True,
            value=n.scale,
            model=f"jpeg q{quality}, longest side {longest_side}",
            reason=f"{n.upright_size[0]}x{n.upright_size[1]} -> {n.size[0]}x{n.size[1]}",
            details={"size": list(n.size), "source_sha256": n.source_sha256},
        ),
        n,
    )


def phash(image: np.ndarray | Path) -> str:
    """The 64-bit perceptual hash (``imagehash.phash``) as 16 hex digits."""
    import imagehash

    im = Image.open(image) if isinstance(image, Path) else Image.fromarray(image)
    return str(imagehash.phash(im))


def hash_distance(a: str, b: str) -> int:
    """Hamming distance between two hex hashes."""
    return int(bin(int(a, 16) ^ int(b, 16)).count("1"))


def near_duplicates(
    hashes: Sequence[tuple[str, str]],
    cfg: PixelGateConfig | None = None,
    exempt: Callable[[str, str], bool] | None = None,
) -> dict[str, GateResult]:
    """One result per id (in order): an image within ``max_hash_distance`` of an earlier kept one
    fails (``details["duplicate_of"]``); ``exempt(a, b)`` skips pairs that are meant to look alike
    (a forgery and its own seed)."""
    cfg = cfg or PixelGateConfig()
    kept: list[tuple[str, str]] = []
    out: dict[str, GateResult] = {}
    for ident, h in hashes:
        dup = next(
            (
                (k, d)
                for k, kh in kept
                if (d := hash_distance(h, kh)) <= cfg.max_hash_distance
                and not (exempt and exempt(ident, k))
            ),
            None,
        )
        if dup is None:
            kept.append((ident, h))
        out[ident] = GateResult(
            gate="near_duplicate",
            passed=dup is None,
            value=None if dup is None else float(dup[1]),
            threshold=float(cfg.max_hash_distance),
            model="imagehash.phash",
            reason="unique" if dup is None else f"near-duplicate of {dup[0]} ({dup[1]} bits)",
            details={"phash": h} | ({} if dup is None else {"duplicate_of": dup[0]}),
        )
    return out
