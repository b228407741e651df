"""Any OpenAI-compatible ``/v1/chat/completions`` server (OpenAI, vLLM, SGLang, Ollama, LM Studio,
llama.cpp), through one shared ``aiohttp`` session per model.

Request body: one user message with the images first, one ``image_url`` part each in the
question's order (a ``data:<media_type>;base64,...`` URL of the variant's bytes), then the prompt
text; ``temperature`` (0 unless set; omitted when None),
``max_tokens`` (not sent when ``extra_body`` sets ``max_completion_tokens``), ``seed``;
``reasoning = {effort = "low"}`` becomes ``reasoning_effort``, other reasoning keys go as a
``reasoning`` object; ``extra_body`` fields are merged at the top level last (so they win). A request with ``choice``
(Forensics' ``MCQ_CHOICE``) adds the constrained-answer field of the model's ``choice_form``
(:func:`forgebench.models.choice.choice_fields`: ``response_format`` with a JSON schema by
default, ``structured_outputs`` or ``guided_choice`` for vLLM).

Constrained answers: a model's first such request is sent alone (the others wait for it). When the
server refuses it (400, 404, 415, 422, 501) or answers it with free text (it ignored the field),
that request and every waiting one fail with one line naming the field, and the model is stopped
before anything more is sent; once one constrained answer has come back in shape, later ones go
as any request.

Failures: 408, 409, 425, 429 and 5xx are retryable (``Retry-After`` in seconds or as an HTTP date is
passed on); timeouts, dropped connections, bodies that are not JSON or not a chat completion are
retryable; every other status (400, 401, 403, 404, 413, 422, ...) is not, with the server's own
error message as the reason. A reply with ``finish_reason`` ``length`` or ``content_filter``, or
with a ``refusal``, is an answer. ``Response.raw`` is the server's JSON (it never holds the request,
so never image bytes or the key).

Redirects are followed only on the same scheme, host and port (at most :data:`MAX_REDIRECTS`); a
redirect to another host is refused (non-retryable): its answer would be stored as the configured
model's, and the key would travel with it.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
from collections.abc import Sequence
from typing import Any
from urllib.parse import urljoin, urlsplit

import aiohttp

from forgebench.models import _errors, _sdk, choice
from forgebench.models.base import (
    Model,
    ModelError,
    ReplyTimeout,
    Request,
    Response,
    Usage,
    image_limit,
)
from forgebench.models.checks import key_problem
from forgebench.models.replies import read_limited
from forgebench.models.spec import ModelConfig

CONSTRAINED_ANSWERS = True
"""It can hold an answer to a few strings (:mod:`forgebench.models.choice`: ``choice_form``)."""
DEFAULT_BASE_URL = "https://api.openai.com/v1"
DEFAULT_KEY_ENV = "OPENAI_API_KEY"
MAX_REASON = 300
MAX_REDIRECTS = 3
REDIRECTS = frozenset({301, 302, 303, 307, 308})


def _data_url(request: Request, k: int) -> str:
    b64 = request.images_b64[k] if k < len(request.images_b64) else None
    if b64 is None:
        b64 = base64.b64encode(request.images[k].path.read_bytes()).decode("ascii")
    return f"data:{_sdk.media_types(request)[k]};base64,{b64}"


def build_body(
    model_id: str,
    request: Request,
    image_urls: Sequence[str] | None = None,
    choice_form: str = choice.DEFAULT_FORM,
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


def encode_body(model_id: str, request: Request, choice_form: str = choice.DEFAULT_FORM) -> bytes:
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
        raise ModelError(f"server error in reply: {_error_message(data)}", retryable=True)
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


class TransportError(ModelError):
    """The server could not be reached or dropped the connection (retryable; no HTTP status).
    ``refused``: the connection was never made, so the request was not seen by the server."""

    def __init__(self, message: str, *, refused: bool) -> None:
        super().__init__(message, retryable=True)
        self.refused = refused


class RedirectRefused(ModelError):
    """A redirect to another host, or too many (not retryable: the server is misconfigured; a
    replica that does this is rested and the others answer)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, retryable=False)


