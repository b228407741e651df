"""``google/MODEL[@BASE_URL]``: Gemini ``generateContent`` through ``google-genai`` (``google`` extra).

The request holds one user turn: the images as inline bytes (one part each, in the question's
order), then the prompt text. Parameters:
``temperature`` (omitted when None), ``max_tokens`` -> ``maxOutputTokens``, ``seed``,
``reasoning`` -> ``thinkingConfig`` (``budget_tokens``/``thinking_budget`` -> ``thinkingBudget``,
``effort``/``thinking_level`` -> ``thinkingLevel``, ``include_thoughts``; any other key is a
:class:`SpecError`), and ``extra_body`` fields merged into the JSON body. ``@BASE_URL`` replaces
the API root (google-genai 3.6 then calls ``BASE_URL/v1/models/MODEL:generateContent``). The SDK's own
retries are off (one attempt): the runner's retry policy is the only one.

The body is read as the server sent it (``should_return_http_response``), so ``Response.raw``
is the server's JSON. Answers: the first candidate's text parts joined, thought parts kept as
``<think>...</think>`` before the text. ``finishReason`` maps to ``finish_reason``: ``STOP`` ->
``stop``, ``MAX_TOKENS`` -> ``length``, the safety family (``SAFETY``, ``PROHIBITED_CONTENT``,
``BLOCKLIST``, ``SPII``, ``RECITATION``, ``IMAGE_SAFETY``, ...) -> ``content_filter``; a prompt
blocked before any candidate (``promptFeedback.blockReason``) is an empty ``content_filter``
answer. Others are passed through lower-cased. All of these are answers, never errors.
Output tokens are ``candidatesTokenCount + thoughtsTokenCount`` (what the API bills as output).

Constrained answers (Forensics' ``MCQ_CHOICE``; :data:`CHOICE_FORMS`): ``response_mime_type
"text/x.enum"`` and a ``STRING`` ``response_schema`` whose enum is the option letters; the answer
is the bare letter. A model's first such request goes alone
(:class:`forgebench.models.choice.ChoiceGate`): a 4xx on it, or a free-text answer, stops the model
in one line naming the field before more is sent.
"""

from __future__ import annotations

import json
import re
from typing import Any

from forgebench.models import _errors, _sdk, choice
from forgebench.models.base import Model, ModelError, Request, Response, Usage, image_limit
from forgebench.models.spec import ModelConfig, SpecError

DEFAULT_KEY_ENV = "GOOGLE_API_KEY"
CHOICE_FORMS: dict[str, str] = {"enum": "response_schema"}
"""The constrained-answer form it sends (:mod:`forgebench.models.choice`): ``enum``, the config's
``response_mime_type = "text/x.enum"`` with a ``response_schema`` of type ``STRING`` whose enum is
the letters (``generationConfig.responseMimeType``/``responseSchema`` on the wire)."""

FILTERED: frozenset[str] = frozenset(
    {
        "SAFETY",
        "RECITATION",
        "BLOCKLIST",
        "PROHIBITED_CONTENT",
        "SPII",
        "IMAGE_SAFETY",
        "IMAGE_PROHIBITED_CONTENT",
        "IMAGE_RECITATION",
        "LANGUAGE",
    }
)
"""Finish reasons that mean a filter stopped the answer (``content_filter``)."""

_REASONING_KEYS: dict[str, str] = {
    "budget_tokens": "thinking_budget",
    "thinking_budget": "thinking_budget",
    "effort": "thinking_level",
    "thinking_level": "thinking_level",
    "include_thoughts": "include_thoughts",
}


def finish_reason(reason: str | None) -> str | None:
    """Gemini ``finishReason`` -> forgebench ``finish_reason``."""
    if reason is None:
        return None
    if reason == "STOP":
        return "stop"
    if reason == "MAX_TOKENS":
        return "length"
    if reason in FILTERED:
        return "content_filter"
    return reason.lower()


