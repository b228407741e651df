"""Pictures for the item viewer: thumbnails, views, variants and difference heatmaps.

Images are copied into ``RUN/report/img/`` as small JPEG/PNG files (never inlined in the page),
so the report opens from disk and stays light for a 2,000-item run. Work already done is reused:
a picture is rebuilt only when its source is newer.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
from PIL import Image

from forgebench.models.base import ImageRef

THUMB_SIDE = 240
"""Longest side of list thumbnails."""
VIEW_SIDE = 960
"""Longest side of the detail views."""


def safe_name(item_id: str) -> str:
    """A file-name-safe, collision-free stem for an item id."""
    clean = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in item_id)[:60]
    digest = hashlib.sha1(item_id.encode("utf-8")).hexdigest()[:8]
    return f"{clean}-{digest}"


def _fresh(dst: Path, src: Path) -> bool:
    return dst.is_file() and dst.stat().st_mtime >= src.stat().st_mtime


def _save_scaled(im: Image.Image, dst: Path, side: int) -> tuple[int, int]:
    im = im.convert("RGB")
    im.thumbnail((side, side), Image.Resampling.LANCZOS)
    dst.parent.mkdir(parents=True, exist_ok=True)
    im.save(dst, format="JPEG", quality=85)
    return im.size


def thumb_and_view(src: Path, out_dir: Path, stem: str) -> dict[str, str]:
    """Write ``thumb/<stem>.jpg`` and ``view/<stem>.jpg``; return their paths relative to out_dir."""
    rel = {"thumb": f"img/thumb/{stem}.jpg", "view": f"img/view/{stem}.jpg"}
    thumb, view = out_dir / rel["thumb"], out_dir / rel["view"]
    if not (_fresh(thumb, src) and _fresh(view, src)):
        with Image.open(src) as im:
            _save_scaled(im, thumb, THUMB_SIDE)
            _save_scaled(im, view, VIEW_SIDE)
    return rel


def shown_images(
    refs: Sequence[ImageRef], out_dir: Path, seen: dict[str, str | None], own: Mapping[Path, str]
) -> list[str | None]:
    """What a task showed, one picture per image in order, each written once per variant
    (``img/var/<variant id>.jpg``, the id naming its content) and shared by every answer that
    used it; an image that is the item's own file reuses the item's view (``own``: file -> view).
    None for a variant whose bytes are gone (a cleaned cache)."""
    out: list[str | None] = []
    for ref in refs:
        if ref.variant_id not in seen:
            path = Path(ref.path)
            rel: str | None = own.get(path.resolve()) if path.is_file() else None
            if rel is None and path.is_file():
                rel = f"img/var/{safe_name(ref.variant_id)}.jpg"
                dst = out_dir / rel
                if not dst.is_file():
                    try:
                        with Image.open(path) as im:
                            _save_scaled(im, dst, VIEW_SIDE)
                    except (OSError, ValueError):
                        rel = None
            seen[ref.variant_id] = rel
        out.append(seen[ref.variant_id])
    return out


def bytes_view(data: bytes, out_dir: Path, name: str) -> str:
    """Write a variant's bytes as a view-sized JPEG; return its relative path."""
    rel = f"img/var/{name}.jpg"
    dst = out_dir / rel
    if not dst.is_file():
        with Image.open(io.BytesIO(data)) as im:
            _save_scaled(im, dst, VIEW_SIDE)
    return rel


def diff_heatmap(forgery: Path, original: Path, out_dir: Path, stem: str) -> str | None:
    """Per-pixel mean absolute RGB difference of forgery vs original as a heatmap PNG.

    The forgery is brought to the original's size when they differ (bilinear). Returns the
    relative path, or None when either image cannot be read.
    """
    rel = f"img/diff/{stem}.png"
    dst = out_dir / rel
    if _fresh(dst, forgery) and _fresh(dst, original):
        return rel
    try:
        with Image.open(original) as o, Image.open(forgery) as f:
            a = np.asarray(o.convert("RGB"), dtype=np.int16)
            fr = f.convert("RGB")
            if fr.size != o.size:
                fr = fr.resize(o.size, Image.Resampling.BILINEAR)
            b = np.asarray(fr, dtype=np.int16)
    except OSError:
        return None
    diff = np.abs(a - b).mean(axis=2) / 255.0
    peak = float(diff.max())
    norm = diff / peak if peak > 0 else diff
    from matplotlib import colormaps

    rgba = colormaps["inferno"](norm)
    img = Image.fromarray((rgba[..., :3] * 255).astype(np.uint8))
    img.thumbnail((VIEW_SIDE, VIEW_SIDE), Image.Resampling.BILINEAR)
    dst.parent.mkdir(parents=True, exist_ok=True)
    img.save(dst, format="PNG")
    return rel


def image_size(path: Path) -> tuple[int, int] | None:
    """(width, height) of an image file, or None when it cannot be read."""
    try:
        with Image.open(path) as im:
            return im.size
    except OSError:
        return None