class OpenAICompatModel:
    """An OpenAI-compatible chat-completions backend (one server; ``base_url`` overrides the
    spec's, for one replica of several)."""

    def __init__(self, config: ModelConfig, base_url: str | None = None) -> None:
        spec = config.parsed
        self.config = config
        self.name = spec.name
        self.model_id = spec.model
        given = base_url or spec.base_url
        self.base_url = (given or DEFAULT_BASE_URL).rstrip("/")
        self.url = f"{self.base_url}/chat/completions"
        self._key_env = config.api_key_env or DEFAULT_KEY_ENV
        self._key_required = given is None or config.api_key_env is not None
        self._session: aiohttp.ClientSession | None = None
        self.choice_form: str = config.choice_form or choice.DEFAULT_FORM
        self._choice_gate: asyncio.Future[str | None] | None = None
        """The first constrained request's outcome: None once one came back in shape, else the
        line that stops the model (see the module docstring)."""

    def describe_request(self, request: Request) -> dict[str, Any]:
        """The exact body sent, with each image as ``variant:<id>`` instead of its bytes."""
        return build_body(
            self.model_id, request, image_urls=variant_urls(request), choice_form=self.choice_form
        )

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        key = (os.environ.get(self._key_env) or "").strip()
        if key:
            why = key_problem(self._key_env, key)
            if why is not None:
                raise ModelError(why, retryable=False, status=401)
            headers["Authorization"] = f"Bearer {key}"
        elif self._key_required:
            raise ModelError(
                f"{self._key_env} is not set (needed for {self.base_url})",
                retryable=False,
                status=401,
            )
        return headers

    def _ensure_session(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(
                limit=self.config.concurrency, limit_per_host=self.config.concurrency
            )
            self._session = aiohttp.ClientSession(
                connector=connector,
                timeout=aiohttp.ClientTimeout(total=self.config.timeout_s),
                raise_for_status=False,
            )
        return self._session

    async def generate(self, request: Request) -> Response:
        """Send one chat completion; map every failure to a :class:`ModelError`; a constrained
        request waits for the model's first one (:meth:`_constrained`)."""
        if request.choice:
            return await self._constrained(request)
        return await self._send(request)

    async def _constrained(self, request: Request) -> Response:
        """The first constrained request goes alone; a rejection or a free-text answer to it
        becomes the one line (non-retryable, the model stops) that it and every waiting request
        raise; after an answer in shape, requests go as any."""
        gate = self._choice_gate
        if gate is None:
            gate = self._choice_gate = asyncio.get_running_loop().create_future()
            verdict: str | None = None
            try:
                response = await self._send(request)
            except ModelError as exc:
                if exc.status not in choice.REJECTION_STATUS:
                    self._choice_gate = None  # not about the field: the next one goes first
                    gate.set_result(None)
                    raise
                verdict = choice.rejected(self.choice_form, str(exc))
                gate.set_result(verdict)
                raise ModelError(verdict, retryable=False, status=exc.status) from None
            except BaseException:
                self._choice_gate = None
                gate.set_result(None)
                raise
            if response.finish_reason not in choice.EXEMPT and not choice.conforms(
                response.text, request.choice
            ):
                verdict = choice.ignored(self.choice_form, response.text)
            gate.set_result(verdict)
            if verdict is not None:
                raise ModelError(verdict, retryable=False)
            return response
        verdict = await asyncio.shield(gate)
        if verdict is not None:
            raise ModelError(verdict, retryable=False)
        return (
            await self.generate(request) if self._choice_gate is None else await self._send(request)
        )

    async def _send(self, request: Request) -> Response:
        image_limit(self.name, request, self.config.max_images, " (max_images)")
        headers = self._headers()
        payload = encode_body(self.model_id, request, self.choice_form)
        session = self._ensure_session()
        url = self.url
        try:
            for _hop in range(MAX_REDIRECTS + 1):
                async with session.post(
                    url, data=payload, headers=headers, allow_redirects=False
                ) as resp:
                    body = await read_limited(resp, self.config.max_reply_bytes)
                    status = resp.status
                    reply_headers = dict(resp.headers)
                    location = resp.headers.get("Location")
                if status not in REDIRECTS or not location:
                    break
                url = _same_origin_redirect(url, location)
            else:
                raise RedirectRefused(f"more than {MAX_REDIRECTS} redirects from {self.url}")
        except TimeoutError:
            raise ReplyTimeout(f"no reply within {self.config.timeout_s:g}s") from None
        except aiohttp.ClientConnectorError as exc:
            raise TransportError(
                f"cannot connect to {self.base_url} ({_os_reason(exc)})", refused=True
            ) from None
        except (aiohttp.ClientError, OSError) as exc:
            reason = str(exc) or type(exc).__name__
            raise TransportError(
                f"connection failed: {reason}"[:MAX_REASON], refused=False
            ) from None
        if status != 200:
            raise _status_error(status, body, reply_headers)
        try:
            data = json.loads(body)
        except (UnicodeDecodeError, json.JSONDecodeError):
            snippet = body[:80].decode("utf-8", "replace").replace("\n", " ")
            raise ModelError(f"reply is not JSON: {snippet!r}", retryable=True) from None
        return parse_completion(data)

    async def aclose(self) -> None:
        """Close the shared session."""
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None


def _same_origin_redirect(url: str, location: str) -> str:
    """The redirect target, if it is on the same scheme, host and port as ``url``; a
    non-retryable :class:`ModelError` otherwise (the answer would not come from the configured
    server, and the key would go to another host)."""
    target = urljoin(url, location)
    a, b = urlsplit(url), urlsplit(target)
    if (a.scheme, a.hostname, a.port) != (b.scheme, b.hostname, b.port):
        raise RedirectRefused(
            f"refused a redirect from {a.scheme}://{a.netloc} to {b.scheme}://{b.netloc} "
            "(another host; set the base URL to the server that answers)"
        )
    return target


def create(config: ModelConfig) -> Model:
    """The backend for an ``openai/MODEL[@BASE_URL]`` spec; with several URLs, a balancer over
    one backend per replica (``models/replicas.py``)."""
    urls = config.replica_urls()
    if len(urls) <= 1:
        return OpenAICompatModel(config, urls[0] if urls else None)
    from forgebench.models.replicas import ReplicatedModel

    return ReplicatedModel(
        config.name, [OpenAICompatModel(config, u) for u in urls], timeout_s=config.timeout_s
    )


def _status_error(status: int, body: bytes, headers: dict[str, str]) -> ModelError:
    """The shared mapping (``_errors.status_error``: retryable statuses, ``Retry-After``) with
    the message an OpenAI-compatible server puts in its JSON error body."""
    try:
        message = _error_message(json.loads(body))
    except (UnicodeDecodeError, json.JSONDecodeError):
        message = body[:200].decode("utf-8", "replace").strip()
    return _errors.status_error(status, message or "no message", headers)


def _error_message(data: Any) -> str:
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


def _os_reason(exc: aiohttp.ClientConnectorError) -> str:
    os_error = getattr(exc, "os_error", None)
    return (getattr(os_error, "strerror", None) or str(os_error or exc)).strip() or "refused"
