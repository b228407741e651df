"""A model server's reply is read under ``max_reply_bytes``: a body over it (a 200 with a
``Content-Length``, an error status, a chunked body without a length) is that task's error naming
the limit, asked once (never retried), and the run goes on to the other tasks."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from aiohttp import web

from support.mandela_data import write_mandela_dataset

from .conftest import FLAGS, Server, cli

LIMIT = 1 << 20
BODY = 8 << 20
"""The hostile reply: 8 MiB, read no further than the 1 MiB limit."""


def _completion(text: str) -> dict[str, object]:
    return {
        "id": "x", "object": "chat.completion", "model": "fake",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                     "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 2},
    }  # fmt: skip


def _server(form: str, start: Callable[[dict[str, object]], Server]) -> tuple[Server, list[int]]:
    """The first request gets an 8 MiB body in ``form``; every other one a short answer."""
    big: list[int] = []

    async def reply(request: web.Request) -> web.StreamResponse:
        await request.read()
        if big:
            return web.json_response(_completion("REAL."))
        big.append(1)
        status = 500 if form == "500" else 200
        headers = {} if form == "chunked" else {"Content-Length": str(BODY)}
        resp = web.StreamResponse(status=status, headers=headers)
        if form == "chunked":
            resp.enable_chunked_encoding()
        await resp.prepare(request)
        chunk = b'{"pad": "' + b"x" * ((1 << 20) - 9)
        try:
            for _ in range(BODY >> 20):
                await resp.write(chunk)
        except (ConnectionError, RuntimeError):
            pass  # the client stopped reading and hung up: as it should
        return resp

    return start({"/v1/chat/completions": reply}), big


@pytest.mark.parametrize("form", ["length", "500", "chunked"])
def test_a_reply_over_the_limit_is_one_request_one_error_and_the_run_goes_on(
    form: str, tmp_path: Path, hostile_server: Callable[..., Server]
) -> None:
    server, big = _server(form, hostile_server)
    ds = write_mandela_dataset(tmp_path / "ds", seeds=2)  # 4 tasks
    models = tmp_path / "models.toml"
    spec = f"m=openai/fake@{server.url}/v1"
    if form == "length":  # the models-file setting; the two others the flag
        models.write_text(f'[[models]]\nspec = "{spec}"\nmax_reply_bytes = {LIMIT}\n')
        given = ["--models-file", str(models)]
    else:
        given = ["--model", spec, "--max-reply-bytes", str(LIMIT)]
    run_dir = tmp_path / "run"
    res = cli(
        "run", str(ds), *given, "--out", str(run_dir), "--cache-dir", str(tmp_path / "c"),
        "--concurrency", "1", "--max-attempts", "4", *FLAGS,
    )  # fmt: skip
    assert res.exit_code == 1, res.output  # a task ended as an error
    assert "Traceback" not in res.output
    assert len(big) == 1 and len(server.hits) == 4  # the big one asked once, the others all sent
    with sqlite3.connect(run_dir / "run.sqlite") as con:
        errors = con.execute("SELECT reason, attempts FROM errors").fetchall()
        answers = con.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
    assert answers == 3 and len(errors) == 1
    reason, attempts = errors[0]
    assert attempts == 1 and f"over the {LIMIT}-byte limit (max_reply_bytes" in reason, reason


def test_a_reply_under_the_default_limit_is_read_whole(
    tmp_path: Path, hostile_server: Callable[..., Server]
) -> None:
    """The default (64 MiB) does not cut an ordinary 2 MiB reply (a long answer is an answer)."""
    server, big = _server("length", hostile_server)
    big.append(1)  # every request gets the short answer; then one big valid answer below
    text = "A" * (2 << 20)

    async def long(request: web.Request) -> web.StreamResponse:
        await request.read()
        return web.json_response(_completion(text))

    server.routes["/v1/chat/completions"] = long  # type: ignore[assignment]
    ds = write_mandela_dataset(tmp_path / "ds")
    run_dir = tmp_path / "run"
    res = cli(
        "run", str(ds), "--model", f"m=openai/fake@{server.url}/v1", "--out", str(run_dir),
        "--cache-dir", str(tmp_path / "c"), *FLAGS,
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    with sqlite3.connect(run_dir / "run.sqlite") as con:
        lengths = [n for (n,) in con.execute("SELECT length(text) FROM answers")]
    assert lengths == [len(text)] * 2


@pytest.mark.parametrize("provider", ["anthropic", "google"])
@pytest.mark.parametrize("form", ["length", "500", "chunked"])
def test_the_sdk_backends_read_under_the_limit_too(
    provider: str,
    form: str,
    hostile_server: Callable[..., Server],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The SDKs' HTTP client reads through the limited transport: one request, the same error."""
    pytest.importorskip({"anthropic": "anthropic", "google": "google.genai"}[provider])
    from forgebench.models.base import ModelError, Request
    from forgebench.models.registry import create_model
    from forgebench.models.spec import ModelConfig

    server, big = _server(form, hostile_server)
    reply = server.routes.pop("/v1/chat/completions")
    path = {"anthropic": "/v1/messages", "google": "/v1/models/x:generateContent"}[provider]
    server.routes[path] = reply
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-12345678")
    monkeypatch.setenv("GOOGLE_API_KEY", "AIza-test-12345678")
    config = ModelConfig(spec=f"{provider}/x@{server.url}", max_reply_bytes=LIMIT, timeout_s=30)

    async def ask() -> ModelError:
        model = create_model(config)
        try:
            await model.generate(Request(prompt="q"))
        except ModelError as exc:
            return exc
        finally:
            await model.aclose()
        raise AssertionError("an 8 MiB reply was accepted")

    err = asyncio.run(ask())
    assert not err.retryable and err.task_only, (err, server.hits)
    assert f"over the {LIMIT}-byte limit" in str(err)
    assert len(big) == 1 and len(server.hits) == 1


@pytest.mark.parametrize("form", ["length", "chunked"])
def test_the_openai_images_editor_reads_under_the_limit(
    form: str,
    hostile_server: Callable[..., Server],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An editor behind the OpenAI SDK: a 200 over the limit is a paid reply, asked once."""
    pytest.importorskip("openai")
    import numpy as np

    from forgebench.construct.edit_api import EditRequest, PaidReply, make_editor

    server, big = _server(form, hostile_server)
    server.routes["/v1/images/edits"] = server.routes.pop("/v1/chat/completions")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-12345678")
    editor = make_editor(f"openai/gpt-image-1@{server.url}/v1", max_reply_bytes=LIMIT)
    request = EditRequest(
        image=np.zeros((8, 8, 3), np.uint8), mask=None, instruction="edit", operation="insert"
    )
    with pytest.raises(PaidReply, match=f"over the {LIMIT}-byte limit"):
        asyncio.run(editor.edit(request))
    assert len(big) == 1 and len(server.hits) == 1
