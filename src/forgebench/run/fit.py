"""Images that fit each model: a question's image over its model's limits is sent resized.

A model given image limits (``max_side``, ``max_pixels``, ``max_image_bytes`` or a provider's
preset: ``models/image_limits.py``) is asked every question whose images are within them exactly
as any other model; an image over them is replaced, for that model only, by a resized variant
rendered here into the content-addressed variant cache (``run/images.py``). Its variant id
hashes the variant it was made from, the limits and this renderer's tag (:data:`RENDERER`), so
the task key changes for those tasks only, and the same image under the same limits is the same
variant in every run. What was resized is recorded per task (``tasks.resized``, schema 9:
``store/tasks.py``), and ``forgebench run`` prints how many tasks were.

This is the one stated exception to DESIGN.md's "evaluation never re-encodes Full": a resized
image is its own variant, recorded. Where a benchmark's import already fixed the input size
(Mandela's ``import --normalize``: JPEG quality 92, longest side 1280, Appendix C of the paper),
an image within the model's limits is sent as imported and nothing is resized.

The renderer (:func:`fit_bytes`) is deterministic: the scale is the largest that meets
``max_side`` and ``max_pixels`` (sizes rounded down), Lanczos resampling, the source's own kind
of file (a JPEG stays a JPEG at quality :data:`JPEG_QUALITY`, anything else becomes a PNG, which
keeps pixels exact); while the file is over ``max_image_bytes`` the image is made smaller again,
by a scale derived from the bytes it is over, until it fits. A result that still does not fit
is refused (:class:`~forgebench.run.images.ConditionError`), never sent.
"""

from __future__ import annotations

import dataclasses
import io
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from forgebench.models.base import ImageRef
from forgebench.models.image_limits import ImageLimits
from forgebench.models.spec import ModelConfig
from forgebench.run.images import (
    ConditionError,
    VariantCache,
    read_image,
    stat_image,
    variant_id_from_digest,
)
from forgebench.run.tasks import Question
from forgebench.util.file_memo import FileMemo, file_key

RENDERER = "fit-1"
"""Renderer tag hashed into a resized variant's id (bump it when :func:`fit_bytes` changes)."""
CONDITION = "fit"
"""The image condition hashed into a resized variant's id."""
JPEG_QUALITY = 92
"""Quality of a resized JPEG (the quality of Mandela's import normalisation, Appendix C)."""
SHRINK = 0.9
"""The most a byte-limited image keeps of its sides per further step."""
MIN_SIDE = 1


@dataclasses.dataclass(frozen=True)
class Measure:
    """An image file's size."""

    width: int
    height: int
    bytes: int

    def as_list(self) -> list[int]:
        return [self.width, self.height, self.bytes]


_MEASURED: FileMemo[Measure] = FileMemo()


def measure(path: Path) -> Measure:
    """Width, height (read from the header) and bytes of an image file, memoised per path,
    mtime and size in this process."""
    from PIL import Image

    st = stat_image(path)
    key = file_key(path, st)
    hit = _MEASURED.get(key)
    if hit is not None:
        return hit
    try:
        with Image.open(path) as im:
            width, height = im.size
    except Exception as exc:
        raise ConditionError(f"{path}: not a readable image ({exc})") from None
    got = Measure(width, height, st.st_size)
    _MEASURED.put(key, got)
    return got


def _target(width: int, height: int, limits: ImageLimits, scale: float = 1.0) -> tuple[int, int]:
    """The size within ``max_side`` and ``max_pixels`` (and ``scale``), sides rounded down."""
    s = scale
    if limits.max_side is not None:
        s = min(s, limits.max_side / max(width, height))
    if limits.max_pixels is not None:
        s = min(s, math.sqrt(limits.max_pixels / (width * height)))
    w = max(MIN_SIDE, math.floor(width * s))
    h = max(MIN_SIDE, math.floor(height * s))
    while limits.max_pixels is not None and w * h > limits.max_pixels:  # rounding
        w, h = max(MIN_SIDE, w - 1), max(MIN_SIDE, h - 1)
    return w, h


def output_media_type(media_type: str) -> str:
    """A resized image's media type: a JPEG stays a JPEG, anything else becomes a PNG."""
    return "image/jpeg" if media_type == "image/jpeg" else "image/png"


