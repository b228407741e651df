"""``anthropic/...`` against a real loopback server that speaks the Messages API."""

from __future__ import annotations

import asyncio
import base64
import importlib.util
import io
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from PIL import Image

from forgebench.models import anthropic as backend
from forgebench.models.base import ImageRef, ModelError, Request, Response
from forgebench.models.choice import answer_schema, read_choice
from forgebench.models.spec import ModelConfig, SpecError
from support.choice_gate import one_request_one_line

# find_spec, not importorskip: the SDK takes seconds to import, and only the backend needs it
pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("anthropic") is None, reason="needs the anthropic extra"
)

KEY = "sk-ant-test-SECRET-1234"

Reply = Callable[[web.Request], Awaitable[web.StreamResponse]]


def message(text: str, stop: str = "end_turn", **extra: Any) -> dict[str, Any]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": [{"type": "text", "text": text}],
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": 321, "output_tokens": 7},
        **extra,
    }


def json_reply(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Reply:
    async def handler(request: web.Request) -> web.StreamResponse:
        return web.json_response(body, status=status, headers=headers)

    return handler


def error_body(kind: str, msg: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": kind, "message": msg}}


@pytest.fixture
def png(tmp_path: Path) -> ImageRef:
    path = tmp_path / "img.png"
    Image.new("RGB", (8, 6), (200, 10, 10)).save(path)
    return ImageRef(variant_id="v1", path=path, media_type="image/png")


def ask(
    reply: Reply,
    request: Request,
    *,
    spec: str = "anthropic/claude-test",
    monkeypatch: pytest.MonkeyPatch,
    **cfg: Any,
) -> tuple[Response | ModelError, list[dict[str, Any]]]:
    """Start a loopback server answering with ``reply``, ask once, return outcome + requests seen."""
    outs, seen = ask_all(reply, [request], spec=spec, monkeypatch=monkeypatch, **cfg)
    return outs[0], seen


def ask_all(
    reply: Reply,
    requests: list[Request],
    *,
    spec: str = "anthropic/claude-test",
    monkeypatch: pytest.MonkeyPatch,
    **cfg: Any,
) -> tuple[list[Response | ModelError], list[dict[str, Any]]]:
    """:func:`ask` for several requests sent at once (up to the model's ``concurrency``):
    each one's outcome, in order, and the requests the server saw."""
    seen: list[dict[str, Any]] = []
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)

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
        app.router.add_post("/v1/messages", handler)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        model = backend.create(ModelConfig(spec=f"{spec}@http://127.0.0.1:{port}", **cfg))
        try:
            return list(await asyncio.gather(*(one(model, r) for r in requests)))
        finally:
            await model.aclose()
            await runner.cleanup()

    return asyncio.run(scenario()), seen


def test_sends_image_block_model_params_and_key(
    png: ImageRef, monkeypatch: pytest.MonkeyPatch
) -> None:
    out, seen = ask(
        json_reply(message("FAKE. The clock has no hands.")),
        Request(prompt="Is this image real?", images=(png,)),
        monkeypatch=monkeypatch,
        temperature=0.0,
        max_tokens=77,
        seed=5,
        extra_body={"metadata": {"user_id": "bench"}},
    )
    assert isinstance(out, Response)
    assert out.text == "FAKE. The clock has no hands."
    assert out.finish_reason == "stop"
    assert (out.usage.input_tokens, out.usage.output_tokens) == (321, 7)
    assert len(seen) == 1
    sent = seen[0]
    assert sent["path"] == "/v1/messages"
    headers = sent["headers"]
    # the SDK sends the key as x-api-key or (newer releases) as a bearer token
    assert KEY in (
        headers.get("x-api-key"),
        headers.get("authorization", "").removeprefix("Bearer "),
    )
    body = sent["body"]
    assert body["model"] == "claude-test"
    assert body["max_tokens"] == 77
    assert body["temperature"] == 0.0
    assert body["metadata"] == {"user_id": "bench"}
    assert "seed" not in body  # the Messages API has no seed
    [msg] = body["messages"]
    assert msg["role"] == "user"
    image, text = msg["content"]
    assert text == {"type": "text", "text": "Is this image real?"}
    assert image["type"] == "image"
    assert image["source"]["type"] == "base64"
    assert image["source"]["media_type"] == "image/png"
    decoded = Image.open(io.BytesIO(base64.b64decode(image["source"]["data"])))
    assert decoded.size == (8, 6)
    assert KEY not in json.dumps(out.raw)
    assert out.raw["id"] == "msg_1"


def test_runner_encoded_image_and_omitted_temperature(monkeypatch: pytest.MonkeyPatch) -> None:
    jpeg = io.BytesIO()
    Image.new("RGB", (4, 4)).save(jpeg, format="JPEG")
    b64 = base64.b64encode(jpeg.getvalue()).decode()
    out, seen = ask(
        json_reply(message("REAL")),
        Request(prompt="q", images_b64=(b64,), params={"max_tokens": 9}),
        monkeypatch=monkeypatch,
        temperature=None,
        reasoning={"effort": "low", "budget_tokens": 2048},
    )
    assert isinstance(out, Response)
    body = seen[0]["body"]
    assert "temperature" not in body
    assert body["max_tokens"] == 9  # the request's params win over the config's
    assert body["output_config"] == {"effort": "low"}
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    image = body["messages"][0]["content"][0]
    assert image["source"] == {"type": "base64", "media_type": "image/jpeg", "data": b64}


def test_text_only_request_has_no_image_block(monkeypatch: pytest.MonkeyPatch) -> None:
    out, seen = ask(
        json_reply(message("Paris")), Request(prompt="Capital?"), monkeypatch=monkeypatch
    )
    assert isinstance(out, Response)
    assert seen[0]["body"]["messages"][0]["content"] == [{"type": "text", "text": "Capital?"}]


@pytest.mark.parametrize(
    ("stop", "finish"),
    [("max_tokens", "length"), ("refusal", "refusal"), ("stop_sequence", "stop")],
)
def test_truncation_and_refusal_are_answers(
    stop: str, finish: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = message("I can't help with", stop=stop)
    if stop == "refusal":
        body["content"] = []
    out, _ = ask(json_reply(body), Request(prompt="q"), monkeypatch=monkeypatch)
    assert isinstance(out, Response)
    assert out.finish_reason == finish
    assert out.text == ("" if stop == "refusal" else "I can't help with")


def test_thinking_blocks_kept_before_text(monkeypatch: pytest.MonkeyPatch) -> None:
    body = message("REAL")
    body["content"] = [
        {"type": "thinking", "thinking": "Looks fine.", "signature": "sig"},
        {"type": "text", "text": "REAL"},
    ]
    out, _ = ask(json_reply(body), Request(prompt="q"), monkeypatch=monkeypatch)
    assert isinstance(out, Response)
    assert out.text == "<think>\nLooks fine.\n</think>\nREAL"


def test_429_is_retryable_with_retry_after(monkeypatch: pytest.MonkeyPatch) -> None:
    out, seen = ask(
        json_reply(
            error_body("rate_limit_error", "slow down"), status=429, headers={"retry-after": "7"}
        ),
        Request(prompt="q"),
        monkeypatch=monkeypatch,
    )
    assert isinstance(out, ModelError)
    assert (out.retryable, out.retry_after, out.status) == (True, 7.0, 429)
    assert "slow down" in str(out)
    assert len(seen) == 1  # the SDK did not retry on its own


@pytest.mark.parametrize("status", [500, 529])
def test_server_errors_are_retryable(status: int, monkeypatch: pytest.MonkeyPatch) -> None:
    out, seen = ask(
        json_reply(error_body("overloaded_error", "Overloaded"), status=status),
        Request(prompt="q"),
        monkeypatch=monkeypatch,
    )
    assert isinstance(out, ModelError)
    assert out.retryable and out.status == status
    assert len(seen) == 1


@pytest.mark.parametrize("status", [400, 401, 403, 404, 413])
def test_client_errors_are_not_retried(status: int, monkeypatch: pytest.MonkeyPatch) -> None:
    out, seen = ask(
        json_reply(error_body("invalid_request_error", "image exceeds 5 MB\nmaximum"), status),
        Request(prompt="q"),
        monkeypatch=monkeypatch,
    )
    assert isinstance(out, ModelError)
    assert not out.retryable and out.status == status
    assert str(out) == f"HTTP {status}: invalid_request_error: image exceeds 5 MB maximum"
    assert len(seen) == 1


@pytest.mark.parametrize(
    "body",
    ["<html>bad gateway</html>", '{"type": "message", "content": "nope"}', "[1, 2]"],
)
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

    out, _ = ask(drop, Request(prompt="q"), monkeypatch=monkeypatch)
    assert isinstance(out, ModelError) and out.retryable

    async def slow(req: web.Request) -> web.StreamResponse:
        await asyncio.sleep(1)
        return web.json_response(message("late"))

    out, _ = ask(slow, Request(prompt="q"), monkeypatch=monkeypatch, timeout_s=0.3)
    assert isinstance(out, ModelError) and out.retryable
    assert "timeout" in str(out)


def test_missing_key_is_a_clear_non_retryable_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    model = backend.create(ModelConfig(spec="anthropic/claude-x@http://127.0.0.1:9"))
    with pytest.raises(ModelError) as err:
        asyncio.run(model.generate(Request(prompt="q")))
    assert (err.value.retryable, err.value.status) == (False, 401)
    assert str(err.value) == "ANTHROPIC_API_KEY is not set (needed by anthropic/claude-x)"


def test_key_from_api_key_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_CLAUDE_KEY", "other-key-999")
    seen: list[str] = []

    async def scenario() -> None:
        async def handler(req: web.Request) -> web.StreamResponse:
            seen.append(req.headers.get("x-api-key") or req.headers.get("authorization", ""))
            return web.json_response(message("ok"))

        app = web.Application()
        app.router.add_post("/v1/messages", handler)
        runner = web.AppRunner(app)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        url = f"http://127.0.0.1:{runner.addresses[0][1]}"
        spec = f"c=anthropic/claude-x@{url}"
        model = backend.create(ModelConfig(spec=spec, api_key_env="MY_CLAUDE_KEY"))
        assert model.name == "c"
        try:
            await model.generate(Request(prompt="q"))
        finally:
            await model.aclose()
            await runner.cleanup()

    asyncio.run(scenario())
    assert len(seen) == 1 and seen[0].endswith("other-key-999")


def test_bad_reasoning_option_fails_at_create() -> None:
    with pytest.raises(SpecError, match="unknown anthropic reasoning option"):
        backend.create(ModelConfig(spec="anthropic/claude-x", reasoning={"level": "hi"}))


def test_describe_request_names_the_variant_not_the_bytes(png: ImageRef) -> None:
    model = backend.create(ModelConfig(spec="anthropic/claude-x", max_tokens=50))
    described = model.describe_request(  # type: ignore[attr-defined]
        Request(prompt="Real?", images=(png,), params={"temperature": 0.0, "max_tokens": 50})
    )
    image, text = described["messages"][0]["content"]
    assert image["source"]["data"] == "variant:v1"
    assert text["text"] == "Real?"
    assert (described["model"], described["max_tokens"]) == ("claude-x", 50)
    assert described["extra_body"] == {"temperature": 0.0}


def test_missing_sdk_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "anthropic", None)
    with pytest.raises(SpecError) as err:
        backend.create(ModelConfig(spec="anthropic/claude-x"))
    assert str(err.value) == (
        "anthropic/claude-x needs the 'anthropic' extra: pip install 'forgebench[anthropic]'"
    )


def test_several_images_are_image_blocks_in_order_before_the_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    refs = []
    for k, size in enumerate([(8, 6), (12, 4), (5, 5)]):
        Image.new("RGB", size, (40 * k, 10, 10)).save(tmp_path / f"f{k}.png")
        refs.append(ImageRef(f"v{k}", tmp_path / f"f{k}.png", "image/png"))
    out, seen = ask(
        json_reply(message("A")),
        Request(prompt="Which frames?", images=tuple(refs)),
        monkeypatch=monkeypatch,
    )
    assert isinstance(out, Response)
    blocks = seen[0]["body"]["messages"][0]["content"]
    assert [b["type"] for b in blocks] == ["image", "image", "image", "text"]
    sizes = [Image.open(io.BytesIO(base64.b64decode(b["source"]["data"]))).size for b in blocks[:3]]
    assert sizes == [(8, 6), (12, 4), (5, 5)]


LETTERS = ("A", "B")


def test_choice_sends_a_json_schema_in_output_config_and_reads_its_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    request = Request(prompt="Real or fake?", choice=LETTERS)
    thought = message('{"answer": "B"}')
    thought["content"].insert(0, {"type": "thinking", "thinking": "The edges.", "signature": "s"})
    out, seen = ask(
        json_reply(thought), request, monkeypatch=monkeypatch, reasoning={"effort": "low"}
    )
    assert isinstance(out, Response) and read_choice(out.text, LETTERS) == "B"
    config = seen[0]["body"]["output_config"]
    assert config["effort"] == "low"  # beside the format, not replaced by it
    assert config["format"] == {"type": "json_schema", "schema": answer_schema(LETTERS)}
    assert config["format"]["schema"]["properties"]["answer"]["enum"] == ["A", "B"]
    _, plain = ask(json_reply(message("B")), Request(prompt="q"), monkeypatch=monkeypatch)
    assert "output_config" not in plain[0]["body"]


@pytest.mark.parametrize(
    ("reply", "words"),
    [
        (
            json_reply(error_body("invalid_request_error", "output_config: not supported"), 400),
            "rejected the first constrained-answer request, field output_config.format",
        ),
        (json_reply(message("I would say B.")), "ignored the constrained-answer field"),
    ],
    ids=["rejects", "ignores"],
)
def test_choice_a_server_that_rejects_or_ignores_the_schema_gets_one_request(
    reply: Reply, words: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    line = one_request_one_line(ask_all, reply, LETTERS, monkeypatch=monkeypatch)
    assert words in line and 'choice_form = "json_schema"' in line, line
    assert "structured_outputs" not in line and "guided_choice" not in line  # not anthropic's
