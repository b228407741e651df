"""Decode plain 8-bit RGB PNG files with libspng (``pyspng``, the ``fastpng`` extra): about a
fifth less time than OpenCV's libpng on the same file, the same pixels.

:func:`rgb8` takes only the files on which both decoders agree by construction: a well-formed
chunk sequence from ``IHDR`` to ``IEND`` with nothing after it, colour type 2 (truecolour) at bit
depth 8, no ``eXIf`` chunk (OpenCV turns the image by its orientation tag) and no ``acTL`` (an
animated PNG, whose frames OpenCV reads its own way). Neither applies ``gAMA``, ``iCCP`` or
``sBIT``, and ``tRNS`` leaves the colour samples as they are. Anything else returns None and the
caller decodes with OpenCV as before, which also gives the error a damaged file earns.

pyspng decodes with CRC checking switched off and does not check the zlib stream's Adler-32, so
:func:`rgb8` checks every chunk's CRC itself first (about 1 ms for a 2 MB file): damage on disk or
in transit is caught, as libpng catches it. A file *crafted* with valid CRCs over a deflate
stream whose Adler-32 is wrong decodes here where libpng would refuse it.

:func:`bare_after_pixels` reads a PNG file's chunk layout only (for
:func:`forgebench.util.images.inspect_image`'s header read: Pillow decodes a PNG to reach the
chunks after its pixels).
"""

from __future__ import annotations

import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

SIGNATURE = b"\x89PNG\r\n\x1a\n"
_OPENCV_READS_OTHERWISE = frozenset({b"eXIf", b"acTL"})

_spng: Any = None
_spng_checked = False


def _decoder() -> Any:
    global _spng, _spng_checked
    if not _spng_checked:
        _spng_checked = True
        try:
            import pyspng
        except ImportError:  # the fastpng extra is not installed: OpenCV decodes everything
            pyspng = None
        _spng = pyspng
    return _spng


def available() -> bool:
    """Whether libspng is installed (``pip install forgebench[fastpng]``)."""
    return _decoder() is not None


def plain_rgb8(data: bytes) -> tuple[int, int] | None:
    """(height, width) when ``data`` is a whole 8-bit RGB PNG that :func:`rgb8` may decode:
    every chunk well formed with a correct CRC, ``IEND`` last, no chunk OpenCV reads otherwise
    (see the module docstring); None otherwise."""
    if data[:8] != SIGNATURE or len(data) < 8 + 25 + 12:
        return None
    view = memoryview(data)
    if bytes(view[12:16]) != b"IHDR" or int.from_bytes(view[8:12], "big") != 13:
        return None
    width, height = int.from_bytes(view[16:20], "big"), int.from_bytes(view[20:24], "big")
    if view[24] != 8 or view[25] != 2 or not width or not height:  # bit depth, colour type
        return None
    pos, size = 8, len(data)
    while True:
        if pos + 12 > size:
            return None
        end = pos + 12 + int.from_bytes(view[pos : pos + 4], "big")
        if end > size:
            return None
        kind = bytes(view[pos + 4 : pos + 8])
        if kind in _OPENCV_READS_OTHERWISE:
            return None
        if zlib.crc32(view[pos + 4 : end - 4]) != int.from_bytes(view[end - 4 : end], "big"):
            return None
        if kind == b"IEND":
            return (height, width) if end == size else None
        pos = end


def bare_after_pixels(path: Path) -> bool:
    """Whether the PNG file at ``path`` has only IDAT chunks, then IEND, from its first IDAT
    chunk on (its metadata all before the pixels, as writers put it). Walks the chunk headers,
    seeking over their data (no CRC is checked: nothing is decoded from them); False for anything
    else, a short file included."""
    try:
        with path.open("rb") as fh:
            if fh.read(8) != SIGNATURE:
                return False
            in_pixels = False
            while True:
                head = fh.read(8)
                if len(head) < 8:
                    return False
                kind = head[4:]
                if kind == b"IEND":
                    return in_pixels
                if kind == b"IDAT":
                    in_pixels = True
                elif in_pixels:
                    return False
                fh.seek(int.from_bytes(head[:4], "big") + 4, 1)  # the data, then the CRC
    except OSError:
        return False


def rgb8(data: bytes) -> np.ndarray | None:
    """``data`` decoded as ``uint8`` H x W x 3 in RGB order, or None when libspng is missing or
    the file is not one :func:`plain_rgb8` accepts (decode it with OpenCV then)."""
    import numpy as np  # here: the header walk above serves runs that never load NumPy

    spng = _decoder()
    if spng is None:
        return None
    shape = plain_rgb8(data)
    if shape is None:
        return None
    try:
        img = spng.load(data, format="RGB")
    except (RuntimeError, ValueError):
        return None
    if img.shape != (*shape, 3) or img.dtype != np.uint8:
        return None
    return np.asarray(img)
