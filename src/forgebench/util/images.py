"""Image checks and the paper's normalisation (seed 000, Appendix C).

Three things live here:

- :func:`inspect_image` decodes an image completely (``Image.open(...).load()``) and reports its
  stored size, format and EXIF orientation; the validator uses it for every image it names.
- :func:`normalize_image` re-encodes an image the way the paper prepares its release before
  evaluation: *"images are re-encoded at JPEG quality 92 with the longest side set to 1280 px"*.
- :func:`scale_box` / :func:`transpose_box` carry pixel boxes along with the pixels.

Choices where the paper is silent (recorded in ``normalization.json`` by ``forgebench import``):

- Only downscaling: an image whose longest side is at most 1280 px keeps its size (upscaling adds
  no information and would change the stored pixels' statistics); it is still re-encoded.
- The longest side becomes exactly 1280; the other side is ``round(other * 1280 / longest)``
  (at least 1). Resampling filter: Lanczos (``Image.Resampling.LANCZOS``).
- An EXIF orientation other than 1 is applied first (the pixels are turned upright, as a viewer
  shows them) and the boxes are transposed with them; the written JPEG carries no EXIF.
  The ICC profile, if any, is kept so colours do not shift.
- Alpha is flattened onto white; palette and other modes become RGB; grayscale stays grayscale.
- JPEG quality 92 with Pillow's default chroma subsampling for that quality (4:2:0), no
  ``optimize``/``progressive`` flags, so the bytes are reproducible for a pinned Pillow.
- Boxes are half-open integer boxes; scaling rounds **outward**: ``x0' = floor(x0 * w' / w)``,
  ``y0' = floor(y0 * h' / h)``, ``x1' = ceil(x1 * w' / w)``, ``y1' = ceil(y1 * h' / h)``, in exact
  integer arithmetic. The scaled box therefore covers every pixel the original box touched, stays
  inside the image (``x1 <= w`` implies ``x1' <= w'``), stays non-empty, and containment between
  boxes (a crop that contains an edit region) is preserved.
"""

from __future__ import annotations

import hashlib
import warnings
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, UnidentifiedImageError

from forgebench.util.png import bare_after_pixels

BoxT = tuple[int, int, int, int]

JPEG_QUALITY = 92
"""Appendix C: JPEG quality of the re-encoded release images."""
LONGEST_SIDE = 1280
"""Appendix C: longest side in pixels of the re-encoded release images."""
EXIF_ORIENTATION_TAG = 0x0112

_ORIENTATION_NAMES = {
    1: "normal",
    2: "mirrored",
    3: "rotated 180°",
    4: "flipped vertically",
    5: "mirrored and rotated 270° clockwise",
    6: "rotated 90° clockwise",
    7: "mirrored and rotated 90° clockwise",
    8: "rotated 270° clockwise",
}


class ImageCheckError(Exception):
    """An image that is missing or cannot be decoded; the message says which and why."""


@dataclass(frozen=True)
class ImageInfo:
    """What the validator needs to know about a decoded image."""

    width: int
    height: int
    format: str | None
    orientation: int | None

    @property
    def size(self) -> tuple[int, int]:
        """``(width, height)`` of the stored pixel grid."""
        return (self.width, self.height)


def orientation_name(orientation: int) -> str:
    """Human words for an EXIF orientation value."""
    return _ORIENTATION_NAMES.get(orientation, f"unknown value {orientation}")


def pixel_limit_error(width: int, height: int) -> str | None:
    """Why a ``width`` x ``height`` image is too large to decode safely (Pillow's decompression
    bomb limit, ``Image.MAX_IMAGE_PIXELS``), or None. Sizes come from the file header."""
    limit = Image.MAX_IMAGE_PIXELS
    if limit is None or width * height <= limit:
        return None
    return (
        f"{width}x{height} pixels ({width * height / 1e6:.1f} Mpx) is more than the "
        f"{limit / 1e6:.1f} Mpx that is safe to decode; downscale it"
    )


def inspect_image(path: Path, *, decode: bool = True) -> ImageInfo:
    """Decode ``path`` completely (with ``decode=False``: read only its header) and return its
    size, format and EXIF orientation.

    With ``decode=False`` a PNG whose metadata chunks all come before its pixels is not decoded;
    one with a chunk after them (an eXIf or text chunk there may hold the orientation) is, since
    Pillow reaches those chunks only by decoding.

    An image larger than :func:`pixel_limit_error` allows is refused from its header, never
    decoded.

    Raises :class:`ImageCheckError` when the file is missing, is not an image, or is truncated or
    otherwise undecodable.
    """
    if not path.exists():
        raise ImageCheckError("file not found")
    if not path.is_file():
        raise ImageCheckError("not a file")
    try:
        with warnings.catch_warnings():
            # the size is checked below from the header, in forgebench's words
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as im:
                too_big = pixel_limit_error(im.width, im.height)
                if too_big is not None:
                    raise ImageCheckError(too_big)
                if decode:
                    im.load()
                    exif = im.getexif()
                elif im.format == "PNG" and "exif" not in im.info and bare_after_pixels(path):
                    # Pillow's PngImageFile.getexif decodes the whole image to look for an eXIf
                    # or text chunk written after the pixels; with none there, decoding would add
                    # nothing, so the header's chunks give the same answer (the base method)
                    exif = Image.Image.getexif(im)
                else:
                    exif = im.getexif()
                orientation = exif.get(EXIF_ORIENTATION_TAG)
                return ImageInfo(
                    width=im.width,
                    height=im.height,
                    format=im.format,
                    orientation=int(orientation) if isinstance(orientation, int) else None,
                )
    except UnidentifiedImageError:
        raise ImageCheckError("not a recognised image file") from None
    except Image.DecompressionBombError as exc:
        raise ImageCheckError(f"refused to decode: {exc}") from None
    except (OSError, SyntaxError, ValueError) as exc:
        raise ImageCheckError(f"cannot be decoded: {exc}") from None


