"""The one async model interface every backend implements.

A backend turns a :class:`Request` (prompt text, optional image, generation parameters) into a
:class:`Response`. What the model said is always a response, even a refusal, a truncation or a
safety block (``finish_reason`` tells). Transport and protocol failures raise
:class:`ModelError`; ``retryable`` says whether the runner may try again and ``retry_after`` passes
on a server's ``Retry-After``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from forgebench.run.tasks import ImageRef


@dataclass(frozen=True)
class Request:
    """What one task asks."""

    prompt: str
    image: ImageRef | None = None
    params: dict[str, Any] = field(default_factory=dict)
    """Generation parameters (temperature, max_tokens, seed, extra body fields)."""
    image_b64: str | None = None
    """The image bytes, base64-encoded once by the runner's bounded cache (optional)."""
    meta: dict[str, Any] = field(default_factory=dict)
    """What the task is about, for backends that need it and never sent to a server:
    ``task_key``, ``item_id``, ``probe``, ``condition`` (replay answers by them; offline judges
    read the ground truth under ``judge_input``)."""


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
