"""The exact values of configured keys never reach the store or the report, answers included: a
server that repeats the ``Authorization`` value inside a normal answer, a batch result that holds
it (even as ``Bearer KEY``); ``forgebench redact RUN`` cleans a run written before that held."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from support.mandela_data import write_mandela_dataset

from .conftest import FLAGS, Server, cli, run_args

KEY = "gw-7f3a9c2e-ECHO-5511"


def _dump(run_dir: Path) -> str:
    out = []
    with sqlite3.connect(run_dir / "run.sqlite") as con:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for t in tables:
            out += [repr(row) for row in con.execute(f"SELECT * FROM {t}")]
    return "\n".join(out)


def _files(folder: Path) -> str:
    return "\n".join(
        p.read_bytes().decode("utf-8", "replace") for p in folder.rglob("*") if p.is_file()
    )


async def _parrot(request: web.Request) -> web.Response:
    """A normal 200 answer that repeats the Authorization header value."""
    auth = request.headers.get("Authorization", "")
    text = f"REAL. The photo looks untouched. (your credentials: {auth})"
    return web.json_response(
        {"id": "x", "object": "chat.completion", "model": "parrot", "echo": auth,
         "choices": [{"index": 0, "finish_reason": "stop",
                      "message": {"role": "assistant", "content": text}}],
         "usage": {"prompt_tokens": 10, "completion_tokens": 5}}
    )  # fmt: skip


@pytest.mark.parametrize("env", ["OPENAI_API_KEY", "MY_GATEWAY"])
def test_a_key_repeated_inside_a_200_answer_is_neither_stored_nor_published(
    env: str, tmp_path: Path, monkeypatch: Any, hostile_server: Callable[..., Server]
) -> None:
    monkeypatch.setenv(env, KEY)
    server = hostile_server({"/v1/chat/completions": _parrot})
    models = tmp_path / "models.toml"
    models.write_text(
        f'[[models]]\nspec = "m=openai/parrot@{server.url}/v1"\napi_key_env = "{env}"\n'
    )
    run_dir = tmp_path / "run"
    ds = write_mandela_dataset(tmp_path / "ds")
    res = cli(
        "run", str(ds), "--models-file", str(models), "--out", str(run_dir),
        "--cache-dir", str(tmp_path / "c"), *FLAGS,
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    stored = _dump(run_dir)
    assert server.hits and "your credentials: Bearer ***" in stored
    assert KEY not in stored
    rep = cli("report", str(run_dir))
    assert rep.exit_code == 0, rep.output
    assert (run_dir / "report" / "data").is_dir()
    assert KEY not in _files(run_dir)


def _batch_run(tmp_path: Path, fake_openai: Any) -> tuple[Path, list[str]]:
    server = fake_openai()
    run_dir = tmp_path / "run"
    ds = write_mandela_dataset(tmp_path / "ds")
    res = cli(*run_args(ds, run_dir, f"m=openai/fake@{server.url}"), "--prepare")
    assert res.exit_code == 0, res.output
    with sqlite3.connect(run_dir / "run.sqlite") as con:
        keys = [r[0] for r in con.execute("SELECT key FROM tasks ORDER BY key")]
    return run_dir, keys


def test_import_batch_stores_no_key_in_answers_or_errors(
    tmp_path: Path, monkeypatch: Any, fake_openai: Any
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    run_dir, keys = _batch_run(tmp_path, fake_openai)
    assert len(keys) >= 2
    ok = {"custom_id": keys[0], "response": {"status_code": 200, "body": {
        "choices": [{"index": 0, "finish_reason": "stop", "message": {
            "role": "assistant", "content": f"FAKE. sent with Bearer {KEY}"}}],
        "usage": {"prompt_tokens": 3, "completion_tokens": 4}, "key": KEY}}}  # fmt: skip
    bad = {"custom_id": keys[1], "response": {"status_code": 401, "body": {
        "error": {"message": f"Incorrect API key provided: Bearer {KEY}"}}}}  # fmt: skip
    out = tmp_path / "out.jsonl"
    out.write_text(json.dumps(ok) + "\n" + json.dumps(bad) + "\n")
    res = cli("import-batch", str(run_dir), str(out))
    assert res.exit_code == 0, res.output
    assert "stored 1 answers and 1 errors" in res.stdout
    stored = _dump(run_dir)
    assert "sent with Bearer ***" in stored
    assert KEY not in stored


def test_redact_cleans_a_store_and_report_written_before(
    tmp_path: Path, monkeypatch: Any, fake_openai: Any
) -> None:
    run_dir, keys = _batch_run(tmp_path, fake_openai)
    ok = {"custom_id": keys[0], "response": {"status_code": 200, "body": {
        "choices": [{"index": 0, "finish_reason": "stop", "message": {
            "role": "assistant", "content": f"FAKE. the key is {KEY}"}}],
        "usage": {"prompt_tokens": 3, "completion_tokens": 4}}}}  # fmt: skip
    out = tmp_path / "out.jsonl"
    out.write_text(json.dumps(ok) + "\n")
    assert cli("import-batch", str(run_dir), str(out)).exit_code == 0
    assert cli("report", str(run_dir)).exit_code == 0
    # as a run written before answers were redacted holds it: in the answer and the report
    with sqlite3.connect(run_dir / "run.sqlite") as con:
        con.execute(
            "UPDATE answers SET text = ?, raw = ?",
            (f"FAKE. the key is {KEY}", json.dumps({"k": KEY})),
        )
    page = next((run_dir / "report" / "data").glob("page-*.js"))
    page.write_text(page.read_text() + f"\n// {KEY}\n")
    assert KEY in _dump(run_dir) and KEY in _files(run_dir / "report")
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    res = cli("redact", str(run_dir))
    assert res.exit_code == 0, res.output
    assert KEY not in _dump(run_dir) and "the key is ***" in _dump(run_dir)
    assert KEY.encode() not in b"".join(
        p.read_bytes() for p in run_dir.rglob("*") if p.is_file()
    )  # freed pages and the WAL too
    again = cli("redact", str(run_dir))
    assert again.exit_code == 0 and "0 " in again.stdout
