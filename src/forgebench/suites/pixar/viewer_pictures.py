"""The pictures PIXAR's answers and scored pairs show in the report's item viewer: predicted
masks, truth maps and edited images, each written once as a small PNG thumbnail named by the hash
of its bytes (``report/img/pixar/<sha256>.png``), so a picture shown for several models is stored
once. A score map (``.npy``, floats in [0, 1]) is shown as the mask it is scored as (score >=
threshold, :mod:`.localization`).

The report once had a gallery page of its own for these; they are now in the one viewer
(``report/index.html#items``), beside each answer (:mod:`.facets.viewer`).
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import numpy as np
from PIL import Image

from forgebench.suites.pixar.pairs import read_score_map
from forgebench.util.atomic import atomic_path

FOLDER = "img/pixar"
THUMB = 192
"""Longest side of a thumbnail, in pixels."""


_MADE: dict[tuple[str, str, int, int, float], str] = {}
"""(report folder, picture, mtime, size, threshold) -> its thumbnail, made once per report."""


def thumb(path: Path, out: Path, threshold: float = 0.5) -> str | None:
    """A picture's thumbnail (``img/pixar/<sha256>.png``), relative to the report folder
    ``out``, written once; None when there is no such picture (or it cannot be read). A score
    map (``.npy``) is shown as its mask at ``threshold``."""
    try:
        st = path.stat()
    except OSError:
        return None
    key = (str(out), str(path), st.st_mtime_ns, st.st_size, threshold)
    if key not in _MADE:
        rel = _thumb(path, out, threshold)
        if rel is None:
            return None
        if len(_MADE) > 100_000:
            _MADE.clear()
        _MADE[key] = rel
    return _MADE[key]


def _open(path: Path, threshold: float) -> Image.Image:
    """The picture, a score map as its mask (white: tampered)."""
    if path.suffix.lower() == ".npy":
        scores = read_score_map(path, bounded=True)
        return Image.fromarray(np.where(scores >= threshold, 255, 0).astype(np.uint8), "L")
    with Image.open(path) as im:
        im.load()
        shown = im.copy()
    if shown.mode == "L":  # a 0/1 mask shown as black and white
        arr = np.asarray(shown)
        if arr.size and int(arr.max()) == 1:
            shown = Image.fromarray((arr * 255).astype(np.uint8), "L")
    return shown


def _thumb(path: Path, out: Path, threshold: float) -> str | None:
    """The thumbnail's path relative to the report folder (None: no such picture)."""
    if not path.is_file():
        return None
    try:
        im = _open(path, threshold)
        im.thumbnail((THUMB, THUMB))
        buf = io.BytesIO()
        im.convert("RGB" if im.mode not in ("L", "1") else "L").save(buf, format="PNG")
    except (OSError, ValueError):
        return None
    data = buf.getvalue()
    name = f"{hashlib.sha256(data).hexdigest()}.png"
    target = out / FOLDER / name
    if not target.exists():
        with atomic_path(target) as tmp:
            tmp.write_bytes(data)
    return f"{FOLDER}/{name}"
