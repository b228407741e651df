"""Content-addressed image files of a Forensics dataset folder.

An image's bytes are written once, to ``images/<h[:2]>/<h>.<ext>`` where ``h`` is the sha256 of
the bytes and ``ext`` comes from the decoded format; writing the same bytes again is free. The
store and the logs never hold image bytes or base64, only these paths.
"""

from __future__ import annotations

import hashlib
import io
import warnings
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, UnidentifiedImageError

from forgebench.util.images import pixel_limit_error

_EXT = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp", "GIF": "gif", "BMP": "bmp", "TIFF": "tif"}


class NotAnImage(ValueError):
    """Bytes that PIL cannot identify as an image."""


@dataclass(frozen=True)
class StoredImage:
    """Where an image landed and what it is."""

    path: str
    """Relative to the dataset folder, POSIX separators."""
    size: tuple[int, int]
    """Width, height."""


def probe(data: bytes) -> tuple[str, tuple[int, int]]:
    """``(format, (width, height))`` of encoded image bytes (reads the header only); an image
    over the dataset pixel limit (:func:`forgebench.util.images.pixel_limit_error`) is
    :class:`NotAnImage` too: it is never decoded."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as im:
                fmt, size = str(im.format or ""), (int(im.width), int(im.height))
    except Image.DecompressionBombError as exc:
        raise NotAnImage(f"refused: {exc}") from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as exc:
        raise NotAnImage(str(exc) or "unrecognised image data") from None
    too_big = pixel_limit_error(*size)
    if too_big is not None:
        raise NotAnImage(too_big)
    return fmt, size


class ImageFolder:
    """Writes images under ``root/images`` by content hash."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._known: dict[str, StoredImage] = {}

    def put(self, data: bytes) -> StoredImage:
        """Store ``data`` (encoded image bytes) once; raise :class:`NotAnImage` if it is not one."""
        digest = hashlib.sha256(data).hexdigest()
        hit = self._known.get(digest)
        if hit is not None:
            return hit
        fmt, size = probe(data)
        rel = f"images/{digest[:2]}/{digest}.{_EXT.get(fmt, fmt.lower() or 'bin')}"
        dest = self.root / rel
        if not dest.exists():
            dest.parent.mkdir(parents=True, exist_ok=True)
            tmp = dest.with_suffix(dest.suffix + ".part")
            tmp.write_bytes(data)
            tmp.replace(dest)
        stored = StoredImage(rel, size)
        self._known[digest] = stored
        return stored