def thinking_config(reasoning: dict[str, Any] | None) -> dict[str, Any] | None:
    """``ThinkingConfig`` fields for a ``reasoning`` option table."""
    if not reasoning:
        return None
    unknown = sorted(set(reasoning) - set(_REASONING_KEYS))
    if unknown:
        raise SpecError(
            f"unknown google reasoning option(s) {', '.join(unknown)}; "
            f"known: {', '.join(_REASONING_KEYS)}"
        )
    out = {_REASONING_KEYS[k]: v for k, v in reasoning.items()}
    if isinstance(out.get("thinking_level"), str):
        out["thinking_level"] = out["thinking_level"].upper()
    return out


def build_config(config: ModelConfig, request: Request) -> dict[str, Any]:
    """The ``GenerateContentConfig`` fields of one request."""
    params = _sdk.merged_params(config, request)
    cfg: dict[str, Any] = {"should_return_http_response": True, "automatic_continuation": False}
    if params.get("temperature") is not None:
        cfg["temperature"] = params["temperature"]
    if params.get("max_tokens") is not None:
        cfg["max_output_tokens"] = int(params["max_tokens"])
    if params.get("seed") is not None:
        cfg["seed"] = int(params["seed"])
    thinking = thinking_config(params.get("reasoning"))
    if thinking:
        cfg["thinking_config"] = thinking
    if params.get("extra_body"):
        cfg["http_options"] = {"extra_body": dict(params["extra_body"])}
    if request.choice:  # the only form: enum (config.choice_form is checked against CHOICE_FORMS)
        cfg["response_mime_type"] = choice.ENUM_MIME_TYPE
        cfg["response_schema"] = {"type": "STRING", "enum": [str(x) for x in request.choice]}
    return cfg


def parse_body(body: Any) -> Response:
    """A :class:`Response` from a ``generateContent`` JSON body; :class:`ModelError` if not one."""
    if not isinstance(body, dict):
        raise _errors.invalid_body_error(f"expected a JSON object, got {str(body)[:120]!r}")
    meta = body.get("usageMetadata")
    meta = meta if isinstance(meta, dict) else {}
    usage = Usage(
        input_tokens=meta.get("promptTokenCount"),
        output_tokens=(
            None
            if meta.get("candidatesTokenCount") is None and meta.get("thoughtsTokenCount") is None
            else (meta.get("candidatesTokenCount") or 0) + (meta.get("thoughtsTokenCount") or 0)
        ),
    )
    candidates = body.get("candidates")
    if not candidates:
        feedback = body.get("promptFeedback")
        if isinstance(feedback, dict) and feedback.get("blockReason"):
            return Response(text="", raw=body, usage=usage, finish_reason="content_filter")
        raise _errors.invalid_body_error("no candidates and no promptFeedback.blockReason")
    first = candidates[0]
    if not isinstance(first, dict):
        raise _errors.invalid_body_error("candidate is not an object")
    content = first.get("content")
    content = content if isinstance(content, dict) else {}
    parts = content.get("parts") or []
    if not isinstance(parts, list):
        raise _errors.invalid_body_error("content.parts is not a list")
    texts: list[str] = []
    thoughts: list[str] = []
    for part in parts:
        if isinstance(part, dict) and isinstance(part.get("text"), str):
            (thoughts if part.get("thought") else texts).append(part["text"])
    text = "".join(texts)
    if thoughts:
        text = f"<think>\n{''.join(thoughts)}\n</think>\n" + text
    reason = first.get("finishReason")
    return Response(
        text=text,
        raw=body,
        usage=usage,
        finish_reason=finish_reason(reason if isinstance(reason, str) else None),
    )


def _retry_delay(details: Any) -> float | None:
    """``google.rpc.RetryInfo.retryDelay`` (``"30s"``) from an error body, in seconds."""
    err = details.get("error", details) if isinstance(details, dict) else None
    items = err.get("details") if isinstance(err, dict) else None
    for item in items if isinstance(items, list) else []:
        delay = item.get("retryDelay") if isinstance(item, dict) else None
        m = re.fullmatch(r"\s*([0-9.]+)s\s*", delay) if isinstance(delay, str) else None
        if m:
            return float(m.group(1))
    return None


