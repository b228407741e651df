"""Conditions: how an item becomes the image a model sees (seed 000, §4.2, Appendices J and N).

Each condition of :data:`forgebench.suites.mandela.ids.CONDITIONS` maps an item to an image variant
(or to no image, ``none``) plus prompt context (the caption conditions; see ``expand.py``):

==================== ===================================================================
``full``             the original file's bytes, untouched: no re-encoding, no resizing
``full_caption``     the ``full`` image (the caption goes into the prompt)
``full_wrong_caption`` the ``full`` image (the wrong event's caption, Appendix J)
``crop``             ``item.crop`` cut from the image (half-open box, as PIL's ``crop``)
``crop_caption``     the ``crop`` image (the caption goes into the prompt)
``mirror``           the full image flipped horizontally (Table 7: "the full image flipped")
``face_original``    ``faces.original`` cut from ``faces.original_image`` at native resolution,
                     centred on a neutral canvas (Appendix N)
``face_replacement`` ``faces.replacement`` cut from the item's image, same canvas
``none``             no image (text-only probes)
==================== ===================================================================

Caption conditions share the image of their base condition (:func:`image_condition`), so the
bytes are stored once and the variant id is the base's.

**Variant id.** ``sha256`` over the source file's sha256, the image condition, its parameters
and the renderer tag (:data:`RENDERER_VERSION` for derived variants). For ``full`` the tag is
``"original"``: the bytes are the file's own, so bumping the renderer never re-asks Full tasks.
Parameters follow from the item alone (:func:`variant_params`), so an id is computed from the
source bytes without rendering.

**Derived bytes.** Derived variants are encoded losslessly as PNG with fixed settings
(``compress_level=3``, no ``optimize``, no metadata but the source's ICC profile), so one input
gives identical bytes on every call for the pinned Pillow/zlib versions. Level 3 rather than 6:
on the demo's 164 variants it encodes in 3.7 CPU-s instead of 8.5 for 7% more bytes (level 1:
3.0 CPU-s, 17% more); the pixels, and so every id and answer, are the same at any level, so
variants a level-6 version left in the cache folder stay valid. Pixels are not
resampled. Modes other than L/LA/RGB/RGBA are converted to RGB (RGBA when the image carries
transparency) before cutting; face canvases are always RGB. EXIF orientation is ignored:
boxes live in the stored pixel grid (DESIGN.md), and the validator reports rotated files.

**Face canvas** (Appendix N says only "a neutral canvas"; our choice): a square of side
``max(512, 2 * max(box width, box height))`` filled with mid-grey ``(128, 128, 128)``, the face
pasted unscaled at ``((side - w) // 2, (side - h) // 2)``.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forgebench.run.images import (
    ORIGINAL,
    ConditionError,
    VariantSpec,
    extension_for,
    media_type_of,
    read_image,
)
from forgebench.run.images import variant_id_from_digest as engine_variant_id
from forgebench.suites.mandela.contract import Item
from forgebench.suites.mandela.ids import CONDITIONS

if TYPE_CHECKING:
    from PIL import Image

RENDERER_VERSION = "r1"
"""Version of the derived-variant renderer; part of every derived variant id."""

FULL_TAG = ORIGINAL
"""Renderer tag of ``full``: the original bytes, untouched."""

FACE_CANVAS_MIN = 512
"""Smallest face-canvas side, in pixels."""
FACE_CANVAS_FILL = (128, 128, 128)
"""Face-canvas colour (neutral mid-grey)."""
PNG_COMPRESS_LEVEL = 3
"""Fixed zlib level of derived PNGs (deterministic bytes)."""

IMAGE_CONDITION: dict[str, str | None] = {
    "full": "full",
    "full_caption": "full",
    "full_wrong_caption": "full",
    "crop": "crop",
    "crop_caption": "crop",
    "mirror": "mirror",
    "face_original": "face_original",
    "face_replacement": "face_replacement",
    "none": None,
}
"""The condition whose image each condition shows (``None``: no image)."""

_KEPT_MODES = frozenset({"L", "LA", "RGB", "RGBA"})


@dataclass(frozen=True)
class Variant:
    """One rendered image variant."""

    id: str
    """Content-derived id (see the module docstring)."""
    data: bytes
    """The bytes sent to a model."""
    media_type: str
    """``image/png`` for derived variants; the file's own type for ``full``."""
    width: int
    """Pixel width."""
    height: int
    """Pixel height."""
    condition: str
    """The image condition (``full``, ``crop``, ``mirror``, ``face_original``, ...)."""
    params: dict[str, Any] = field(default_factory=dict)
    """Rendering parameters (boxes, canvas), as hashed into ``id``."""

    @property
    def extension(self) -> str:
        """File extension for the media type (``png``, ``jpg``, ...)."""
        return extension_for(self.media_type)


def image_condition(condition: str) -> str | None:
    """The condition whose image ``condition`` shows; ``ConditionError`` for an unknown name."""
    try:
        return IMAGE_CONDITION[condition]
    except KeyError:
        raise ConditionError(
            f"unknown condition {condition!r}; known: {', '.join(CONDITIONS)}"
        ) from None


def check(item: Item, condition: str) -> None:
    """Raise :class:`ConditionError` when ``item`` lacks what ``condition`` needs."""
    base = image_condition(condition)
    if base == "crop" and item.crop is None:
        raise ConditionError(f"item {item.id!r}: condition {condition!r} needs a crop box")
    if base in ("face_original", "face_replacement") and item.faces is None:
        raise ConditionError(f"item {item.id!r}: condition {condition!r} needs faces")
    if condition == "full_wrong_caption" and item.wrong_event is None:
        raise ConditionError(f"item {item.id!r}: condition {condition!r} needs a wrong_event")


