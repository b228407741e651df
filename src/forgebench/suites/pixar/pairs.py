"""PIXAR inputs: (original, edited) image pairs, label maps and decoded images.

Two ways to name pairs:

- a folder holding ``original/`` and ``edited/`` whose files match by name (the stem and the
  extension may differ: ``original/cat.jpg`` pairs with ``edited/cat.png``);
- a CSV file with the columns ``original,edited`` (paths relative to the CSV's folder, or
  absolute).

Every problem a user can cause (missing folder, unmatched names, duplicate stems, an image that
does not decode) raises :class:`PairsError` with one line that names the thing.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from forgebench.errors import UserError
from forgebench.util import png

IMAGE_SUFFIXES: frozenset[str] = frozenset(
    {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}
)
"""File suffixes taken as images when listing ``original/`` and ``edited/``."""


class PairsError(UserError, ValueError):
    """A user-caused problem with the pairs, labels or predictions (one clear line)."""


@dataclass(frozen=True)
class Pair:
    """One (original, edited) pair; ``stem`` names its label map (the edited file's stem)."""

    stem: str
    original: Path
    edited: Path


def _images_in(folder: Path) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for p in sorted(folder.iterdir()):
        if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES:
            if p.stem in found:
                raise PairsError(f"{folder}: two images share the stem {p.stem!r}")
            found[p.stem] = p
    return found


def _pairs_from_folder(root: Path) -> list[Pair]:
    odir, edir = root / "original", root / "edited"
    for d in (odir, edir):
        if not d.is_dir():
            raise PairsError(f"{root}: missing folder {d.name}/ (expected original/ and edited/)")
    originals, edits = _images_in(odir), _images_in(edir)
    if not edits:
        raise PairsError(f"{edir}: no images")
    no_orig = sorted(set(edits) - set(originals))
    no_edit = sorted(set(originals) - set(edits))
    if no_orig or no_edit:
        parts = []
        if no_orig:
            parts.append(f"edited without original: {', '.join(no_orig[:5])}")
        if no_edit:
            parts.append(f"original without edited: {', '.join(no_edit[:5])}")
        raise PairsError(f"{root}: unmatched names ({'; '.join(parts)})")
    return [Pair(s, originals[s], edits[s]) for s in sorted(edits)]


def _pairs_from_csv(path: Path) -> list[Pair]:
    try:
        with path.open(newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            fields = [f.strip() for f in (reader.fieldnames or [])]
            if "original" not in fields or "edited" not in fields:
                raise PairsError(f"{path}: needs the columns original,edited (found {fields})")
            rows = [{(k or "").strip(): (v or "").strip() for k, v in r.items()} for r in reader]
    except UnicodeDecodeError as exc:
        raise PairsError(f"{path}: not a UTF-8 CSV file ({exc.reason})") from exc
    pairs: list[Pair] = []
    seen: dict[str, int] = {}
    for line, row in enumerate(rows, start=2):
        o, e = row.get("original", ""), row.get("edited", "")
        if not o or not e:
            raise PairsError(f"{path}:{line}: empty original or edited")
        op, ep = (path.parent / o), (path.parent / e)
        for p in (op, ep):
            if not p.is_file():
                raise PairsError(f"{path}:{line}: no such file {p}")
        if ep.stem in seen:
            raise PairsError(
                f"{path}:{line}: edited stem {ep.stem!r} repeats line {seen[ep.stem]} "
                "(label maps are named by it)"
            )
        seen[ep.stem] = line
        pairs.append(Pair(ep.stem, op, ep))
    if not pairs:
        raise PairsError(f"{path}: no rows")
    return pairs


def load_pairs(source: str | Path) -> list[Pair]:
    """The pairs named by a folder (``original/`` + ``edited/``) or a CSV (``original,edited``)."""
    path = Path(source)
    if path.is_dir():
        return _pairs_from_folder(path)
    if path.is_file():
        if path.suffix.lower() != ".csv":
            raise PairsError(f"{path}: expected a folder or a .csv file")
        return _pairs_from_csv(path)
    raise PairsError(f"{path}: no such folder or CSV file")


def _decode(path: Path, flags: int, *, rgb: bool = False) -> np.ndarray:
    """``path`` decoded by OpenCV with ``flags``; ``rgb``: ``IMREAD_COLOR`` in RGB order, by
    libspng where it may decode the file."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise PairsError(f"{path}: cannot read ({exc.strerror})") from exc
    if rgb:
        fast = png.rgb8(data)
        if fast is not None:
            return fast
    img = cv2.imdecode(np.frombuffer(data, np.uint8), flags) if data else None
    if img is None:
        raise PairsError(f"{path}: not a decodable image")
    return cv2.cvtColor(img, cv2.COLOR_BGR2RGB) if rgb else img


def read_rgb(path: str | Path) -> np.ndarray:
    """An image as ``uint8`` H x W x 3 RGB (OpenCV's IMREAD_COLOR, as PIXAR's script reads).

    Alpha is dropped, grey is expanded to three channels and 16-bit images are scaled to 8 bits.
    A plain 8-bit RGB PNG is decoded by libspng when installed (``util/png.py``: the same pixels,
    in RGB order without a channel swap), anything else by OpenCV.
    """
    return _decode(Path(path), cv2.IMREAD_COLOR, rgb=True)


def read_mask(path: str | Path) -> np.ndarray:
    """A label map or mask PNG as a boolean H x W array: nonzero = changed / tampered."""
    img = _decode(Path(path), cv2.IMREAD_UNCHANGED)
    if img.ndim == 3:
        img = img.max(axis=2)
    return np.asarray(img != 0)


def read_score_map(path: str | Path, bounded: bool = True) -> np.ndarray:
    """A score map ``.npy`` of shape (H, W), (H, W, 1) or (1, H, W): finite floats (float32, as
    H x W), in [0, 1] when ``bounded``
    (unbounded: logits, as PIXAR's released evaluation takes them)."""
    p = Path(path)
    try:
        arr = np.load(p, allow_pickle=False)
    except (OSError, ValueError) as exc:
        raise PairsError(f"{p}: not a readable .npy array ({exc})") from exc
    if arr.ndim == 3 and arr.shape[2] == 1:
        arr = arr[:, :, 0]
    elif arr.ndim == 3 and arr.shape[0] == 1:  # (1, H, W): a model's channel-first output
        arr = arr[0]
    if arr.ndim != 2 or not np.issubdtype(arr.dtype, np.number) or arr.size == 0:
        raise PairsError(
            f"{p}: expected a score map of shape (H, W), (H, W, 1) or (1, H, W), "
            f"got shape {arr.shape}"
        )
    arr = arr.astype(np.float32, copy=False)
    if not np.isfinite(arr).all():
        raise PairsError(f"{p}: score map holds NaN or infinite values")
    lo, hi = float(arr.min()), float(arr.max())
    if bounded and (lo < 0.0 or hi > 1.0):
        raise PairsError(f"{p}: scores must lie in [0, 1] (found {lo:g}..{hi:g})")
    return arr


def read_gray(path: str | Path) -> np.ndarray:
    """A mask PNG as ``uint8`` grey levels (OpenCV's IMREAD_GRAYSCALE, as PIXAR's loader)."""
    return _decode(Path(path), cv2.IMREAD_GRAYSCALE)


def encode_label_png(mask: np.ndarray) -> bytes:
    """A label map's PNG bytes: 255 where ``mask`` is true (or nonzero), 0 elsewhere."""
    out = np.where(np.asarray(mask) != 0, 255, 0).astype(np.uint8)
    ok, buf = cv2.imencode(".png", out)
    if not ok:  # pragma: no cover - OpenCV encodes any 2-D uint8 array
        raise PairsError("PNG encoding of a label map failed")
    return bytes(buf.tobytes())


def write_label_png(mask: np.ndarray, path: str | Path) -> None:
    """Write a label map PNG: 255 where ``mask`` is true (or nonzero), 0 elsewhere."""
    Path(path).write_bytes(encode_label_png(mask))