def api_error(exc: Any) -> ModelError:
    """The :class:`ModelError` for a ``google.genai.errors.APIError``."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    status = int(exc.code) if isinstance(exc.code, int) else 500
    reason = f"{exc.status}: {exc.message}" if exc.status and exc.message else exc.message
    err = _errors.status_error(status, reason or exc.details, dict(headers) if headers else None)
    if err.retryable and err.retry_after is None:
        err.retry_after = _retry_delay(exc.details)
    return err


class GoogleModel:
    """A Gemini model behind ``generateContent``."""

    def __init__(self, config: ModelConfig) -> None:
        self.name = config.name
        self._config = config
        self._client: Any = None
        form = config.choice_form or choice.default_form(CHOICE_FORMS)
        self._choice_gate = choice.ChoiceGate(form, CHOICE_FORMS)
        """A model's first constrained request goes alone (:class:`~.choice.ChoiceGate`)."""

    def describe_request(self, request: Request) -> dict[str, Any]:
        """The exact request, with each image as ``variant:<id>`` instead of its bytes."""
        parts: list[dict[str, Any]] = [
            {"inline_data": {"mime_type": kind, "data": label}}
            for kind, label in zip(
                _sdk.media_types(request), _sdk.variant_labels(request), strict=True
            )
        ]
        parts.append({"text": request.prompt})
        cfg = build_config(self._config, request)
        for local in ("should_return_http_response", "automatic_continuation"):
            cfg.pop(local)
        return {
            "model": self._config.parsed.model,
            "contents": [{"role": "user", "parts": parts}],
            "config": cfg,
        }

    def _ensure_client(self) -> Any:
        from google import genai
        from google.genai import types

        if self._client is None:
            options = types.HttpOptions(
                base_url=self._config.parsed.base_url,
                timeout=int(self._config.timeout_s * 1000),
                retry_options=types.HttpRetryOptions(attempts=1),
                async_client_args={"transport": _sdk.limited_transport(self._config)},
            )
            key = _sdk.api_key(self._config, DEFAULT_KEY_ENV)
            self._client = genai.Client(api_key=key, http_options=options)
        return self._client

    async def generate(self, request: Request) -> Response:
        """Ask once; HTTP and transport failures become :class:`ModelError`; a constrained
        request goes through the model's :class:`~forgebench.models.choice.ChoiceGate`."""
        if request.choice:
            return await self._choice_gate.run(self._send, request)
        return await self._send(request)

    async def _send(self, request: Request) -> Response:
        image_limit(self.name, request, self._config.max_images, " (max_images)")
        import aiohttp
        from google.genai import errors, types

        http = _sdk.http_module()
        try:
            cfg = build_config(self._config, request)
        except SpecError as exc:
            raise ModelError(str(exc), retryable=False) from exc
        contents: list[Any] = [
            types.Part.from_bytes(data=data, mime_type=kind)
            for data, kind in zip(
                _sdk.all_image_bytes(request), _sdk.media_types(request), strict=True
            )
        ]
        contents.append(request.prompt)
        client = self._ensure_client()
        try:
            reply = await client.aio.models.generate_content(
                model=self._config.parsed.model,
                contents=contents,
                config=types.GenerateContentConfig(**cfg),
            )
        except errors.APIError as exc:
            raise api_error(exc) from exc
        except (TimeoutError, http.TimeoutException) as exc:
            raise _errors.transport_error("timeout", exc) from exc
        except (aiohttp.ClientError, http.HTTPError) as exc:
            raise _errors.transport_error("connection error", exc) from exc
        except ValueError as exc:  # the SDK's own decoding of a malformed body
            raise _errors.invalid_body_error(str(exc)) from exc
        sdk_http = reply.sdk_http_response
        text = sdk_http.body if sdk_http is not None else None
        if not text:
            raise _errors.invalid_body_error("empty body")
        try:
            body = json.loads(text)
        except ValueError as exc:
            raise _errors.invalid_body_error(f"not JSON: {text[:120]!r}") from exc
        return parse_body(body)

    async def aclose(self) -> None:
        """Close the SDK's HTTP sessions."""
        if self._client is not None:
            await self._client.aio.aclose()
            self._client.close()
            self._client = None


def create(config: ModelConfig) -> Model:
    """The model a ``google/...`` spec names (needs the ``google`` extra; the key is read from
    the environment when the first request is sent)."""
    try:
        import google.genai  # noqa: F401
    except ImportError as exc:
        raise _sdk.missing_extra(config, "google") from exc
    thinking_config(config.reasoning)  # a bad option fails here, before any request
    return GoogleModel(config)
