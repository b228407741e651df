"""Pictures for the item viewer: thumbnails, views, variants and difference heatmaps.

Images are copied into ``RUN/report/img/`` as small JPEG/PNG files (never inlined in the page),
so the report opens from disk and stays light for a 63,000-item run. A picture a browser shows as
it is (PNG, JPEG, GIF or WebP, no larger than the view) is placed without decoding it (a hard
link where the file system allows, else a copy), and is its own thumbnail when no larger than
one: decoding and re-encoding every picture of a large run costs minutes. Work already done is
reused: a picture is rebuilt only when its source is newer.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import re
import shutil
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
from PIL import Image

from forgebench.models.base import ImageRef
from forgebench.util import png
from forgebench.util.atomic import atomic_path

THUMB_SIDE = 240
"""Longest side of list thumbnails."""
VIEW_SIDE = 960
"""Longest side of the detail views."""


_UNSAFE_ASCII = re.compile(r"[^0-9A-Za-z_-]")
"""An ASCII character :func:`safe_name` replaces (``str.isalnum`` on ASCII is ``[0-9A-Za-z]``)."""


def safe_name(item_id: str) -> str:
    """A file-name-safe, collision-free stem for an item id: letters and digits (any script),
    ``-`` and ``_`` kept, anything else ``_``, at most 60 of them, then a digest of the id."""
    if item_id.isascii():  # the common case, one regular-expression pass
        clean = _UNSAFE_ASCII.sub("_", item_id[:60])
    else:
        clean = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in item_id[:60])
    digest = hashlib.sha1(item_id.encode("utf-8")).hexdigest()[:8]
    return f"{clean}-{digest}"


AS_IS = {"PNG": ".png", "JPEG": ".jpg", "GIF": ".gif", "WEBP": ".webp"}
"""Formats every browser shows, by the extension a picture placed as it is gets."""
AS_IS_BYTES = 2_000_000
"""Larger files are re-encoded even when small in pixels (a bloated PNG)."""


def _fresh(dst: Path, src: Path) -> bool:
    """Whether ``dst`` is a file no older than ``src`` (one stat when it is not there yet)."""
    try:
        built = os.stat(dst)
    except OSError:
        return False
    return stat.S_ISREG(built.st_mode) and built.st_mtime >= os.stat(src).st_mtime


def _save_scaled(im: Image.Image, dst: Path, side: int) -> tuple[int, int]:
    im = im.convert("RGB")
    im.thumbnail((side, side), Image.Resampling.LANCZOS)
    with atomic_path(dst, durable=False) as tmp:  # a half-written picture never looks made
        im.save(tmp, format="JPEG", quality=85)
    return im.size


def _header(src: Path) -> tuple[str | None, tuple[int, int] | None, float]:
    """The extension ``src`` keeps when shown as it is (None: it must be re-encoded), its size
    in pixels (None: unreadable) and its mtime; reads the header only (a PNG's own 24 bytes,
    other formats through Pillow)."""
    try:
        with open(src, "rb") as fh:
            head = fh.read(24)
            st = os.fstat(fh.fileno())
    except OSError:
        return None, None, 0.0
    big = st.st_size > AS_IS_BYTES
    if head[:8] == png.SIGNATURE and head[12:16] == b"IHDR":
        w, h = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
        if w > 0 and h > 0:
            return (None if big else ".png"), (w, h), st.st_mtime
    try:
        with Image.open(src) as im:
            ext, size = AS_IS.get(im.format or ""), im.size
    except (OSError, ValueError):
        return None, None, 0.0
    return (None if big else ext), size, st.st_mtime


def _place(src: Path, dst: str, mtime: float) -> None:
    """``dst`` holds ``src``'s bytes (``mtime``: the source's): a hard link where the file
    system allows (it appears whole), else a copy swapped in whole (never half-written). A
    picture already there is kept when no older than its source: a new report costs one link
    per picture, with no stat before it."""
    try:
        os.link(src, dst)
        return
    except FileNotFoundError:  # its folder is not made yet (a missing source fails below)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        try:
            os.link(src, dst)
            return
        except OSError:
            pass
    except FileExistsError:  # built before: kept when fresh, else replaced below
        try:
            built = os.stat(dst)
        except OSError:
            pass
        else:
            if stat.S_ISREG(built.st_mode) and built.st_mtime >= mtime:
                return
    except OSError:  # no hard links here (another file system): copied below
        pass
    head, name = os.path.split(dst)
    tmp = os.path.join(head, f".{name}.{os.getpid()}.tmp")
    with contextlib.suppress(FileNotFoundError):
        os.unlink(tmp)
    try:
        os.link(src, tmp)
    except OSError:
        shutil.copyfile(src, tmp)
    os.replace(tmp, dst)


def picture(src: Path, out_dir: Path, stem: str) -> tuple[dict[str, str], tuple[int, int] | None]:
    """The item picture's thumbnail and view (paths relative to ``out_dir``) and its size in
    pixels (None: unreadable). A picture a browser shows as it is and no larger than the view is
    placed as ``view/<stem>.<ext>``, and is its own thumbnail when no larger than one; else
    ``thumb/<stem>.jpg`` and ``view/<stem>.jpg`` are scaled from one decode."""
    ext, size, mtime = _header(src)
    if ext is not None and size is not None and max(size) <= VIEW_SIDE:
        rel = {"view": f"img/view/{stem}{ext}"}
        _place(src, f"{out_dir}/{rel['view']}", mtime)
        if max(size) <= THUMB_SIDE:
            return {"thumb": rel["view"], **rel}, size
        rel["thumb"] = f"img/thumb/{stem}.jpg"
        if not _fresh(out_dir / rel["thumb"], src):
            with Image.open(src) as im:
                _save_scaled(im, out_dir / rel["thumb"], THUMB_SIDE)
        return {"thumb": rel["thumb"], "view": rel["view"]}, size
    rel = {"thumb": f"img/thumb/{stem}.jpg", "view": f"img/view/{stem}.jpg"}
    thumb, view = out_dir / rel["thumb"], out_dir / rel["view"]
    if not (_fresh(thumb, src) and _fresh(view, src)):
        with Image.open(src) as im:
            _save_scaled(im, thumb, THUMB_SIDE)
            _save_scaled(im, view, VIEW_SIDE)
    return rel, size


def thumb_and_view(src: Path, out_dir: Path, stem: str) -> dict[str, str]:
    """:func:`picture` without the size."""
    return picture(src, out_dir, stem)[0]


def file_view(src: Path, out_dir: Path, name: str) -> str | None:
    """A view of one image file as ``img/var/<name>.<ext>``: placed as it is when a browser
    shows it and it is no larger than a view, else scaled to a JPEG; its path relative to
    ``out_dir`` (None: unreadable)."""
    ext, size, mtime = _header(src)
    if size is None:
        return None
    if ext is not None and max(size) <= VIEW_SIDE:
        rel = f"img/var/{name}{ext}"
        _place(src, f"{out_dir}/{rel}", mtime)
        return rel
    rel = f"img/var/{name}.jpg"
    if not _fresh(out_dir / rel, src):
        try:
            with Image.open(src) as im:
                _save_scaled(im, out_dir / rel, VIEW_SIDE)
        except (OSError, ValueError):
            return None
    return rel


def shown_images(
    refs: Sequence[ImageRef], out_dir: Path, seen: dict[str, str | None], own: Mapping[Path, str]
) -> list[str | None]:
    """What a task showed, one picture per image in order, each written once per variant
    (``img/var/<variant id>.<ext>``, the id naming its content) and shared by every answer that
    used it; an image that is the item's own file reuses the item's view (``own``: file -> view).
    A picture placed as it is keeps its format's extension (:func:`file_view`).
    None for a variant whose bytes are gone (a cleaned cache)."""
    out: list[str | None] = []
    for ref in refs:
        if ref.variant_id not in seen:
            path = Path(ref.path)
            rel: str | None = own.get(path)
            if rel is None and own and path.is_file():  # the same file by another name
                real = path.resolve()
                rel = next((v for k, v in own.items() if k.resolve() == real), None)
            if rel is None and path.is_file():
                rel = file_view(path, out_dir, safe_name(ref.variant_id))
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

    rgba = colormaps["inferno"](norm, bytes=True)  # the same bytes as float RGBA * 255, 7x faster
    img = Image.fromarray(np.ascontiguousarray(rgba[..., :3]))
    img.thumbnail((VIEW_SIDE, VIEW_SIDE), Image.Resampling.BILINEAR)
    with atomic_path(dst, durable=False) as tmp:
        img.save(tmp, format="PNG")
    return rel


def image_size(path: Path) -> tuple[int, int] | None:
    """(width, height) of an image file, or None when it cannot be read."""
    try:
        with Image.open(path) as im:
            return im.size
    except OSError:
        return None
