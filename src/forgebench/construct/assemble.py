"""What every benchmark's assembly shares: the kept candidates, their provenance, the release's
re-encoding, and moving a finished folder into place.

Each benchmark writes its own folder from the kept candidates through its construction parts
(``Construction.assemble``: Mandela's dataset, PIXAR's pairs). Each written record carries
``provenance`` (:func:`provenance`): the specification, its verification, the editor, the
candidate (index, key, content hash), every gate result and the reviewer (null until review).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from forgebench.construct.gate_result import GateResult
from forgebench.construct.render import CandidateRecord
from forgebench.construct.specs import EditSpec, spec_row
from forgebench.util.images import JPEG_QUALITY, normalize_image, scale_box, target_size


@dataclass
class Kept:
    """A specification and its kept candidate."""

    spec: EditSpec
    record: CandidateRecord
    pixels: np.ndarray
    """The candidate at the seed's size (lossless)."""
    gates: list[GateResult]
    verification: dict[str, Any] | None = None
    label: np.ndarray | None = None
    """PIXAR label at tau."""


def provenance(k: Kept) -> dict[str, Any]:
    return {
        "spec": spec_row(k.spec),
        "verification": k.verification,
        "editor": k.record.editor,
        "candidate": {"index": k.record.candidate, "key": k.record.key, "sha256": k.record.blob},
        "gates": [g.model_dump(mode="json") for g in k.gates],
        "reviewer": None,
    }


@dataclass
class Stored:
    """An image as written into the dataset."""

    rel: str
    """Path relative to the dataset folder."""
    pixels: np.ndarray
    """The pixels a reader decodes from it."""
    map_box: Callable[[tuple[int, int, int, int]], tuple[int, int, int, int]]
    """Carries a box of the lossless grid into the stored grid."""
    size: tuple[int, int]
    """Stored (W, H)."""


def store_image(rgb: np.ndarray, root: Path, stem: str, store: str) -> Stored:
    """Write ``rgb`` re-encoded as the release is (Appendix C: JPEG quality 92, longest side
    1280). ``store="jpeg"`` writes that JPEG; ``"png"`` writes its decoded pixels as PNG (the demo's
    convention: lossless files of re-encoded pixels, reproducible bytes)."""
    src = (rgb.shape[1], rgb.shape[0])
    if store == "jpeg":
        tmp = root / f".{Path(stem).name}.tmp.png"
        tmp.parent.mkdir(parents=True, exist_ok=True)
        Image.fromarray(rgb).save(tmp, "PNG", compress_level=1)
        n = normalize_image(tmp, root / f"{stem}.jpg")
        tmp.unlink()
        px = np.asarray(Image.open(root / f"{stem}.jpg").convert("RGB"))
        return Stored(f"{stem}.jpg", px, n.map_box, n.size)
    size = target_size(src)
    im = Image.fromarray(rgb)
    if size != src:
        im = im.resize(size, Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=JPEG_QUALITY)
    buf.seek(0)
    px = np.asarray(Image.open(buf).convert("RGB")).copy()
    (root / stem).parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(px).save(root / f"{stem}.png", format="PNG", compress_level=1)
    return Stored(f"{stem}.png", px, lambda b: scale_box(b, src, size) if size != src else b, size)


def copy_original(seed_root: Path, image: str, dst: Path) -> None:
    """The seed image as ``dst`` (PNG, lossless)."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    Image.open(seed_root / image).convert("RGB").save(dst, "PNG")
