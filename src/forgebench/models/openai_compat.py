"""Any OpenAI-compatible ``/v1/chat/completions`` server (OpenAI, vLLM, SGLang, Ollama, LM Studio,
llama.cpp), through one shared ``aiohttp`` session per model.

The request body and the reading of a reply: :mod:`.openai_body`.

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

import json
import os
from typing import Any
from urllib.parse import urljoin, urlsplit

import aiohttp

from forgebench.models import _errors, choice
from forgebench.models.base import (
    Model,
    ModelError,
    ReplyTimeout,
    Request,
    Response,
    image_limit,
)
from forgebench.models.checks import key_problem
from forgebench.models.openai_body import (
    build_body,
    encode_body,
    error_message,
    parse_completion,
    variant_urls,
)
from forgebench.models.replicas import ReplicatedModel
from forgebench.models.replies import read_limited
from forgebench.models.spec import ModelConfig

CHOICE_FORMS = choice.OPENAI_FORMS
"""The constrained-answer forms it sends and their fields (:mod:`forgebench.models.choice`:
``choice_form``; ``json_schema`` by default)."""
DEFAULT_BASE_URL = "https://api.openai.com/v1"
DEFAULT_KEY_ENV = "OPENAI_API_KEY"
MAX_REASON = 300
MAX_REDIRECTS = 3
REDIRECTS = frozenset({301, 302, 303, 307, 308})


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
    spec's, for one replica of several; ``gate``: the constrained-answer gate it shares with the
    other replicas of one model, so that one first request goes alone for them all)."""

    def __init__(
        self,
        config: ModelConfig,
        base_url: str | None = None,
        gate: choice.ChoiceGate | None = None,
    ) -> None:
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
        self._choice_gate = gate or choice_gate(config)
        """A model's first constrained request goes alone (see the module docstring)."""
        self.choice_form: str = self._choice_gate.form

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
        request goes through the model's :class:`~forgebench.models.choice.ChoiceGate`."""
        if request.choice:
            return await self._choice_gate.run(self._send, request)
        return await self._send(request)

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
    gate = choice_gate(config)  # one for all replicas: one first request, one verdict
    return ReplicatedModel(
        config.name,
        [OpenAICompatModel(config, u, gate) for u in urls],
        timeout_s=config.timeout_s,
    )


def choice_gate(config: ModelConfig) -> choice.ChoiceGate:
    """The constrained-answer gate of ``config``'s form (:data:`CHOICE_FORMS`)."""
    form = config.choice_form or choice.default_form(CHOICE_FORMS)
    return choice.ChoiceGate(form, CHOICE_FORMS)


def _status_error(status: int, body: bytes, headers: dict[str, str]) -> ModelError:
    """The shared mapping (``_errors.status_error``: retryable statuses, ``Retry-After``) with
    the message an OpenAI-compatible server puts in its JSON error body."""
    try:
        message = error_message(json.loads(body))
    except (UnicodeDecodeError, json.JSONDecodeError):
        message = body[:200].decode("utf-8", "replace").strip()
    return _errors.status_error(status, message or "no message", headers)


def _os_reason(exc: aiohttp.ClientConnectorError) -> str:
    os_error = getattr(exc, "os_error", None)
    return (getattr(os_error, "strerror", None) or str(os_error or exc)).strip() or "refused"