def face_canvas_side(box: tuple[int, int, int, int]) -> int:
    """The face-canvas side for a box (module docstring)."""
    w, h = box[2] - box[0], box[3] - box[1]
    return max(FACE_CANVAS_MIN, 2 * max(w, h))


def variant_params(item: Item, condition: str) -> dict[str, Any]:
    """The rendering parameters of ``condition`` for ``item`` (computed without any file)."""
    check(item, condition)
    base = image_condition(condition)
    if base == "crop":
        assert item.crop is not None
        return {"box": list(item.crop)}
    if base in ("face_original", "face_replacement"):
        assert item.faces is not None
        box = item.faces.original if base == "face_original" else item.faces.replacement
        side = face_canvas_side(box)
        return {"box": list(box), "canvas": [side, side], "fill": list(FACE_CANVAS_FILL)}
    return {}


def source_path(dataset_root: Path, item: Item, condition: str) -> Path | None:
    """The file a condition's image is cut from (``None`` for ``none``)."""
    check(item, condition)
    base = image_condition(condition)
    if base is None:
        return None
    if base == "face_original":
        assert item.faces is not None
        return Path(dataset_root) / item.faces.original_image
    return Path(dataset_root) / item.image


def variant_id_from_digest(source_sha256: str, condition: str, params: dict[str, Any]) -> str:
    """The variant id from the source's sha256 hex digest (no file access)."""
    base = image_condition(condition)
    if base is None:
        raise ConditionError(f"condition {condition!r} has no image")
    renderer = FULL_TAG if base == "full" else RENDERER_VERSION
    return engine_variant_id(source_sha256, base, params, renderer)


def variant_id(source_bytes: bytes, condition: str, params: dict[str, Any]) -> str:
    """The variant id: source bytes' sha256, image condition, parameters, renderer tag."""
    return variant_id_from_digest(hashlib.sha256(source_bytes).hexdigest(), condition, params)


def variant_spec(dataset_root: Path, item: Item, condition: str) -> VariantSpec | None:
    """How the engine's variant cache makes the image ``item`` shows under ``condition``."""
    path = source_path(Path(dataset_root), item, condition)
    if path is None:
        return None
    base = image_condition(condition)
    assert base is not None
    params = variant_params(item, condition)
    if base == "full":
        return VariantSpec(path, base, params, FULL_TAG)

    def render(source: bytes, what: str) -> bytes:
        variant = render_from_bytes(source, item, condition, what=what)
        assert variant is not None
        return variant.data

    return VariantSpec(path, base, params, RENDERER_VERSION, render)


def _decode(data: bytes, what: str) -> Image.Image:
    from PIL import Image

    try:
        im: Image.Image = Image.open(io.BytesIO(data))
        im.load()
    except Exception as exc:
        raise ConditionError(f"{what}: cannot decode image ({exc})") from None
    if im.mode not in _KEPT_MODES:
        has_alpha = "transparency" in im.info or im.mode in ("PA", "RGBa", "La")
        im = im.convert("RGBA" if has_alpha else "RGB")
    return im


def _check_box(box: list[int], im: Image.Image, what: str) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = (int(v) for v in box)
    if not (0 <= x0 < x1 <= im.width and 0 <= y0 < y1 <= im.height):
        raise ConditionError(
            f"{what}: box {[x0, y0, x1, y1]} is empty or outside the {im.width}x{im.height} image"
        )
    return x0, y0, x1, y1


def encode_png(im: Image.Image, icc_profile: bytes | None = None) -> bytes:
    """Lossless PNG with fixed settings: identical bytes for identical pixels."""
    buf = io.BytesIO()
    kwargs: dict[str, Any] = {"compress_level": PNG_COMPRESS_LEVEL, "optimize": False}
    if icc_profile:
        kwargs["icc_profile"] = icc_profile
    im.save(buf, format="PNG", **kwargs)
    return buf.getvalue()


def render_from_bytes(
    source: bytes, item: Item, condition: str, *, what: str = "image"
) -> Variant | None:
    """Render ``condition`` for ``item`` from the source file's bytes (see :func:`source_path`)."""
    from PIL import Image  # here: the task matrix (``tasks``) names variants without Pillow

    base = image_condition(condition)
    if base is None:
        check(item, condition)
        return None
    params = variant_params(item, condition)
    vid = variant_id(source, condition, params)
    if base == "full":
        media_type = media_type_of(source, what)
        with Image.open(io.BytesIO(source)) as header:
            width, height = header.size
        return Variant(vid, source, media_type, width, height, base, params)
    im = _decode(source, what)
    icc = im.info.get("icc_profile")
    if base == "mirror":
        out = im.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    elif base == "crop":
        out = im.crop(_check_box(params["box"], im, f"{what}: crop of item {item.id!r}"))
    else:
        face = im.crop(_check_box(params["box"], im, f"{what}: {base} of item {item.id!r}"))
        if face.mode != "RGB":
            face = face.convert("RGB")
        side = params["canvas"][0]
        out = Image.new("RGB", (side, side), tuple(params["fill"]))
        out.paste(face, ((side - face.width) // 2, (side - face.height) // 2))
    data = encode_png(out, icc if isinstance(icc, bytes) else None)
    return Variant(vid, data, "image/png", out.width, out.height, base, params)


def render_variant(dataset_root: Path, item: Item, condition: str) -> Variant | None:
    """Render the image ``item`` shows under ``condition`` (``None`` for ``none``).

    Caption conditions return their base condition's variant (same bytes, same id).
    """
    path = source_path(Path(dataset_root), item, condition)
    if path is None:
        return None
    source = read_image(path)
    return render_from_bytes(source, item, condition, what=str(path))
