"""``google/...`` against a real loopback server that speaks ``generateContent``."""

from __future__ import annotations

import asyncio
import base64
import importlib.util
import io
import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from PIL import Image

from forgebench.models import google as backend
from forgebench.models.base import ImageRef, ModelError, Request, Response
from forgebench.models.choice import read_choice
from forgebench.models.spec import ModelConfig, SpecError
from support.choice_gate import one_request_one_line

# find_spec, not importorskip: the SDK takes seconds to import, and only the backend needs it
pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("google.genai") is None, reason="needs the google extra"
)

KEY = "AIza-test-SECRET-5678"

Reply = Callable[[web.Request], Awaitable[web.StreamResponse]]


def answer(text: str, finish: str = "STOP", **extra: Any) -> dict[str, Any]:
    return {
        "candidates": [
            {"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": finish}
        ],
        "usageMetadata": {"promptTokenCount": 260, "candidatesTokenCount": 4},
        "modelVersion": "gemini-test",
        **extra,
    }


def json_reply(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Reply:
    async def handler(request: web.Request) -> web.StreamResponse:
        return web.json_response(body, status=status, headers=headers)

    return handler


def error_body(code: int, status: str, msg: str, details: list[Any] | None = None) -> Any:
    return {"error": {"code": code, "message": msg, "status": status, "details": details or []}}


@pytest.fixture
def jpeg(tmp_path: Path) -> ImageRef:
    path = tmp_path / "img.jpg"
    Image.new("RGB", (10, 7), (10, 200, 10)).save(path, format="JPEG")
    return ImageRef(variant_id="v1", path=path, media_type="image/jpeg")


def ask(
    reply: Reply,
    request: Request,
    *,
    monkeypatch: pytest.MonkeyPatch,
    **cfg: Any,
) -> tuple[Response | ModelError, list[dict[str, Any]]]:
    """Start a loopback server answering with ``reply``, ask once, return outcome + requests seen."""
    outs, seen = ask_all(reply, [request], monkeypatch=monkeypatch, **cfg)
    return outs[0], seen


def ask_all(
    reply: Reply,
    requests: list[Request],
    *,
    monkeypatch: pytest.MonkeyPatch,
    **cfg: Any,
) -> tuple[list[Response | ModelError], list[dict[str, Any]]]:
    """:func:`ask` for several requests sent at once (up to the model's ``concurrency``):
    each one's outcome, in order, and the requests the server saw."""
    seen: list[dict[str, Any]] = []
    monkeypatch.setenv("GOOGLE_API_KEY", KEY)

    async def handler(req: web.Request) -> web.StreamResponse:
        seen.append(
            {
                "path": req.path,
                "headers": {k.lower(): v for k, v in req.headers.items()},
                "body": json.loads(await req.read()),
            }
        )
        return await reply(req)

    async def one(model: Any, request: Request) -> Response | ModelError:
        try:
            out: Response = await model.generate(request)
            return out
        except ModelError as exc:
            return exc

    async def scenario() -> list[Response | ModelError]:
        app = web.Application()
        app.router.add_post("/{tail:.*}", handler)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        url = f"http://127.0.0.1:{port}"
        model = backend.create(ModelConfig(spec=f"google/gemini-test@{url}", **cfg))
        try:
            return list(await asyncio.gather(*(one(model, r) for r in requests)))
        finally:
            await model.aclose()
            await runner.cleanup()

    return asyncio.run(scenario()), seen


def test_sends_inline_image_params_and_key(jpeg: ImageRef, monkeypatch: pytest.MonkeyPatch) -> None:
    out, seen = ask(
        json_reply(answer("FAKE: the tower leans the wrong way.")),
        Request(prompt="Is this image real?", images=(jpeg,)),
        monkeypatch=monkeypatch,
        temperature=0.0,
        max_tokens=55,
        seed=11,
        reasoning={"budget_tokens": 128},
        extra_body={"cachedContent": "cachedContents/abc"},
    )
    assert isinstance(out, Response)
    assert out.text == "FAKE: the tower leans the wrong way."
    assert out.finish_reason == "stop"
    assert (out.usage.input_tokens, out.usage.output_tokens) == (260, 4)
    assert out.raw["modelVersion"] == "gemini-test"
    assert len(seen) == 1
    sent = seen[0]
    assert sent["path"].endswith("/models/gemini-test:generateContent")
    assert sent["headers"]["x-goog-api-key"] == KEY
    body = sent["body"]
    gen = body["generationConfig"]
    assert gen["temperature"] == 0.0
    assert gen["maxOutputTokens"] == 55
    assert gen["seed"] == 11
    thinking = gen["thinkingConfig"]
    assert thinking.get("thinkingBudget", thinking.get("thinking_budget")) == 128
    assert body["cachedContent"] == "cachedContents/abc"
    [turn] = body["contents"]
    assert turn["role"] == "user"
    image, text = turn["parts"]
    assert text == {"text": "Is this image real?"}
    inline = image["inlineData"]
    assert inline.get("mimeType", inline.get("mime_type")) == "image/jpeg"
    data = inline["data"]  # the SDK sends URL-safe base64, padding optional
    assert base64.urlsafe_b64decode(data + "=" * (-len(data) % 4)) == jpeg.path.read_bytes()
    assert KEY not in json.dumps(out.raw)


def test_omitted_temperature_and_text_only(monkeypatch: pytest.MonkeyPatch) -> None:
    out, seen = ask(
        json_reply(answer("Paris")),
        Request(prompt="Capital?", params={"max_tokens": 5}),
        monkeypatch=monkeypatch,
        temperature=None,
        reasoning={"effort": "low"},
    )
    assert isinstance(out, Response) and out.text == "Paris"
    body = seen[0]["body"]
    assert "temperature" not in body["generationConfig"]
    assert body["generationConfig"]["maxOutputTokens"] == 5
    level = body["generationConfig"]["thinkingConfig"]
    assert level.get("thinkingLevel", level.get("thinking_level")) == "LOW"
    assert body["contents"][0]["parts"] == [{"text": "Capital?"}]


@pytest.mark.parametrize(
    ("finish", "expected"),
    [("MAX_TOKENS", "length"), ("SAFETY", "content_filter"), ("RECITATION", "content_filter")],
)
def test_truncation_and_safety_are_answers(
    finish: str, expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    out, _ = ask(
        json_reply(answer("The image", finish)), Request(prompt="q"), monkeypatch=monkeypatch
    )
    assert isinstance(out, Response)
    assert out.finish_reason == expected
    assert out.text == "The image"


def test_blocked_prompt_is_an_empty_filtered_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    body = {"promptFeedback": {"blockReason": "SAFETY"}, "usageMetadata": {"promptTokenCount": 9}}
    out, _ = ask(json_reply(body), Request(prompt="q"), monkeypatch=monkeypatch)
    assert isinstance(out, Response)
    assert (out.text, out.finish_reason, out.usage.input_tokens) == ("", "content_filter", 9)


def test_thought_parts_kept_before_text(monkeypatch: pytest.MonkeyPatch) -> None:
    body = answer("REAL")
    body["candidates"][0]["content"]["parts"] = [
        {"text": "Shadows agree.", "thought": True},
        {"text": "REAL"},
    ]
    body["usageMetadata"]["thoughtsTokenCount"] = 20
    out, _ = ask(json_reply(body), Request(prompt="q"), monkeypatch=monkeypatch)
    assert isinstance(out, Response)
    assert out.text == "<think>\nShadows agree.\n</think>\nREAL"
    assert out.usage.output_tokens == 24


def test_429_retry_after_header_and_retry_info(monkeypatch: pytest.MonkeyPatch) -> None:
    out, seen = ask(
        json_reply(
            error_body(429, "RESOURCE_EXHAUSTED", "quota"), 429, headers={"Retry-After": "3"}
        ),
        Request(prompt="q"),
        monkeypatch=monkeypatch,
    )
    assert isinstance(out, ModelError)
    assert (out.retryable, out.retry_after, out.status) == (True, 3.0, 429)
    assert len(seen) == 1  # the SDK did not retry on its own

    info = [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "12s"}]
    out, _ = ask(
        json_reply(error_body(429, "RESOURCE_EXHAUSTED", "quota", info), 429),
        Request(prompt="q"),
        monkeypatch=monkeypatch,
    )
    assert isinstance(out, ModelError)
    assert (out.retryable, out.retry_after) == (True, 12.0)


def test_500_is_retryable(monkeypatch: pytest.MonkeyPatch) -> None:
    out, seen = ask(
        json_reply(error_body(500, "INTERNAL", "boom"), 500),
        Request(prompt="q"),
        monkeypatch=monkeypatch,
    )
    assert isinstance(out, ModelError)
    assert out.retryable and out.status == 500
    assert len(seen) == 1


@pytest.mark.parametrize("status", [400, 403, 404])
def test_client_errors_are_not_retried(status: int, monkeypatch: pytest.MonkeyPatch) -> None:
    out, seen = ask(
        json_reply(error_body(status, "INVALID_ARGUMENT", "Unsupported MIME type"), status),
        Request(prompt="q"),
        monkeypatch=monkeypatch,
    )
    assert isinstance(out, ModelError)
    assert not out.retryable and out.status == status
    assert str(out) == f"HTTP {status}: INVALID_ARGUMENT: Unsupported MIME type"
    assert len(seen) == 1


@pytest.mark.parametrize("body", ["<html>oops</html>", "[]", '{"candidates": []}'])
def test_garbage_body_is_retryable_error(body: str, monkeypatch: pytest.MonkeyPatch) -> None:
    async def handler(req: web.Request) -> web.StreamResponse:
        return web.Response(text=body, content_type="application/json")

    out, _ = ask(handler, Request(prompt="q"), monkeypatch=monkeypatch)
    assert isinstance(out, ModelError)
    assert out.retryable and "invalid response" in str(out)


def test_dropped_connection_and_timeout_are_retryable(monkeypatch: pytest.MonkeyPatch) -> None:
    async def drop(req: web.Request) -> web.StreamResponse:
        assert req.transport is not None
        req.transport.close()
        return web.Response()

    out, seen = ask(drop, Request(prompt="q"), monkeypatch=monkeypatch)
    assert isinstance(out, ModelError) and out.retryable
    assert len(seen) == 1  # no implicit SDK retry on a dropped connection

    async def slow(req: web.Request) -> web.StreamResponse:
        await asyncio.sleep(1)
        return web.json_response(answer("late"))

    out, _ = ask(slow, Request(prompt="q"), monkeypatch=monkeypatch, timeout_s=0.3)
    assert isinstance(out, ModelError) and out.retryable
    assert "timeout" in str(out)


def test_missing_key_bad_reasoning_and_missing_sdk(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    model = backend.create(ModelConfig(spec="g=google/gemini-x@http://127.0.0.1:9"))
    with pytest.raises(ModelError) as missing:
        asyncio.run(model.generate(Request(prompt="q")))
    assert (missing.value.retryable, missing.value.status) == (False, 401)
    assert str(missing.value) == "GOOGLE_API_KEY is not set (needed by g)"
    with pytest.raises(SpecError, match="unknown google reasoning option"):
        backend.create(ModelConfig(spec="google/gemini-x", reasoning={"depth": 3}))
    monkeypatch.setitem(sys.modules, "google.genai", None)
    with pytest.raises(SpecError) as err:
        backend.create(ModelConfig(spec="google/gemini-x"))
    assert str(err.value) == (
        "google/gemini-x needs the 'google' extra: pip install 'forgebench[google]'"
    )


def test_image_bytes_from_runner_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    buf = io.BytesIO()
    Image.new("RGB", (3, 3)).save(buf, format="PNG")
    b64 = base64.b64encode(buf.getvalue()).decode()
    out, seen = ask(
        json_reply(answer("ok")), Request(prompt="q", images_b64=(b64,)), monkeypatch=monkeypatch
    )
    assert isinstance(out, Response)
    inline = seen[0]["body"]["contents"][0]["parts"][0]["inlineData"]
    data = inline["data"]
    assert base64.urlsafe_b64decode(data + "=" * (-len(data) % 4)) == buf.getvalue()
    assert inline.get("mimeType", inline.get("mime_type")) == "image/png"


def test_describe_request_names_the_variant_not_the_bytes(jpeg: ImageRef) -> None:
    model = backend.create(ModelConfig(spec="google/gemini-x", seed=4))
    described = model.describe_request(  # type: ignore[attr-defined]
        Request(prompt="Real?", images=(jpeg,), params={"temperature": 0.0, "max_tokens": 50})
    )
    image, text = described["contents"][0]["parts"]
    assert image["inline_data"] == {"mime_type": "image/jpeg", "data": "variant:v1"}
    assert text == {"text": "Real?"}
    assert described["config"] == {"temperature": 0.0, "max_output_tokens": 50, "seed": 4}


def test_several_images_are_inline_parts_in_order_before_the_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    refs = []
    for k, size in enumerate([(10, 7), (4, 12), (6, 6)]):
        Image.new("RGB", size, (10, 40 * k, 10)).save(tmp_path / f"f{k}.jpg", format="JPEG")
        refs.append(ImageRef(f"v{k}", tmp_path / f"f{k}.jpg", "image/jpeg"))
    out, seen = ask(
        json_reply(answer("B")),
        Request(prompt="Which frames?", images=tuple(refs)),
        monkeypatch=monkeypatch,
    )
    assert isinstance(out, Response)
    parts = seen[0]["body"]["contents"][0]["parts"]
    assert parts[-1] == {"text": "Which frames?"} and len(parts) == 4
    sent = [p["inlineData"]["data"] for p in parts[:3]]
    decoded = [base64.urlsafe_b64decode(d + "=" * (-len(d) % 4)) for d in sent]
    assert decoded == [r.path.read_bytes() for r in refs]


LETTERS = ("A", "B", "C", "D")


def test_choice_sends_the_letters_as_an_enum_and_reads_the_bare_letter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    request = Request(prompt="Which region?", choice=LETTERS)
    out, seen = ask(json_reply(answer("C")), request, monkeypatch=monkeypatch)
    assert isinstance(out, Response) and read_choice(out.text, LETTERS) == "C"
    gen = seen[0]["body"]["generationConfig"]
    assert gen["responseMimeType"] == "text/x.enum"
    assert gen["responseSchema"] == {"type": "STRING", "enum": list(LETTERS)}
    described = backend.create(ModelConfig(spec="google/g")).describe_request(request)
    assert described["config"]["response_schema"]["enum"] == list(LETTERS)
    # a free-form request carries neither
    _, plain = ask(json_reply(answer("C")), Request(prompt="q"), monkeypatch=monkeypatch)
    assert not {"responseMimeType", "responseSchema"} & set(plain[0]["body"]["generationConfig"])


@pytest.mark.parametrize(
    ("reply", "words"),
    [
        (
            json_reply(error_body(400, "INVALID_ARGUMENT", "enum output is not supported"), 400),
            "rejected the first constrained-answer request, field response_schema",
        ),
        (json_reply(answer("Probably C, the shadows.")), "ignored the constrained-answer field"),
    ],
    ids=["rejects", "ignores"],
)
def test_choice_a_server_that_rejects_or_ignores_the_enum_gets_one_request(
    reply: Reply, words: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    line = one_request_one_line(ask_all, reply, LETTERS, monkeypatch=monkeypatch)
    assert words in line and 'choice_form = "enum"' in line, line
    assert "Set choice_form" not in line  # google sends no other form to suggest
