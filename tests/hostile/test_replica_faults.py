"""A replica that accepts connections and never answers, or that redirects elsewhere: it is
rested (a timeout counts as its failure, as a refused connection does), the work goes to the
healthy replica, and ``status`` shows its timeouts and rests."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from support.mandela_data import write_mandela_dataset

from .conftest import FLAGS, Server, cli

RELEASE = threading.Event()
"""Set at the end of a test: the hanging handlers return, so the server can stop."""


async def _hang(request: web.Request) -> web.Response:
    while not RELEASE.is_set():
        await asyncio.sleep(0.05)
    return web.Response(status=500)


def _run(tmp_path: Path, urls: list[str], *extra: str) -> Any:
    models = tmp_path / "models.toml"
    listed = ", ".join(f'"{u}"' for u in urls)
    models.write_text(
        f'[[models]]\nspec = "m=openai/fake"\nbase_urls = [{listed}]\nconcurrency = 1\n'
    )
    ds = write_mandela_dataset(tmp_path / "ds", seeds=4)
    run_dir = tmp_path / "run"
    res = cli(
        "run", str(ds), "--models-file", str(models), "--out", str(run_dir),
        "--cache-dir", str(tmp_path / "c"), *FLAGS, *extra,
    )  # fmt: skip
    return res, run_dir


def _answers(run_dir: Path) -> tuple[int, int]:
    with sqlite3.connect(run_dir / "run.sqlite") as con:
        a = int(con.execute("SELECT COUNT(*) FROM answers").fetchone()[0])
        t = int(con.execute("SELECT COUNT(*) FROM tasks").fetchone()[0])
    return a, t


def test_a_hanging_replica_is_rested_and_status_shows_its_timeouts(
    tmp_path: Path, fake_openai: Any, hostile_server: Callable[..., Server]
) -> None:
    hang = hostile_server({"/chat/completions": _hang})
    good = fake_openai()
    RELEASE.clear()
    try:
        res, run_dir = _run(tmp_path, [hang.url, good.url], "--timeout", "1")
    finally:
        RELEASE.set()
    assert res.exit_code == 0, res.output
    answered, tasks = _answers(run_dir)
    assert answered == tasks and tasks >= 8
    # one timeout rests it; its rest (1 s, then 2 s) outlasts the healthy replica's work, so it
    # is asked again at most once, as a probe (a slow machine)
    n = len(hang.hits)
    assert n in (1, 2), hang.hits
    status = cli("status", str(run_dir))
    assert status.exit_code == 0, status.output
    line = next(x for x in status.stdout.splitlines() if str(hang.port) in x)
    cells = [c.strip() for c in line.split("│") if c.strip()]
    # model, url, sent, answered, errors, timeouts, rests, latency
    assert cells[2:7] == [str(n), "0", str(n), str(n), str(n)], line


async def _redirect_away(request: web.Request) -> web.Response:
    raise web.HTTPFound("http://127.0.0.2:9/chat/completions")


def test_a_redirecting_replica_is_rested_not_fatal_to_the_model(
    tmp_path: Path, fake_openai: Any, hostile_server: Callable[..., Server]
) -> None:
    away = hostile_server({"/chat/completions": _redirect_away})
    good = fake_openai()
    res, run_dir = _run(tmp_path, [away.url, good.url])
    assert res.exit_code == 0, res.output
    answered, tasks = _answers(run_dir)
    assert answered == tasks
    assert 1 <= len(away.hits) <= 2
    with sqlite3.connect(run_dir / "run.sqlite") as con:
        rests = con.execute("SELECT rests FROM replica_stats WHERE url = ?", (away.url,))
        assert rests.fetchone()[0] >= 1