def sha256_file(path: Path) -> str:
    """Hex SHA-256 of a file's bytes."""
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def transpose_box(box: BoxT, orientation: int, size: tuple[int, int]) -> BoxT:
    """Map a half-open box of the stored grid (``size``) to the grid after EXIF transposition.

    The mapping is the one ``PIL.ImageOps.exif_transpose`` applies to the pixels.
    """
    x0, y0, x1, y1 = box
    w, h = size
    if orientation == 2:  # FLIP_LEFT_RIGHT
        return (w - x1, y0, w - x0, y1)
    if orientation == 3:  # ROTATE_180
        return (w - x1, h - y1, w - x0, h - y0)
    if orientation == 4:  # FLIP_TOP_BOTTOM
        return (x0, h - y1, x1, h - y0)
    if orientation == 5:  # TRANSPOSE: (x, y) -> (y, x)
        return (y0, x0, y1, x1)
    if orientation == 6:  # ROTATE_270 (clockwise 90): (x, y) -> (h - y, x)
        return (h - y1, x0, h - y0, x1)
    if orientation == 7:  # TRANSVERSE: (x, y) -> (h - y, w - x)
        return (h - y1, w - x1, h - y0, w - x0)
    if orientation == 8:  # ROTATE_90 (counter-clockwise 90): (x, y) -> (y, w - x)
        return (y0, w - x1, y1, w - x0)
    return box


def target_size(size: tuple[int, int], longest_side: int = LONGEST_SIDE) -> tuple[int, int]:
    """The size after normalisation: longest side ``longest_side``, only ever downscaled."""
    w, h = size
    longest = max(w, h)
    if longest <= longest_side:
        return (w, h)
    if w >= h:
        return (longest_side, max(1, round(h * longest_side / w)))
    return (max(1, round(w * longest_side / h)), longest_side)


def scale_box(box: BoxT, src: tuple[int, int], dst: tuple[int, int]) -> BoxT:
    """Scale a half-open box from a ``src`` grid to a ``dst`` grid, rounding outward (exact)."""
    x0, y0, x1, y1 = box
    (sw, sh), (dw, dh) = src, dst
    return (
        (x0 * dw) // sw,
        (y0 * dh) // sh,
        -((-x1 * dw) // sw),
        -((-y1 * dh) // sh),
    )


@dataclass(frozen=True)
class Normalized:
    """What :func:`normalize_image` did to one image."""

    source_sha256: str
    """SHA-256 of the source file's bytes."""
    source_size: tuple[int, int]
    """Stored size of the source (before EXIF transposition)."""
    orientation: int
    """EXIF orientation applied (1 when none)."""
    upright_size: tuple[int, int]
    """Size after EXIF transposition, before scaling."""
    size: tuple[int, int]
    """Size of the written JPEG."""

    @property
    def scale(self) -> float:
        """Longest side written / longest side upright (1.0 when not downscaled)."""
        return max(self.size) / max(self.upright_size)

    def map_box(self, box: BoxT) -> BoxT:
        """Carry a box of the source's stored grid into the written image's grid."""
        upright = transpose_box(box, self.orientation, self.source_size)
        if self.size == self.upright_size:
            return upright
        return scale_box(upright, self.upright_size, self.size)


def _flatten(im: Image.Image) -> Image.Image:
    """RGB (or L for grayscale) pixels, alpha flattened onto white."""
    if im.mode in ("L", "RGB"):
        return im
    if im.mode == "P" and "transparency" in im.info:
        im = im.convert("RGBA")
    if im.mode in ("RGBA", "LA", "PA", "RGBa", "La"):
        rgba = im.convert("RGBA")
        canvas = Image.new("RGB", rgba.size, (255, 255, 255))
        canvas.paste(rgba, mask=rgba.getchannel("A"))
        return canvas
    return im.convert("RGB")


def normalize_image(
    src: Path, dst: Path, *, quality: int = JPEG_QUALITY, longest_side: int = LONGEST_SIDE
) -> Normalized:
    """Re-encode ``src`` as a JPEG at ``dst`` (quality 92, longest side 1280; module docstring)."""
    digest = sha256_file(src)
    with Image.open(src) as opened:
        opened.load()
        source_size = opened.size
        orientation = opened.getexif().get(EXIF_ORIENTATION_TAG)
        orientation = orientation if isinstance(orientation, int) and 1 <= orientation <= 8 else 1
        icc = opened.info.get("icc_profile")
        im: Image.Image = opened
        method = {
            2: Image.Transpose.FLIP_LEFT_RIGHT,
            3: Image.Transpose.ROTATE_180,
            4: Image.Transpose.FLIP_TOP_BOTTOM,
            5: Image.Transpose.TRANSPOSE,
            6: Image.Transpose.ROTATE_270,
            7: Image.Transpose.TRANSVERSE,
            8: Image.Transpose.ROTATE_90,
        }.get(orientation)
        if method is not None:
            im = im.transpose(method)
        upright_size = im.size
        im = _flatten(im)
        size = target_size(upright_size, longest_side)
        if size != upright_size:
            im = im.resize(size, Image.Resampling.LANCZOS)
        dst.parent.mkdir(parents=True, exist_ok=True)
        kwargs: dict[str, object] = {"quality": quality}
        if icc:
            kwargs["icc_profile"] = icc
        im.save(dst, "JPEG", **kwargs)
    return Normalized(
        source_sha256=digest,
        source_size=source_size,
        orientation=orientation,
        upright_size=upright_size,
        size=size,
    )
