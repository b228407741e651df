"""The one async model interface every backend implements.

A backend turns a :class:`Request` (prompt text, its images in order, generation parameters)
into a :class:`Response`. A backend sends every image of a request (each as its own part, in
order, before the text) or refuses the request with one line (:func:`image_limit`): it never
drops an image silently. What the model said is always a response, even a refusal, a
truncation or a safety block (``finish_reason`` tells). Transport and protocol failures raise
:class:`ModelError`; ``retryable`` says whether the runner may try again and ``retry_after`` passes
on a server's ``Retry-After``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable


@dataclass(frozen=True)
class ImageRef:
    """An image variant: its content-derived id and where its bytes live."""

    variant_id: str
    """Hash of source bytes, condition, parameters and renderer version (``run/images.py``)."""
    path: Path
    """The file holding the variant's bytes (the original file for ``full``)."""
    media_type: str
    """``image/jpeg``, ``image/png``, ..."""


@dataclass(frozen=True)
class Request:
    """What one task asks: the prompt, every image in order, the generation parameters."""

    prompt: str
    images: tuple[ImageRef, ...] = ()
    """Every image, in the order the model sees them (empty for a text-only request)."""
    params: dict[str, Any] = field(default_factory=dict)
    """Generation parameters (temperature, max_tokens, seed, extra body fields)."""
    meta: dict[str, Any] = field(default_factory=dict)
    """What the task is about, for backends that need it and never sent to a server:
    ``task_key``, ``item_id``, ``probe``, ``condition`` (replay answers by them; offline judges
    read the ground truth under ``judge_input``)."""
    images_b64: tuple[str | None, ...] = ()
    """The base64 of each of :attr:`images` where the runner's bounded cache encoded it (None
    where not); one entry without a reference is an image given only as bytes."""
    choice: tuple[str, ...] = ()
    """When not empty, the answer must be exactly one of these strings (Forensics' ``MCQ_CHOICE``:
    the option letters): a backend that can constrain it tells the server
    (:mod:`forgebench.models.choice`); one that cannot is refused before anything is sent."""

    def __post_init__(self) -> None:
        images = tuple(self.images)
        encoded = tuple(self.images_b64)
        if len(encoded) > max(len(images), 1):
            raise ValueError(f"request has {len(encoded)} base64 images for {len(images)} images")
        encoded += (None,) * (len(images) - len(encoded))
        object.__setattr__(self, "images", images)
        object.__setattr__(self, "images_b64", encoded)
        object.__setattr__(self, "choice", tuple(self.choice))

    @property
    def image_count(self) -> int:
        """How many images the request shows (a runner-encoded image without a reference
        counts)."""
        return max(len(self.images), len(self.images_b64))


@dataclass
class Usage:
    """Token usage as the server reported it (None where it did not)."""

    input_tokens: int | None = None
    output_tokens: int | None = None


@dataclass(frozen=True)
class OutputFile:
    """A file an answer carries (an edited image): stored by content hash, never in the store."""

    name: str
    """Its name within the answer, e.g. ``image_0``."""
    data: bytes
    """The bytes."""
    media_type: str
    """``image/png``, ``image/jpeg``, ..."""


@dataclass
class Response:
    """What the model said."""

    text: str
    """The answer text (reasoning blocks are kept; parsing strips them)."""
    raw: dict[str, Any] = field(default_factory=dict)
    """The server's JSON (no image bytes, no keys)."""
    usage: Usage = field(default_factory=Usage)
    finish_reason: str | None = None
    """``stop``, ``length``, ``content_filter``, ``refusal``, ..."""
    outputs: list[OutputFile] = field(default_factory=list)
    """Files the answer carries (image editors); written to the blob cache by content hash."""


TASK_ONLY_STATUS: frozenset[int] = frozenset({413})
"""HTTP statuses that condemn one request, not the model's settings (413: payload too large)."""


class ModelError(Exception):
    """A transport or protocol failure (never an answer)."""

    def __init__(
        self,
        message: str,
        *,
        retryable: bool,
        retry_after: float | None = None,
        status: int | None = None,
        task_only: bool = False,
    ) -> None:
        super().__init__(message)
        self.retryable = retryable
        self.retry_after = retry_after
        self.status = status
        self.task_only = task_only
        """True when only this task is at fault (an image too large, a replay file without this
        answer): it is stored as an error and the model goes on. A non-retryable error without it
        (an unsupported parameter, a bad key, an unknown model) stops the model."""


def image_limit(model: str, request: Request, limit: int | None, why: str = "") -> None:
    """Refuse a request with more than ``limit`` images (None: no limit) with one line naming
    the model, the limit and the count (a non-retryable error of that task only: the model's
    other questions are still asked). ``why`` says where the limit comes from."""
    n = request.image_count
    if limit is not None and n > limit:
        raise ModelError(
            f"{model} takes at most {limit} image{'s' if limit != 1 else ''} per question{why}; "
            f"this question shows {n} (none is dropped: ask it single-image questions)",
            retryable=False,
            task_only=True,
        )


class ReplyTimeout(ModelError):
    """No reply within the request's timeout (retryable; a replica that does this is rested)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, retryable=True)


@runtime_checkable
class Model(Protocol):
    """An async model backend."""

    name: str
    """The model's name in every output (the alias, else ``PROVIDER/MODEL``)."""

    async def generate(self, request: Request) -> Response:
        """Ask once; raise :class:`ModelError` on transport/protocol failure."""
        ...

    async def aclose(self) -> None:
        """Release connections."""
        ...
