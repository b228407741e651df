"""IMDL-BenCo's dataset manifest as a PIXAR dataset: ``pixar score --dataset MANIFEST.json``.

The manifest is IMDL-BenCo's ``JsonDataset`` file (``IMDLBenCo/datasets/iml_datasets.py``): a
JSON list of ``[image, mask]`` pairs, the mask ``"Negative"`` for an authentic image. It is how
the community ships CASIA, Columbia, Coverage, NIST16 and IMD2020, so a classic detector's maps
on them are scored by the command that scores PIXAR's release, into the same metrics.csv.

As ``IMDLBenCo/datasets/abstract_dataset.py`` reads a pair: the mask is loaded as RGB and is
tampered where the mean of its channels exceeds 127.5; the image's label is 1 when its mask has
any nonzero pixel and 0 for ``"Negative"`` (or an all-zero mask); mask and image must have the
same size. The manifest's image stems name the predictions (``--pred``: ``<stem>.png`` masks or
``<stem>.npy`` maps). PIXAR's classes: a tampered image is class 2 (segmented), any other class
0 (real).

Unlike IMDL-BenCo (which opens the paths as given, relative to the working directory), relative
paths are taken from the manifest's folder, and every path (relative or absolute) must lie inside
that folder: a manifest is data, and one naming ``/etc/...`` or ``../..`` is refused, in one line
(:class:`~forgebench.suites.pixar.pairs.PairsError`), before anything is scored or written.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from forgebench.suites.pixar.pairs import PairsError

NEGATIVE = "Negative"
MAX_MANIFEST_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class ManifestEntry:
    """One pair of a manifest."""

    stem: str
    image: Path
    mask: Path | None
    """None for ``"Negative"``."""


def is_manifest(path: Path) -> bool:
    """Whether ``path`` names a manifest (a ``.json`` file), not a release folder."""
    return path.suffix.lower() == ".json" and not path.is_dir()


def _inside(root: Path, raw: str, manifest: Path, line: int) -> Path:
    p = Path(raw)
    full = (p if p.is_absolute() else root / p).resolve()
    if not full.is_relative_to(root):
        raise PairsError(f"{manifest}: entry {line} names {raw!r}, outside the manifest's folder")
    if not full.is_file():
        raise PairsError(f"{manifest}: entry {line}: no such file {raw!r}")
    return full


def read_manifest(path: str | Path) -> list[ManifestEntry]:
    """The entries of a manifest; :class:`PairsError` (one line) for anything malformed."""
    p = Path(path)
    try:
        if p.stat().st_size > MAX_MANIFEST_BYTES:
            raise PairsError(f"{p}: manifest larger than {MAX_MANIFEST_BYTES} bytes")
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PairsError(f"{p}: no such manifest") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PairsError(f"{p}: not a readable JSON manifest ({exc})") from None
    if not isinstance(data, list) or not data:
        raise PairsError(f"{p}: a manifest is a non-empty JSON list of [image, mask] pairs")
    root = p.resolve().parent
    out: list[ManifestEntry] = []
    seen: dict[str, int] = {}
    for i, rec in enumerate(data, start=1):
        if (
            not isinstance(rec, list)
            or len(rec) != 2
            or not all(isinstance(x, str) and x for x in rec)
        ):
            raise PairsError(f"{p}: entry {i} is not an [image, mask] pair of paths")
        image = _inside(root, rec[0], p, i)
        mask = None if rec[1] == NEGATIVE else _inside(root, rec[1], p, i)
        stem = image.stem
        if stem in seen:
            raise PairsError(f"{p}: entries {seen[stem]} and {i} share the image stem {stem!r}")
        seen[stem] = i
        out.append(ManifestEntry(stem, image, mask))
    return out


def image_size(path: Path) -> tuple[int, int]:
    """(height, width) of an image, from its header."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as im:
            w, h = im.size
    except (OSError, UnidentifiedImageError) as exc:
        raise PairsError(f"{path}: not a readable image ({exc})") from None
    return h, w


def read_truth(entry: ManifestEntry) -> tuple[np.ndarray, bool]:
    """(tampered mask, label) of an entry as IMDL-BenCo derives them: RGB mean > 127.5, label =
    any nonzero pixel; a ``"Negative"`` entry is all zero at the image's size. A mask whose size
    differs from its image's is a :class:`PairsError`."""
    from PIL import Image, UnidentifiedImageError

    h, w = image_size(entry.image)
    if entry.mask is None:
        return np.zeros((h, w), dtype=bool), False
    try:
        with Image.open(entry.mask) as im:
            rgb = np.asarray(im.convert("RGB"))
    except (OSError, UnidentifiedImageError) as exc:
        raise PairsError(f"{entry.mask}: not a readable mask ({exc})") from None
    if rgb.shape[:2] != (h, w):
        raise PairsError(
            f"{entry.mask}: mask is {rgb.shape[1]}x{rgb.shape[0]}, its image {entry.image.name} "
            f"is {w}x{h}"
        )
    return rgb.astype(np.float64).mean(axis=2) > 127.5, bool(rgb.any())
