"""``openai/MODEL[@BASE_URL]``: the OpenAI Images edit endpoint (``POST /images/edits``) through
the official ``openai`` SDK (the ``construct`` extra); any server that implements the endpoint.

The request sends the seed image (PNG), the mask as the endpoint wants it (a PNG of the image's
size whose fully transparent pixels, alpha 0, mark where the image may be edited), the
instruction as ``prompt``, ``model`` and ``n=1``; ``params["size"]`` / ``params["quality"]`` pass
through when given. The reply's ``data[0].b64_json`` is the candidate.

Outcomes: a ``400`` whose error code says a safety system stopped the request
(``moderation_blocked``, ``content_policy_violation``; or a message naming the safety system) is a
``blocked`` outcome; 429, 5xx, timeouts and connection failures are retryable errors (the SDK's own
retries are off: the engine's runner retries with its policy); other failures are errors.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import os
from typing import Any

import numpy as np

from forgebench.construct.edit_api import (
    MAX_REPLY_BYTES,
    EditorSpecError,
    EditOutcome,
    EditRequest,
    PaidReply,
    decode_rgb,
    png_bytes,
)
from forgebench.models._sdk import http_module
from forgebench.models.base import ModelError
from forgebench.models.replies import ReplyTooLarge, limited_transport, too_large_in
from forgebench.models.spec import ModelSpec as EditorSpec

BLOCK_CODES = frozenset({"moderation_blocked", "content_policy_violation", "content_filter"})
"""Error codes taken as a safety block."""


def alpha_mask(mask: np.ndarray) -> bytes:
    """The endpoint's mask: RGBA PNG, alpha 0 where the edit may happen, 255 elsewhere."""
    h, w = mask.shape
    rgba = np.zeros((h, w, 4), np.uint8)
    rgba[..., 3] = np.where(mask > 0, 0, 255).astype(np.uint8)
    return png_bytes(rgba)


class OpenAIImagesEditor:
    """The Images edit endpoint."""

    def __init__(
        self,
        name: str,
        model: str,
        base_url: str | None,
        price_per_image: float | None = None,
        *,
        max_reply_bytes: int = MAX_REPLY_BYTES,
    ) -> None:
        try:
            import openai
        except ImportError:
            raise EditorSpecError(
                "openai editors need the openai package: pip install 'forgebench[construct]'"
            ) from None
        key = os.environ.get("OPENAI_API_KEY")
        if not key and not base_url:
            raise EditorSpecError(f"{name}: OPENAI_API_KEY is not set")
        self.name = name
        self.model = model
        self.price_per_image = price_per_image or 0.0
        self._openai = openai
        self._key, self._url = key or "EMPTY", base_url
        self._clients: dict[int, Any] = {}
        self.max_reply_bytes = max_reply_bytes

    def _client(self) -> Any:
        """One SDK client per event loop (its connection pool belongs to the loop)."""
        loop = id(asyncio.get_running_loop())
        if loop not in self._clients:
            self._clients = {
                loop: self._openai.AsyncOpenAI(
                    api_key=self._key,
                    base_url=self._url,
                    max_retries=0,
                    timeout=300,
                    http_client=self._openai.DefaultAsyncHttpxClient(
                        transport=limited_transport(http_module(), self.max_reply_bytes)
                    ),
                )
            }
        return self._clients[loop]

    def _too_large(self, big: ReplyTooLarge) -> ModelError:
        """A reply over :attr:`max_reply_bytes`: a 200 arrived and is priced (:class:`PaidReply`),
        another status is an error; neither is asked again."""
        if big.status == 200:
            return PaidReply(f"{self.name}: {big}")
        return ModelError(f"{self.name}: {big}", retryable=False, status=big.status)

    async def edit(self, request: EditRequest) -> EditOutcome:
        """One ``images.edit`` call (see the module docstring)."""
        o = self._openai
        kw: dict[str, Any] = {
            "model": self.model,
            "image": ("image.png", png_bytes(request.image), "image/png"),
            "prompt": request.instruction,
            "n": 1,
        }
        if request.mask is not None:
            kw["mask"] = ("mask.png", alpha_mask(request.mask), "image/png")
        for k in ("size", "quality"):
            if k in request.params:
                kw[k] = request.params[k]
        try:
            resp = await self._client().images.edit(**kw)
        except o.BadRequestError as exc:
            code = str(getattr(exc, "code", "") or "")
            msg = str(getattr(exc, "message", exc))
            if code in BLOCK_CODES or "safety system" in msg.lower():
                return EditOutcome("blocked", message=f"{code}: {msg}" if code else msg)
            raise ModelError(
                f"{self.name}: HTTP 400: {msg}", retryable=False, status=400, task_only=True
            ) from None
        except (o.RateLimitError, o.InternalServerError) as exc:
            raise ModelError(
                f"{self.name}: HTTP {exc.status_code}", retryable=True, status=exc.status_code
            ) from None
        except ReplyTooLarge as over:  # raised by the SDK's reading of the body
            raise self._too_large(over) from None
        except (o.APIConnectionError, o.APITimeoutError) as exc:
            wrapped = too_large_in(exc)  # raised inside the SDK's send
            if wrapped is not None:
                raise self._too_large(wrapped) from None
            raise ModelError(f"{self.name}: {type(exc).__name__}", retryable=True) from None
        except o.APIStatusError as exc:
            raise ModelError(
                f"{self.name}: HTTP {exc.status_code}: {exc.message}",
                retryable=False,
                status=exc.status_code,
            ) from None
        data = getattr(resp, "data", None) or []
        b64 = getattr(data[0], "b64_json", None) if data else None
        if not b64:  # a reply arrived (and was billed): priced, not asked again
            raise PaidReply(f"{self.name}: reply without data[0].b64_json")
        try:
            rgb = decode_rgb(base64.b64decode(b64, validate=True), self.name)
        except (binascii.Error, ValueError) as exc:
            raise PaidReply(f"{self.name}: b64_json: {exc}") from None
        return EditOutcome("ok", png_bytes(rgb))


def create(
    spec: EditorSpec, price_per_image: float | None, max_reply_bytes: int
) -> OpenAIImagesEditor:
    """The ``openai/MODEL[@URL]`` editor (the editors registry's entry)."""
    return OpenAIImagesEditor(
        spec.name, spec.model, spec.base_url, price_per_image, max_reply_bytes=max_reply_bytes
    )
