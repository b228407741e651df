"""The OpenAI chat-completions wire format: the request body sent and the reply read
(:mod:`.openai_compat` sends it; ``run/batch.py`` writes it to batch files and reads their output).

Request body: one user message with the images first, one ``image_url`` part each in the
question's order (a ``data:<media_type>;base64,...`` URL of the variant's bytes), then the prompt
text; ``temperature`` (0 unless set; omitted when None), ``max_tokens`` (not sent when
``extra_body`` sets ``max_completion_tokens``), ``seed``; ``reasoning = {effort = "low"}`` becomes
``reasoning_effort``, other reasoning keys go as a ``reasoning`` object; ``extra_body`` fields are
merged at the top level last (so they win). A request with ``choice`` (Forensics' ``MCQ_CHOICE``)
adds the constrained-answer field of the model's ``choice_form``
(:func:`forgebench.models.choice.choice_fields`: ``response_format`` with a JSON schema by
default, ``structured_outputs`` or ``guided_choice`` for vLLM).

Reply: the first choice's message content (its text parts joined), or its ``refusal`` (finish
reason ``refusal``), with the usage's prompt and completion tokens; a body that is not a chat
completion is a retryable :class:`~forgebench.models.base.ModelError`.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from typing import Any

from forgebench.models import _sdk, choice
from forgebench.models.base import ModelError, Request, Response, Usage


def _data_url(request: Request, k: int) -> str:
    b64 = request.images_b64[k] if k < len(request.images_b64) else None
    if b64 is None:
        b64 = base64.b64encode(request.images[k].path.read_bytes()).decode("ascii")
    return f"data:{_sdk.media_types(request)[k]};base64,{b64}"


OPENAI_DEFAULT_FORM = choice.default_form(choice.OPENAI_FORMS)
"""The constrained-answer form of a body whose caller names none (``json_schema``)."""


def build_body(
    model_id: str,
    request: Request,
    image_urls: Sequence[str] | None = None,
    choice_form: str = OPENAI_DEFAULT_FORM,
) -> dict[str, Any]:
    """The chat-completions body for ``request``: one ``image_url`` part per image, in order,
    then the text; ``image_urls`` (one per image) override the data URLs; a request with
    ``choice`` carries the constrained-answer field of ``choice_form``."""
    if image_urls is not None and len(image_urls) != request.image_count:
        raise ValueError(f"{len(image_urls)} image URLs for {request.image_count} images")
    content: list[dict[str, Any]] = []
    for k in range(request.image_count):
        url = image_urls[k] if image_urls is not None else _data_url(request, k)
        content.append({"type": "image_url", "image_url": {"url": url}})
    content.append({"type": "text", "text": request.prompt})
    body: dict[str, Any] = {"model": model_id, "messages": [{"role": "user", "content": content}]}
    params = dict(request.params)
    extra = dict(params.pop("extra_body", None) or {})
    reasoning = dict(params.pop("reasoning", None) or {})
    for name in ("temperature", "max_tokens", "seed"):
        if params.get(name) is not None:
            body[name] = params.pop(name)
    if "max_completion_tokens" in extra:
        body.pop("max_tokens", None)
    if "effort" in reasoning:
        body["reasoning_effort"] = reasoning.pop("effort")
    if reasoning:
        body["reasoning"] = reasoning
    body.update({k: v for k, v in params.items() if v is not None})
    if request.choice:
        body.update(choice.choice_fields(choice_form, request.choice))
    body.update(extra)
    return body


def variant_urls(request: Request) -> list[str]:
    """``variant:<id>`` for each image: what a stored request shows instead of the bytes."""
    return _sdk.variant_labels(request)


def encode_body(model_id: str, request: Request, choice_form: str = OPENAI_DEFAULT_FORM) -> bytes:
    """The JSON bytes of :func:`build_body`, with the data URLs spliced in rather than run through
    the JSON encoder (base64 and the media type need no escaping; this saves a pass over the
    images' characters per request)."""
    if not request.image_count:
        body = build_body(model_id, request, choice_form=choice_form)
        return json.dumps(body, ensure_ascii=False).encode("utf-8")
    slots = [f"@@forgebench-image-url-{k}@@" for k in range(request.image_count)]
    body = build_body(model_id, request, image_urls=slots, choice_form=choice_form)
    text = json.dumps(body, ensure_ascii=False)
    chunks: list[bytes] = []
    for k, slot in enumerate(slots):  # the image parts precede the prompt text, in order
        head, _, text = text.partition(slot)
        chunks += [head.encode("utf-8"), _data_url(request, k).encode("ascii")]
    chunks.append(text.encode("utf-8"))
    return b"".join(chunks)


def parse_completion(data: Any) -> Response:
    """A chat-completions JSON body as a :class:`Response`; retryable :class:`ModelError` when it
    is not one (no choices, no message)."""
    if not isinstance(data, dict):
        raise ModelError("reply is not a JSON object", retryable=True)
    if "error" in data and not data.get("choices"):
        raise ModelError(f"server error in reply: {error_message(data)}", retryable=True)
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise ModelError("reply has no choices (not a chat completion)", retryable=True)
    choice = choices[0]
    message = choice.get("message")
    if not isinstance(message, dict):
        raise ModelError("reply's first choice has no message", retryable=True)
    finish = choice.get("finish_reason")
    text = _content_text(message.get("content"))
    refusal = message.get("refusal")
    if isinstance(refusal, str) and refusal and not text:
        text = refusal
        finish = "refusal"
    usage_obj = data.get("usage")
    usage: dict[str, Any] = usage_obj if isinstance(usage_obj, dict) else {}
    return Response(
        text=text,
        raw=data,
        usage=Usage(
            input_tokens=_int_or_none(usage.get("prompt_tokens")),
            output_tokens=_int_or_none(usage.get("completion_tokens")),
        ),
        finish_reason=finish if isinstance(finish, str) else None,
    )


def error_message(data: Any) -> str:
    if isinstance(data, dict):
        err = data.get("error", data)
        if isinstance(err, dict):
            msg = err.get("message") or err.get("msg") or err.get("detail")
            if msg:
                return str(msg)
            return json.dumps(err)[:200]
        if isinstance(err, str):
            return err
        if "detail" in data:
            return str(data["detail"])
    return json.dumps(data)[:200]


def _content_text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [
            str(p.get("text", ""))
            for p in content
            if isinstance(p, dict) and p.get("type") == "text"
        ]
        return "".join(parts)
    return str(content)


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
