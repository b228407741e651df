"""``anthropic/MODEL[@BASE_URL]``: the Messages API through the official SDK (``anthropic`` extra).

One user message holds the images (one base64 ``image`` block each, in the question's order)
followed by the prompt text. The
request carries:

- ``max_tokens`` (required by the API; 4096 when the config sets none);
- ``temperature`` as a body field when set (set it to None in the models file for models that
  refuse it); the SDK no longer lists it as a parameter, the API still accepts it where supported;
- ``reasoning``: ``effort`` goes to ``output_config.effort``; ``budget_tokens`` turns on manual
  extended thinking (``thinking = {type: enabled, budget_tokens}``); ``type`` (``adaptive``,
  ``enabled``, ``disabled``) sets ``thinking.type`` itself; ``display`` is passed inside
  ``thinking``. Any other key is a :class:`SpecError`;
- ``extra_body`` fields merged into the JSON body.

``seed`` is not sent: the Messages API has no sampling seed. ``@BASE_URL`` is the server root
(the SDK appends ``/v1/messages``). The SDK's own retries are off (``max_retries=0``): the runner's
retry policy is the only one.

Answers: text blocks joined; thinking blocks kept as ``<think>...</think>`` before the text
(parsing strips them). ``stop_reason`` maps to ``finish_reason``: ``end_turn``/``stop_sequence``
-> ``stop``, ``max_tokens``/``model_context_window_exceeded`` -> ``length``, ``refusal`` ->
``refusal``; others pass through unchanged. All of these are answers, never errors.

Constrained answers (Forensics' ``MCQ_CHOICE``; :data:`CHOICE_FORMS`): structured outputs,
``output_config.format`` with a JSON schema whose ``answer`` is an enum of the option letters
(beside ``effort`` when set); the answer is ``{"answer": "B"}``. A model's first such request goes
alone (:class:`forgebench.models.choice.ChoiceGate`): a 4xx on it, or a free-text answer, stops
the model in one line naming the field before more is sent.
"""

from __future__ import annotations

import json
from typing import Any

from forgebench.models import _errors, _sdk, choice
from forgebench.models.base import Model, ModelError, Request, Response, Usage, image_limit
from forgebench.models.replies import too_large_in
from forgebench.models.spec import ModelConfig, SpecError

DEFAULT_KEY_ENV = "ANTHROPIC_API_KEY"
DEFAULT_MAX_TOKENS = 4096
"""``max_tokens`` when the config sets none (the API requires one)."""
CHOICE_FORMS: dict[str, str] = {"json_schema": "output_config.format"}
"""The constrained-answer form it sends (:mod:`forgebench.models.choice`): ``json_schema``,
structured outputs' ``output_config.format = {type: json_schema, schema}`` with the letters as
the enum of ``answer``."""

FINISH_REASONS: dict[str, str] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "refusal": "refusal",
}
"""Anthropic ``stop_reason`` -> forgebench ``finish_reason`` (others pass through)."""

_THINKING_KEYS = ("type", "budget_tokens", "display")


def reasoning_fields(reasoning: dict[str, Any] | None) -> dict[str, Any]:
    """Request fields (``thinking``, ``output_config``) for a ``reasoning`` option table."""
    if not reasoning:
        return {}
    unknown = sorted(set(reasoning) - {"effort", *_THINKING_KEYS})
    if unknown:
        raise SpecError(
            f"unknown anthropic reasoning option(s) {', '.join(unknown)}; "
            "known: effort, type, budget_tokens, display"
        )
    out: dict[str, Any] = {}
    if "effort" in reasoning:
        out["output_config"] = {"effort": reasoning["effort"]}
    thinking = {k: reasoning[k] for k in _THINKING_KEYS if k in reasoning}
    if thinking:
        thinking.setdefault("type", "enabled")
        out["thinking"] = thinking
    return out


def build_request(
    config: ModelConfig, request: Request, image_data: list[str] | None = None
) -> dict[str, Any]:
    """The keyword arguments of ``messages.create`` for one request (no key, no client);
    ``image_data`` stands in for the images' base64 (``describe_request`` passes variant ids)."""
    params = _sdk.merged_params(config, request)
    content: list[dict[str, Any]] = []
    datas = image_data if image_data is not None else _sdk.all_image_b64(request)
    for data, kind in zip(datas, _sdk.media_types(request), strict=True):
        content.append(
            {"type": "image", "source": {"type": "base64", "media_type": kind, "data": data}}
        )
    content.append({"type": "text", "text": request.prompt})
    max_tokens = params.get("max_tokens")
    kwargs: dict[str, Any] = {
        "model": config.parsed.model,
        "max_tokens": int(max_tokens) if max_tokens is not None else DEFAULT_MAX_TOKENS,
        "messages": [{"role": "user", "content": content}],
    }
    kwargs.update(reasoning_fields(params.get("reasoning")))
    if request.choice:  # the only form: json_schema (checked against CHOICE_FORMS)
        fmt = {"type": "json_schema", "schema": choice.answer_schema(request.choice)}
        kwargs["output_config"] = {**kwargs.get("output_config", {}), "format": fmt}
    extra: dict[str, Any] = {}
    if params.get("temperature") is not None:
        extra["temperature"] = params["temperature"]
    extra.update(params.get("extra_body") or {})
    if extra:
        kwargs["extra_body"] = extra
    return kwargs


