"""The OpenAI-compatible backend against a real loopback server."""

from __future__ import annotations

import asyncio
import base64
import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from forgebench.models.base import ImageRef, ModelError, Request
from forgebench.models.openai_body import build_body, parse_completion
from forgebench.models.openai_compat import OpenAICompatModel, create
from forgebench.models.spec import ModelConfig


@pytest.fixture
def image(tmp_path: Path) -> ImageRef:
    path = tmp_path / "img.png"
    Image.new("RGB", (16, 12), (200, 30, 30)).save(path)
    return ImageRef(variant_id="v" * 16, path=path, media_type="image/png")


def _model(url: str, **kw: Any) -> OpenAICompatModel:
    return create(ModelConfig(spec=f"m=openai/fake-model@{url}", timeout_s=2.0, **kw))


def _ask(model: OpenAICompatModel, request: Request) -> Any:
    async def go() -> Any:
        try:
            return await model.generate(request)
        finally:
            await model.aclose()

    return asyncio.run(go())


def test_body_carries_image_as_data_url_and_params(image: ImageRef) -> None:
    cfg = ModelConfig(spec="openai/x", seed=7, reasoning={"effort": "low"}, extra_body={"top_k": 1})
    req = Request(prompt="Is this real?", images=(image,), params=cfg.generation_params())
    body = build_body("x", req)
    parts = body["messages"][0]["content"]
    url = parts[0]["image_url"]["url"]
    assert url.startswith("data:image/png;base64,")
    assert base64.b64decode(url.split(",", 1)[1]) == image.path.read_bytes()
    assert parts[1] == {"type": "text", "text": "Is this real?"}
    assert body["temperature"] == 0.0 and body["max_tokens"] == 1024 and body["seed"] == 7
    assert body["reasoning_effort"] == "low" and body["top_k"] == 1
    assert "extra_body" not in body and "reasoning" not in body


def test_described_request_names_variant_not_bytes(image: ImageRef) -> None:
    model = _model("http://127.0.0.1:9/v1")
    req = Request(prompt="p", images=(image,), params={"temperature": 0}, images_b64=("QUJD",))
    desc = model.describe_request(req)
    assert desc["messages"][0]["content"][0]["image_url"]["url"] == f"variant:{image.variant_id}"
    assert "QUJD" not in str(desc)


def test_temperature_none_is_omitted_and_max_completion_tokens_wins() -> None:
    cfg = ModelConfig(spec="openai/x", temperature=None, extra_body={"max_completion_tokens": 9})
    body = build_body("x", Request(prompt="p", params=cfg.generation_params()))
    assert "temperature" not in body and "max_tokens" not in body
    assert body["max_completion_tokens"] == 9


def test_answer_usage_and_key_header(fake_openai: Any, image: ImageRef, monkeypatch: Any) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-123")
    server = fake_openai()
    resp = _ask(_model(server.url), Request(prompt="hello", images=(image,), images_b64=("QUJD",)))
    assert resp.text.startswith("REAL.") and resp.finish_reason == "stop"
    assert resp.usage.input_tokens == 100 and resp.usage.output_tokens == 12
    assert server.auth_headers == ["Bearer sk-test-123"]
    sent = server.requests[0]["messages"][0]["content"][0]["image_url"]["url"]
    assert sent == "<data:image/png;base64 4 chars>"
    assert "QUJD" not in str(resp.raw)


@pytest.mark.parametrize("outcome", ["refusal", "length"])
def test_refusal_and_truncation_are_answers(fake_openai: Any, outcome: str) -> None:
    server = fake_openai()
    server.script.append(outcome)
    resp = _ask(_model(server.url), Request(prompt="hi"))
    assert resp.finish_reason == outcome
    if outcome == "refusal":
        assert resp.text == "I can't help with that."


@pytest.mark.parametrize(
    ("outcome", "retryable", "status", "needle"),
    [
        ("400", False, 400, "Invalid 'temperature'"),
        ("401", False, 401, "Incorrect API key"),
        ("429", True, 429, "Rate limit"),
        ("500", True, 500, "internal server error"),
        ("drop", True, None, "connection"),
        ("nonjson", True, None, "not JSON"),
        ("badschema", True, None, "no choices"),
    ],
)
def test_failures_map_to_model_errors(
    fake_openai: Any, outcome: str, retryable: bool, status: int | None, needle: str
) -> None:
    server = fake_openai(retry_after="3")
    server.script.append(outcome)
    with pytest.raises(ModelError) as info:
        _ask(_model(server.url), Request(prompt="hi"))
    err = info.value
    assert err.retryable is retryable and err.status == status
    assert needle.lower() in str(err).lower()
    assert "\n" not in str(err)
    if outcome == "429":
        assert err.retry_after == 3.0


def test_slow_reply_times_out_as_retryable(fake_openai: Any) -> None:
    server = fake_openai(slow_s=1.0)
    server.script.append("slow")
    model = create(ModelConfig(spec=f"openai/x@{server.url}", timeout_s=0.2))
    with pytest.raises(ModelError) as info:
        _ask(model, Request(prompt="hi"))
    assert info.value.retryable  # gave up on the slow reply instead of waiting for it


def test_unreachable_server_is_one_clear_retryable_error() -> None:
    with pytest.raises(ModelError) as info:
        _ask(_model("http://127.0.0.1:1/v1"), Request(prompt="hi"))
    assert info.value.retryable
    assert "cannot connect to http://127.0.0.1:1/v1" in str(info.value)


def test_missing_key_for_openai_itself_is_not_retryable(monkeypatch: Any) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ModelError) as info:
        _ask(create(ModelConfig(spec="openai/gpt-x")), Request(prompt="hi"))
    assert not info.value.retryable and "OPENAI_API_KEY is not set" in str(info.value)


def test_parse_completion_list_content_and_errors() -> None:
    data = {
        "choices": [
            {"message": {"content": [{"type": "text", "text": "FAKE"}]}, "finish_reason": "stop"}
        ]
    }
    assert parse_completion(data).text == "FAKE"
    with pytest.raises(ModelError, match="server error"):
        parse_completion({"error": {"message": "overloaded"}})
    with pytest.raises(ModelError):
        parse_completion([1, 2])


def test_spliced_payload_is_exactly_the_json_body(image: ImageRef) -> None:
    from forgebench.models.openai_body import encode_body

    req = Request(prompt='say "hi" — naïve\n', images=(image,), params={"temperature": 0})
    assert json.loads(encode_body("m", req)) == build_body("m", req)
    text_only = Request(prompt="p")
    assert json.loads(encode_body("m", text_only)) == build_body("m", text_only)