def fit_bytes(data: bytes, limits: ImageLimits, media_type: str, what: str = "image") -> bytes:
    """``data`` (an encoded image) resized to fit ``limits`` and encoded as
    :func:`output_media_type` says; deterministic. :class:`ConditionError` when no size fits."""
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as im:
            im.load()
            source: Image.Image = im.copy()
    except Exception as exc:
        raise ConditionError(f"{what}: not a readable image ({exc})") from None
    jpeg = output_media_type(media_type) == "image/jpeg"
    if jpeg:
        source = source.convert("L" if source.mode in ("L", "1") else "RGB")
    elif source.mode in ("1", "I", "I;16", "F"):
        source = source.convert("L")
    elif source.mode not in ("L", "LA", "RGB", "RGBA"):
        alpha = "A" in source.mode or "transparency" in source.info
        source = source.convert("RGBA" if alpha else "RGB")
    width, height = source.size
    scale = 1.0
    while True:
        size = _target(width, height, limits, scale)
        shown = source if size == source.size else source.resize(size, Image.Resampling.LANCZOS)
        buf = io.BytesIO()
        if jpeg:
            shown.save(buf, format="JPEG", quality=JPEG_QUALITY)
        else:
            shown.save(buf, format="PNG")
        out = buf.getvalue()
        if limits.max_image_bytes is None or len(out) <= limits.max_image_bytes:
            return out
        if size == (MIN_SIDE, MIN_SIDE):
            raise ConditionError(
                f"{what}: cannot be made smaller than max_image_bytes={limits.max_image_bytes}"
            )
        # the bytes shrink about with the pixels: aim under the limit, at least SHRINK per step
        step = min(SHRINK, math.sqrt(limits.max_image_bytes / len(out)))
        scale = min(size[0] / width, size[1] / height) * step


def resized_id(ref: ImageRef, limits: ImageLimits) -> str:
    """The variant id of ``ref`` resized to ``limits``: the variant it is made from (itself
    content-addressed), the limits and :data:`RENDERER`."""
    return variant_id_from_digest(ref.variant_id, CONDITION, limits.params(), RENDERER)


def fit_ref(
    ref: ImageRef, limits: ImageLimits, cache: VariantCache
) -> tuple[ImageRef, dict[str, Any] | None]:
    """``ref`` itself when it is within ``limits``; else its resized variant (rendered into
    ``cache`` unless it is there and intact) and what was done: ``{"of": variant id,
    "from": [w, h, bytes], "to": [w, h, bytes], "over": [limits]}``."""
    before = measure(ref.path)
    over = limits.exceeded(before.width, before.height, before.bytes)
    if not over:
        return ref, None
    vid = resized_id(ref, limits)
    media = output_media_type(ref.media_type)
    out = ImageRef(vid, cache.path_for(vid, media), media)
    if not cache.holds(out):
        data = read_image(ref.path)
        cache.write_variant(out.path, fit_bytes(data, limits, ref.media_type, str(ref.path)))
    after = measure(out.path)
    still = limits.exceeded(after.width, after.height, after.bytes)
    if still:  # never a request above the limits
        raise ConditionError(f"{ref.path}: resized image is still over {', '.join(still)}")
    record = {"of": ref.variant_id, "from": before.as_list(), "to": after.as_list(), "over": over}
    return out, record


class Fitter:
    """Fits questions to each model's image limits (models without limits are left alone)."""

    def __init__(self, cache: VariantCache, configs: Sequence[ModelConfig]) -> None:
        self.cache = cache
        self.limits = [c.limits() for c in configs]
        self._done: dict[tuple[str, str, ImageLimits], tuple[ImageRef, dict[str, Any] | None]] = {}

    @property
    def active(self) -> bool:
        """Whether any model has limits."""
        return any(self.limits)

    def fit(self, question: Question, index: int) -> Question:
        """The question the model at ``index`` is sent: ``question`` itself when every image is
        within its limits, else a copy showing resized variants, with ``resized`` recorded."""
        limits = self.limits[index]
        if limits is None or not question.images:
            return question
        images: list[ImageRef] = []
        records: list[dict[str, Any]] = []
        for position, ref in enumerate(question.images):
            key = (ref.variant_id, str(ref.path), limits)
            done = self._done.get(key)
            if done is None:
                done = self._done[key] = fit_ref(ref, limits, self.cache)
                if len(self._done) > 4096:
                    self._done.clear()
            images.append(done[0])
            if done[1] is not None:
                records.append({"image": position, **done[1]})
        if not records:
            return question
        return dataclasses.replace(
            question, image=images[0], images=tuple(images), resized=tuple(records)
        )
