"""Image limits of a model: the largest image a request may carry (issue 41, item 2).

A models-file entry may set ``max_side`` (pixels of the longer side), ``max_pixels`` (width x
height) and ``max_image_bytes`` (bytes of the encoded file, before base64), or name a provider's
preset with ``image_limits = "openai" | "anthropic" | "google"``; a setting given beside a preset
overrides the preset's value. Limits apply only where set: a model without them is sent every
image as before, under the same task keys.

An image over its model's limits is sent as a resized variant (``run/fit.py``), its own variant
id, recorded per task in the run store (``tasks.resized``, schema 9).

Each preset's docstring names the provider's published limits it follows, as read for the SDK
versions this project's extras require (``pyproject.toml``: ``openai>=1.40``, tested with 3.63;
``anthropic>=2.14``, tested with 2.17; ``google-genai>=3.6``, tested with 3.6.1). The presets are
conservative where a provider counts the base64 text: a file of ``n`` bytes is ``4 * ceil(n / 3)``
characters of base64.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ImageLimits:
    """The largest image one request may carry (None: no limit of that kind)."""

    max_side: int | None = None
    """The most pixels of an image's longer side."""
    max_pixels: int | None = None
    """The most pixels (width x height) of an image."""
    max_image_bytes: int | None = None
    """The most bytes of an image's encoded file (what is base64-encoded into the request)."""

    def params(self) -> dict[str, int]:
        """The limits that are set, as hashed into a resized variant's id."""
        out = {
            "max_side": self.max_side,
            "max_pixels": self.max_pixels,
            "max_image_bytes": self.max_image_bytes,
        }
        return {k: v for k, v in out.items() if v is not None}

    def __bool__(self) -> bool:
        return bool(self.params())

    def exceeded(self, width: int, height: int, size: int) -> list[str]:
        """The limits an image of ``width`` x ``height`` pixels and ``size`` bytes is over."""
        over = []
        if self.max_side is not None and max(width, height) > self.max_side:
            over.append("max_side")
        if self.max_pixels is not None and width * height > self.max_pixels:
            over.append("max_pixels")
        if self.max_image_bytes is not None and size > self.max_image_bytes:
            over.append("max_image_bytes")
        return over


def _base64_budget(chars: int) -> int:
    """The most file bytes whose base64 is at most ``chars`` characters."""
    return chars // 4 * 3


def openai() -> ImageLimits:
    """OpenAI's "Images and vision" guide, "Image input requirements"
    (https://platform.openai.com/docs/guides/images-vision): up to 20 MB per image; at high
    detail an image is seen at most 768 px on its short side by 2000 px on its long side (the
    server scales larger ones down). Preset: ``max_side = 2000``, ``max_image_bytes = 20 MB``
    (20,000,000 bytes)."""
    return ImageLimits(max_side=2000, max_image_bytes=20_000_000)


def anthropic() -> ImageLimits:
    """Anthropic's vision guide (https://platform.claude.com/docs/en/build-with-claude/vision,
    "Evaluate image size" and "General limits"): images over 8000 x 8000 px are refused
    (2000 x 2000 px when a request holds more than 20 images); 5 MB per image through the API;
    an image whose long edge is over 1568 px, or of more than about 1,600 tokens, is scaled down
    by the server, which recommends at most 1.15 megapixels. Preset: ``max_side = 1568``,
    ``max_pixels = 1,150,000``, ``max_image_bytes = 3,932,160`` (the API measures the 5 MB,
    5,242,880 bytes, on the base64 text: its error reads "image exceeds 5 MB maximum")."""
    return ImageLimits(
        max_side=1568, max_pixels=1_150_000, max_image_bytes=_base64_budget(5 * 1024 * 1024)
    )


def google() -> ImageLimits:
    """The Gemini API's "Image understanding" guide
    (https://ai.google.dev/gemini-api/docs/image-understanding, "Passing inline image data"):
    inline image data only while the whole request is under 20 MB (larger ones go through the
    File API, which forgebench does not use); no pixel limit is published (the model tiles large
    images itself). Preset: ``max_image_bytes = 15,000,000`` (the base64 of 15 MB is 20 MB)."""
    return ImageLimits(max_image_bytes=_base64_budget(20_000_000))


PRESETS: dict[str, Callable[[], ImageLimits]] = {
    "openai": openai,
    "anthropic": anthropic,
    "google": google,
}
"""``image_limits = NAME`` in a models file -> the provider's published limits."""

SETTINGS = ("max_side", "max_pixels", "max_image_bytes")
"""The models-file keys of the limits (checked by ``spec.NUMBER_RULES``)."""


def resolve(preset: str | None, **given: Any) -> ImageLimits | None:
    """The limits of a model: ``preset``'s values (None: none), overridden by every setting in
    ``given`` that is not None; None when nothing is set."""
    base = PRESETS[preset]() if preset is not None else ImageLimits()
    values = {k: getattr(base, k) for k in SETTINGS}
    values.update({k: v for k, v in given.items() if k in SETTINGS and v is not None})
    limits = ImageLimits(**values)
    return limits if limits else None
