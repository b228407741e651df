"""A reply holding a JSON-escaped lone surrogate (``"\\ud800"``: a token that split a character)
is stored, not a crash of the store's writer: the run ends, every task has its answer (the
surrogate as U+FFFD), the raw reply keeps the escape, and a resume sends nothing. The same for
``import-batch`` of such a result."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

from aiohttp import web

from forgebench.util.text import json_text, printable, valid
from support.mandela_data import write_mandela_dataset

from .conftest import Server, cli, run_args

HOSTILE = '"ok \\ud800 done"'
"""The answer as it stands in the server's JSON: a lone high surrogate, escaped."""


def _completion(content_json: str) -> str:
    return (
        '{"id": "c1", "object": "chat.completion", "model": "fake", "choices": [{"index": 0, '
        f'"message": {{"role": "assistant", "content": {content_json}}}, '
        '"finish_reason": "stop"}], "usage": {"prompt_tokens": 3, "completion_tokens": 2}}'
    )


def _server(hostile_server: Callable[..., Server]) -> Server:
    seen: list[int] = []

    async def chat(request: web.Request) -> web.Response:
        await request.read()
        seen.append(1)
        content = HOSTILE if len(seen) == 2 else '"REAL. fine"'
        return web.Response(text=_completion(content), content_type="application/json")

    return hostile_server({"/chat/completions": chat})


def _answers(run_dir: Path) -> tuple[list[str], list[str], int]:
    with sqlite3.connect(run_dir / "run.sqlite") as con:
        rows = con.execute("SELECT text, raw FROM answers").fetchall()
        tasks = int(con.execute("SELECT COUNT(*) FROM tasks").fetchone()[0])
    return [r[0] for r in rows], [r[1] for r in rows], tasks


def test_a_lone_surrogate_answer_is_stored_and_resume_sends_nothing(
    tmp_path: Path, hostile_server: Callable[..., Server]
) -> None:
    server = _server(hostile_server)
    ds = write_mandela_dataset(tmp_path / "ds", seeds=2)
    run_dir = tmp_path / "run"
    args = run_args(ds, run_dir, f"m=openai/fake@{server.url}")
    res = cli(*args)
    assert res.exit_code == 0, res.output
    texts, raws, tasks = _answers(run_dir)
    assert tasks == 4 and len(texts) == 4  # every task answered, the ones after it too
    assert "ok \ufffd done" in texts
    raw = next(r for r in raws if "done" in r)
    assert "\\ud800" in raw  # the raw reply keeps the escape: nothing lost
    assert json.loads(raw)["choices"][0]["message"]["content"] == "ok \ud800 done"
    hits = len(server.hits)
    assert cli(*args).exit_code == 0
    assert len(server.hits) == hits  # resume: nothing sent again, nothing paid again


def test_import_batch_of_a_lone_surrogate_result_is_stored(tmp_path: Path) -> None:
    ds = write_mandela_dataset(tmp_path / "ds", seeds=1)
    run_dir = tmp_path / "run"
    spec = "m=openai/fake@http://127.0.0.1:9"
    args = run_args(ds, run_dir, spec)
    assert cli(*args, "--prepare").exit_code == 0
    batch = tmp_path / "batch.jsonl"
    res = cli("export-batch", str(run_dir), str(batch), "--model", "m")
    assert res.exit_code == 0, res.output
    keys = [json.loads(line)["custom_id"] for line in batch.read_text().splitlines()]
    assert len(keys) == 2
    lines = [
        f'{{"custom_id": "{k}", "response": {{"status_code": 200, "body": '
        f"{_completion(HOSTILE if n == 0 else json.dumps('REAL.'))}}}}}"
        for n, k in enumerate(keys)
    ]
    result = tmp_path / "results.jsonl"
    result.write_text("\n".join(lines) + "\n", encoding="utf-8")
    res = cli("import-batch", str(run_dir), str(result))
    assert res.exit_code == 0, res.output
    texts, raws, _tasks = _answers(run_dir)
    assert sorted(texts) == ["REAL.", "ok \ufffd done"]
    assert any("\\ud800" in r for r in raws)


def test_the_text_rules() -> None:
    assert valid("a\ud800b\udfff") == "a\ufffdb\ufffd"
    assert valid("\ud83d\ude00") == "\U0001f600"  # a pair written as two code points: joined
    assert json.loads(json_text({"x": "\ud800"})) == {"x": "\ud800"}
    assert json_text({"x": "é"}) == '{"x": "é"}'  # non-ASCII stays as it is
    shown = printable("a\x1b]0;title\x07b\x1b[2J\x9bc\r\nd\u202ee")
    assert "\x1b" not in shown and "\x07" not in shown and "\x9b" not in shown
    assert shown == "a\\x1b]0;title\\x07b\\x1b[2J\\x9bc\nd\\u202ee"
