"""Reading a model server's reply under a size limit: the one rule every HTTP backend shares.

A reply body is read in chunks and no further than ``limit + 1`` bytes, whatever its status
(a 200 with a ``Content-Length``, an error page, a chunked body without a length): memory stays
bounded by the limit, never by what a server chooses to send. A reply over the limit is a
:class:`ReplyTooLarge`: not retried (the same question would get the same reply, and pay for it
again), stored as that task's error naming the limit, and the model goes on with its other tasks.

- :func:`read_capped` / :func:`read_limited`: an ``aiohttp`` response (the OpenAI-compatible
  backend, the ``http/`` editors);
- :func:`limited_transport`: an ``httpx``-style async transport whose response bodies stop at the
  limit (the SDK backends: their HTTP client is handed one, so the SDK's own reading is bounded).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from forgebench.models.base import ModelError

CHUNK = 1 << 16
"""Bytes read at a time."""


class ReplyTooLarge(ModelError):
    """A reply longer than the model's ``max_reply_bytes``: this task's error, never retried."""

    def __init__(self, limit: int, size: int | None = None, status: int | None = None) -> None:
        said = f"of {size} bytes " if size is not None else ""
        super().__init__(
            f"reply {said}is over the {limit}-byte limit (max_reply_bytes, --max-reply-bytes); "
            "read no further",
            retryable=False,
            task_only=True,
            status=status,
        )
        self.limit = limit


async def read_capped(resp: Any, limit: int) -> tuple[bytes, bool]:
    """The body of an ``aiohttp`` response and whether it was longer than ``limit`` bytes; a
    longer one is read no further than ``limit + 1`` bytes and only its first bytes (up to
    :data:`CHUNK`, to quote) are returned. A ``Content-Length`` over the limit is believed
    without reading anything. Memory: at most ``limit`` bytes held (twice while joining)."""
    length = resp.content_length
    if length is not None and length > limit:
        return b"", True
    parts: list[bytes] = []
    size = 0
    async for chunk in resp.content.iter_chunked(CHUNK):
        size += len(chunk)
        if size > limit:
            head = parts[0] if parts else chunk
            parts.clear()
            return head[:CHUNK], True
        parts.append(chunk)
    return b"".join(parts), False


async def read_limited(resp: Any, limit: int) -> bytes:
    """The whole body of an ``aiohttp`` response; :class:`ReplyTooLarge` past ``limit`` bytes."""
    body, over = await read_capped(resp, limit)
    if over:
        raise ReplyTooLarge(limit, resp.content_length, getattr(resp, "status", None))
    return body


def too_large_in(exc: BaseException) -> ReplyTooLarge | None:
    """The :class:`ReplyTooLarge` behind ``exc`` (an SDK wraps what its transport raised), if
    any."""
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        if isinstance(cur, ReplyTooLarge):
            return cur
        seen.add(id(cur))
        cur = cur.__cause__ or cur.__context__
    return None


def limited_transport(http: Any, limit: int, **kwargs: Any) -> Any:
    """An async transport of the ``httpx``-style module ``http`` (``httpx`` or ``httpx2``) whose
    response bodies raise :class:`ReplyTooLarge` past ``limit`` bytes (a ``Content-Length`` over
    it before any is read). ``kwargs`` go to ``http.AsyncHTTPTransport``."""

    class _Body(http.AsyncByteStream):
        def __init__(self, inner: Any, status: int) -> None:
            self._inner = inner
            self._status = status

        async def __aiter__(self) -> AsyncIterator[bytes]:
            size = 0
            async for chunk in self._inner:
                size += len(chunk)
                if size > limit:
                    raise ReplyTooLarge(limit, status=self._status)
                yield chunk

        async def aclose(self) -> None:
            await self._inner.aclose()

    class _Limited(http.AsyncHTTPTransport):
        async def handle_async_request(self, request: Any) -> Any:
            response = await super().handle_async_request(request)
            length = response.headers.get("content-length")
            if length is not None and length.isdigit() and int(length) > limit:
                await response.aclose()
                raise ReplyTooLarge(limit, int(length), response.status_code)
            response.stream = _Body(response.stream, response.status_code)
            return response

    return _Limited(**kwargs)