def parse_message(body: Any) -> Response:
    """A :class:`Response` from a Messages API JSON body; :class:`ModelError` if it is not one."""
    if not isinstance(body, dict) or body.get("type") not in ("message", None):
        raise _errors.invalid_body_error(f"expected a message object, got {str(body)[:120]!r}")
    blocks = body.get("content")
    if not isinstance(blocks, list):
        raise _errors.invalid_body_error("message has no content list")
    texts: list[str] = []
    thoughts: list[str] = []
    for block in blocks:
        if not isinstance(block, dict):
            raise _errors.invalid_body_error("content block is not an object")
        if block.get("type") == "text" and isinstance(block.get("text"), str):
            texts.append(block["text"])
        elif block.get("type") == "thinking" and isinstance(block.get("thinking"), str):
            thoughts.append(block["thinking"])
    text = "".join(texts)
    if thoughts:
        text = "".join(f"<think>\n{t}\n</think>\n" for t in thoughts) + text
    stop = body.get("stop_reason")
    usage = body.get("usage")
    usage = usage if isinstance(usage, dict) else {}
    return Response(
        text=text,
        raw=body,
        usage=Usage(
            input_tokens=usage.get("input_tokens"), output_tokens=usage.get("output_tokens")
        ),
        finish_reason=FINISH_REASONS.get(stop, stop) if isinstance(stop, str) else None,
    )


class AnthropicModel:
    """A Claude model behind the Messages API."""

    def __init__(self, config: ModelConfig) -> None:
        self.name = config.name
        self._config = config
        self._client: Any = None
        form = config.choice_form or choice.default_form(CHOICE_FORMS)
        self._choice_gate = choice.ChoiceGate(form, CHOICE_FORMS)
        """A model's first constrained request goes alone (:class:`~.choice.ChoiceGate`)."""

    def describe_request(self, request: Request) -> dict[str, Any]:
        """The exact request, with each image as ``variant:<id>`` instead of its bytes."""
        labels = _sdk.variant_labels(request)
        return {"path": "/v1/messages", **build_request(self._config, request, labels)}

    def _ensure_client(self) -> Any:
        import anthropic

        if self._client is None:
            self._client = anthropic.AsyncAnthropic(
                api_key=_sdk.api_key(self._config, DEFAULT_KEY_ENV),
                base_url=self._config.parsed.base_url,
                max_retries=0,
                timeout=self._config.timeout_s,
                http_client=anthropic.DefaultAsyncHttpxClient(
                    transport=_sdk.limited_transport(self._config)
                ),
            )
        return self._client

    async def generate(self, request: Request) -> Response:
        """Ask once; HTTP and transport failures become :class:`ModelError`; a constrained
        request goes through the model's :class:`~forgebench.models.choice.ChoiceGate`."""
        if request.choice:
            return await self._choice_gate.run(self._send, request)
        return await self._send(request)

    async def _send(self, request: Request) -> Response:
        image_limit(self.name, request, self._config.max_images, " (max_images)")
        import anthropic

        http = _sdk.http_module()
        try:
            kwargs = build_request(self._config, request)
        except SpecError as exc:
            raise ModelError(str(exc), retryable=False) from exc
        client = self._ensure_client()
        try:
            raw = await client.messages.with_raw_response.create(**kwargs)
            text = await raw.text()
        except anthropic.APIStatusError as exc:
            reason = _errors.error_message(exc.body) or exc.message
            raise _errors.status_error(exc.status_code, reason, exc.response.headers) from exc
        except anthropic.APITimeoutError as exc:
            raise _errors.transport_error("timeout", exc) from exc
        except anthropic.APIConnectionError as exc:
            raise too_large_in(exc) or _errors.transport_error("connection error", exc) from exc
        except anthropic.APIResponseValidationError as exc:
            raise _errors.invalid_body_error(exc.message) from exc
        except http.TimeoutException as exc:
            raise _errors.transport_error("timeout", exc) from exc
        except http.HTTPError as exc:
            raise _errors.transport_error("connection error", exc) from exc
        try:
            body = json.loads(text)
        except ValueError as exc:
            raise _errors.invalid_body_error(f"not JSON: {text[:120]!r}") from exc
        return parse_message(body)

    async def aclose(self) -> None:
        """Close the SDK's HTTP connections."""
        if self._client is not None:
            await self._client.close()
            self._client = None


def create(config: ModelConfig) -> Model:
    """The model an ``anthropic/...`` spec names (needs the ``anthropic`` extra; the key is read
    from the environment when the first request is sent)."""
    try:
        import anthropic  # noqa: F401
    except ImportError as exc:
        raise _sdk.missing_extra(config, "anthropic") from exc
    reasoning_fields(config.reasoning)  # a bad option fails here, before any request
    return AnthropicModel(config)
