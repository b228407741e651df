"""One linear-time redaction step for every text from a server or a
configuration; a 300,000-character label neither freezes ``run`` nor deafens it to signals."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from forgebench.util.redact import redact, redact_text
from support.mandela_data import write_mandela_dataset

from .conftest import FLAGS, Server, cli, error_lines, run_args

KEY = "sk-live-ECHOED-4242-abcdefgh"


def _dump_store(run_dir: Path) -> str:
    """Every text cell of every table of run.sqlite."""
    out = []
    with sqlite3.connect(run_dir / "run.sqlite") as con:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for t in tables:
            out += [repr(row) for row in con.execute(f"SELECT * FROM {t}")]
    return "\n".join(out)


def _echo_server(status: int) -> Callable[[web.Request], Any]:
    """A server whose error body quotes the request headers, key included."""

    async def handler(request: web.Request) -> web.Response:
        headers = "; ".join(f"{k}: {v}" for k, v in request.headers.items())
        message = f"Incorrect API key provided: {KEY}. You sent {headers}"
        return web.json_response({"error": {"message": message}}, status=status)

    return handler


@pytest.mark.parametrize("status", [401, 400, 500])
def test_a_key_echoed_by_the_server_is_neither_printed_nor_stored(
    status: int, tmp_path: Path, monkeypatch: Any, hostile_server: Callable[..., Server]
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    server = hostile_server({"/v1/chat/completions": _echo_server(status)})
    run_dir = tmp_path / "run"
    res = cli(
        *run_args(write_mandela_dataset(tmp_path / "ds"), run_dir, f"openai/x@{server.url}/v1"),
        "--max-attempts",
        "1",
    )
    assert res.exit_code == 1
    assert server.hits  # the key was really sent and echoed
    assert KEY not in res.output
    assert "Authorization: ***" in _dump_store(run_dir)
    stored = _dump_store(run_dir)
    assert KEY not in stored
    with sqlite3.connect(run_dir / "run.sqlite") as con:
        reasons = [r[0] for r in con.execute("SELECT reason FROM errors")]
    assert reasons and all("***" in r for r in reasons)


def test_the_judge_does_not_print_an_echoed_key(
    tmp_path: Path, monkeypatch: Any, fake_openai: Any, hostile_server: Callable[..., Server]
) -> None:
    answers = fake_openai(reply_text="FAKE. A wristwatch was added to the photograph.")
    run_dir = tmp_path / "run"
    ok = cli(
        *run_args(write_mandela_dataset(tmp_path / "ds"), run_dir, f"openai/fake@{answers.url}")
    )
    assert ok.exit_code == 0, ok.output
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    judge = hostile_server({"/v1/chat/completions": _echo_server(401)})
    res = cli("judge", str(run_dir), "--judge", f"j=openai/x@{judge.url}/v1")
    assert judge.hits and res.exit_code != 0
    assert KEY not in res.output
    assert KEY not in _dump_store(run_dir)


def test_config_secrets_are_redacted_in_config_json_the_store_and_dry_run(
    tmp_path: Path, fake_openai: Any
) -> None:
    server = fake_openai()
    models = tmp_path / "models.toml"
    models.write_text(
        f'[[models]]\nspec = "m=openai/fake@{server.url}"\n'
        'extra_body = { api_token = "SECRET-B-1234", '
        'callback = "https://hook.example/cb?sig=SECRET-Q-5678&x=1", '
        'proxy = "https://bob:SECRET-U-9999@proxy.example/" }\n',
        encoding="utf-8",
    )
    run_dir = tmp_path / "run"
    ds = write_mandela_dataset(tmp_path / "ds")
    base = ["run", str(ds), "--models-file", str(models), "--out", str(run_dir)]
    base += ["--cache-dir", str(tmp_path / "c"), *FLAGS]
    dry = cli(*base, "--dry-run")
    assert dry.exit_code == 0, dry.output
    assert "hook.example/cb?sig=***" in dry.output
    res = cli(*base)
    assert res.exit_code == 0, res.output
    assert server.requests[0]["api_token"] == "SECRET-B-1234"  # really sent
    texts = {
        "dry-run": dry.output,
        "config.json": (run_dir / "config.json").read_text(),
        "run.sqlite": _dump_store(run_dir),
    }
    for where, text in texts.items():
        for secret in ("SECRET-B-1234", "SECRET-Q-5678", "SECRET-U-9999"):
            assert secret not in text, (where, secret)
    assert json.loads(texts["config.json"])["models"][0]["extra_body"]["callback"] == (
        "https://hook.example/cb?sig=***&x=1"
    )


def test_redaction_rules() -> None:
    text = (
        "Authorization: Bearer sk-abc123def456; x-api-key: k-998877665544; "
        "see https://u:pw@host/v1?key=QQQ&page=2 and the bearer of bad news"
    )
    out = redact_text(text, ["k-998877665544"])
    for secret in ("sk-abc123def456", "k-998877665544", "u:pw", "QQQ"):
        assert secret not in out
    assert "page=2" in out and "the bearer of bad news" in out
    data = {"max_tokens": 5, "api_key_env": "MY_KEY", "token": "t0k3n-1", "prompt": "a b"}
    assert redact(data) == {
        "max_tokens": 5,
        "api_key_env": "MY_KEY",
        "token": "***",
        "prompt": "a b",
    }


def _answers(run_dir: Path) -> int:
    try:
        with sqlite3.connect(run_dir / "run.sqlite", timeout=5) as con:
            return int(con.execute("SELECT COUNT(*) FROM answers").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_300k_character_name_runs_and_signals_stop_it_promptly(
    sig: signal.Signals, tmp_path: Path, fake_openai: Any
) -> None:
    """Before the fix the settings' URL pattern backtracked quadratically on a long letter run
    (a 300,000-character alias or label): nothing was sent for many minutes and SIGTERM/SIGINT
    went unheard. Here the alias is that long."""
    ds = write_mandela_dataset(tmp_path / "ds", seeds=2, label="x" * 300_000)  # 4 tasks
    server = fake_openai(latency_ms=300)
    models = tmp_path / "models.toml"
    alias = "a" * 300_000
    models.write_text(f'[[models]]\nspec = "{alias}=openai/fake@{server.url}"\nconcurrency = 1\n')
    run_dir = tmp_path / "run"
    cmd = [sys.executable, "-m", "forgebench.cli", "run", str(ds), "--models-file", str(models)]
    cmd += ["--out", str(run_dir), "--cache-dir", str(tmp_path / "c"), *FLAGS]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 90
        while _answers(run_dir) < 1:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no answer stored: the run is stuck"
            time.sleep(0.05)
        proc.send_signal(sig)
        _out, err = proc.communicate(timeout=60)  # a guard, not a duration assertion
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    assert _answers(run_dir) == 4
    assert error_lines(again.stderr) == []
