"""``http/URL``: a generic image editor behind one documented POST, for anything else.

Request: ``POST URL`` as ``multipart/form-data`` with the parts

==============  ==========================================================================
``image``       the seed image, PNG
``mask``        (when the step has one) PNG, mode L, 255 where the edit may change pixels
``instruction`` the one-sentence instruction (text)
``operation``   ``insert`` | ``replace`` | ``remove`` | ``recolour`` | ``retext`` | ``background``
``region``      (when recorded) the edit box as JSON ``[x0, y0, x1, y1]`` (half-open pixels)
``text``        (K4) the new text
``params``      the step's editor parameters as a JSON object
``candidate``   the candidate index (0, 1, ...), usable as a random seed
==============  ==========================================================================

Response:

- ``200`` with an ``image/*`` body: the candidate (any format Pillow reads);
- ``200`` with JSON ``{"image_b64": "..."}``: the candidate, base64;
- ``200`` with JSON ``{"status": "refused" | "blocked", "message": "..."}``: a refusal or a safety
  block, recorded as the candidate's outcome (not retried, not an error);
- ``429`` and ``5xx`` are retried (``Retry-After`` honoured); other statuses are errors.

A ``200`` reply arrived, so it is priced as a delivered image whether or not it is usable: a body
that is neither an image nor that JSON, an image that does not decode, one whose header claims
more pixels than a dataset image may have (checked before decoding, also inside ``image_b64``)
or a body longer than ``max_reply_bytes`` (64 MB by default; read no further) ends its candidate
as an error (:class:`~forgebench.construct.edit_api.PaidReply`), never retried.
"""

from __future__ import annotations

import base64
import binascii
import json

import aiohttp

from forgebench.construct.edit_api import (
    MAX_REPLY_BYTES,
    EditOutcome,
    EditRequest,
    PaidReply,
    decode_rgb,
    png_bytes,
)
from forgebench.models.base import ModelError
from forgebench.models.replies import read_capped
from forgebench.models.spec import ModelSpec as EditorSpec


def _retry_after(headers: object) -> float | None:
    value = getattr(headers, "get", lambda _k: None)("Retry-After")
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


class HttpEditor:
    """The generic POST editor."""

    def __init__(
        self,
        name: str,
        url: str,
        price_per_image: float = 0.0,
        timeout_s: float = 300,
        *,
        max_reply_bytes: int = MAX_REPLY_BYTES,
    ) -> None:
        if not url.startswith(("http://", "https://")):
            raise ValueError(f"http editor: {url!r} is not an http(s) URL")
        self.name = name
        self.url = url
        self.price_per_image = price_per_image
        self.timeout_s = timeout_s
        self.max_reply_bytes = max_reply_bytes

    def _form(self, req: EditRequest) -> aiohttp.FormData:
        form = aiohttp.FormData()
        form.add_field(
            "image", png_bytes(req.image), filename="image.png", content_type="image/png"
        )
        if req.mask is not None:
            m = (req.mask > 0).astype("uint8") * 255
            form.add_field("mask", png_bytes(m), filename="mask.png", content_type="image/png")
        form.add_field("instruction", req.instruction)
        form.add_field("operation", req.operation)
        if req.region is not None:
            form.add_field("region", json.dumps(list(req.region)))
        if req.text is not None:
            form.add_field("text", req.text)
        form.add_field("params", json.dumps(req.params, default=str))
        form.add_field("candidate", str(req.candidate))
        return form

    async def edit(self, request: EditRequest) -> EditOutcome:
        """POST the request; see the module docstring for the protocol."""
        timeout = aiohttp.ClientTimeout(total=self.timeout_s)
        try:
            async with (
                aiohttp.ClientSession(timeout=timeout) as s,
                s.post(self.url, data=self._form(request)) as r,
            ):
                status, ctype, headers = r.status, r.content_type, r.headers
                body = await self._read(r)
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise ModelError(f"{self.name}: {type(exc).__name__}: {exc}", retryable=True) from None
        if status == 429 or status >= 500:
            raise ModelError(
                f"{self.name}: HTTP {status}",
                retryable=True,
                retry_after=_retry_after(headers),
                status=status,
            )
        if status != 200:
            raise ModelError(
                f"{self.name}: HTTP {status}: {body[:200]!r}", retryable=False, status=status,
                task_only=status in (400, 413, 422),
            )  # fmt: skip
        return self._parse(body, ctype)

    async def _read(self, r: aiohttp.ClientResponse) -> bytes:
        """The body, read no further than :attr:`max_reply_bytes`; a 200 past it is a
        :class:`PaidReply` (another status is cut there: only its first bytes are quoted)."""
        limit = self.max_reply_bytes
        body, over = await read_capped(r, limit)
        if over and r.status == 200:
            said = f"of {r.content_length} bytes " if r.content_length is not None else ""
            raise PaidReply(f"{self.name}: reply {said}is over {_mb(limit)}")
        return body

    def _parse(self, body: bytes, ctype: str) -> EditOutcome:
        if ctype.startswith("image/"):
            try:
                return EditOutcome("ok", png_bytes(decode_rgb(body, self.name)))
            except ValueError as exc:
                raise PaidReply(str(exc)) from None
        try:
            obj = json.loads(body)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
            raise PaidReply(f"{self.name}: reply is neither an image nor JSON") from None
        if isinstance(obj, dict) and obj.get("status") in ("refused", "blocked"):
            return EditOutcome(obj["status"], message=str(obj.get("message", "")))
        if isinstance(obj, dict) and isinstance(obj.get("image_b64"), str):
            try:
                raw = base64.b64decode(obj["image_b64"], validate=True)
                rgb = decode_rgb(raw, self.name)
            except binascii.Error:
                raise PaidReply(f"{self.name}: image_b64: not valid base64") from None
            except ValueError as exc:
                raise PaidReply(f"{self.name}: image_b64: {exc}") from None
            return EditOutcome("ok", png_bytes(rgb))
        raise PaidReply(f"{self.name}: JSON reply without image_b64 or status")


def _mb(n: int) -> str:
    return f"the {n / 1e6:g} MB limit (--max-reply-mb)"


def create(spec: EditorSpec, price_per_image: float | None, max_reply_bytes: int) -> HttpEditor:
    """The ``http/URL`` editor (the editors registry's entry)."""
    url = spec.model + (f"@{spec.base_url}" if spec.base_url else "")
    return HttpEditor(spec.name, url, price_per_image or 0.0, max_reply_bytes=max_reply_bytes)
