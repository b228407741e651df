"""Outside text never drives the terminal: escape sequences in a server's error body or in a
dataset's question print as visible escapes (``\\x1b``), and model names holding rich markup
print as written (no link, no MarkupError)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from aiohttp import web

from support.mandela_data import write_mandela_dataset

from .conftest import Server, cli, run_args

HOSTILE = "\x1b]0;pwned\x07\x1b[2J\x1b]52;c;ZWNobyBoaQ==\x07\x9b31m"
"""Retitle the window, clear the screen, write the clipboard (OSC 52), a C1 CSI."""


def _clean(text: str) -> None:
    assert "\x1b" not in text and "\x07" not in text and "\x9b" not in text


def test_a_servers_401_text_is_printed_escaped(
    tmp_path: Path, hostile_server: Callable[..., Server]
) -> None:
    async def denied(request: web.Request) -> web.Response:
        await request.read()
        return web.json_response({"error": {"message": f"bad key {HOSTILE}"}}, status=401)

    server = hostile_server({"/chat/completions": denied})
    ds = write_mandela_dataset(tmp_path / "ds", seeds=1)
    res = cli(*run_args(ds, tmp_path / "run", f"m=openai/fake@{server.url}"))
    assert res.exit_code != 0
    _clean(res.output)
    assert "bad key \\x1b]0;pwned\\x1b[2J\\x1b]52;c;" in res.output, (
        res.output
    )  # BEL: rich drops it


def test_a_hostile_question_is_printed_escaped(tmp_path: Path) -> None:
    ds = write_mandela_dataset(tmp_path / "ds", seeds=1, label=f"the event{HOSTILE}")
    res = cli("prompts", "--dataset", str(ds), "--item", "s0-auth")
    assert res.exit_code == 0, res.output
    _clean(res.output)
    assert "the event\\x1b]0;pwned\\x07" in res.output


def test_status_shows_model_names_with_markup_as_written(tmp_path: Path) -> None:
    ds = write_mandela_dataset(tmp_path / "ds", seeds=1)
    run_dir = tmp_path / "run"
    names = ["openai/[link=file:///etc/passwd]x[/link]", "openai/[/]x", "openai/e\x1b[2Jx"]
    for name in names:
        res = cli(*run_args(ds, run_dir, f"{name}@http://127.0.0.1:9"), "--prepare")
        assert res.exit_code == 0, res.output
    res = cli("status", str(run_dir))
    assert res.exit_code == 0, res.output  # no MarkupError
    assert "openai/[link=file:///etc/passwd]x[/link]" in res.output
    assert "openai/[/]x" in res.output
    _clean(res.output)
    assert "openai/e\\x1b[2Jx" in res.output
