"""``forgebench run`` with replicas: URLs are not part of the model, stats are stored and shown."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from forgebench.cli import app

FLAGS = ["--probes", "L0,L1", "--conditions", "full", "--retry-base-delay", "0.01"]


def _run(dataset: Path, run_dir: Path, spec: str) -> Any:
    args = ["run", str(dataset), "--model", spec, "--out", str(run_dir)]
    args += ["--cache-dir", str(run_dir.parent / "cache"), *FLAGS]
    return CliRunner().invoke(app, args)


def _keys(run_dir: Path) -> set[str]:
    with sqlite3.connect(run_dir / "run.sqlite") as con:
        return {r[0] for r in con.execute("SELECT key FROM tasks")}


def test_replicas_share_the_work_and_moving_them_reasks_nothing(
    fake_openai: Any, make_dataset: Callable[[int], Path], tmp_path: Path
) -> None:
    ds, run_dir = make_dataset(10), tmp_path / "RUN"
    solo = fake_openai(latency_ms=2)
    first = _run(ds, run_dir, f"q=openai/fake@{solo.url}")
    assert first.exit_code == 0, first.stderr
    keys = _keys(run_dir)
    with sqlite3.connect(run_dir / "run.sqlite") as con:
        con.execute("DELETE FROM answers WHERE rowid % 2 = 0")  # half to ask again
        left = 40 - int(con.execute("SELECT COUNT(*) FROM answers").fetchone()[0])
    r1, r2 = fake_openai(latency_ms=20), fake_openai(latency_ms=20)
    again = _run(ds, run_dir, f"q=openai/fake@{r1.url},{r2.url}")
    assert again.exit_code == 0, again.stderr  # same name, other URLs: not refused
    assert _keys(run_dir) == keys  # same tasks
    assert r1.hits + r2.hits == left and r1.hits > 0 and r2.hits > 0
    assert (
        f"q @ {r1.url}: {r1.hits} answered, 0 errors, 0 timeouts, 0 rests, mean latency"
        in again.stderr
    )
    status = CliRunner().invoke(app, ["status", str(run_dir)])
    assert status.exit_code == 0
    assert "replicas" in status.stdout and str(r1.port) in status.stdout
    with sqlite3.connect(run_dir / "run.sqlite") as con:
        rows = dict(con.execute("SELECT url, answered FROM replica_stats WHERE model='q'"))
    assert rows == {r1.url: r1.hits, r2.url: r2.hits}
    third = _run(ds, run_dir, f"q=openai/fake@{r2.url}")
    assert third.exit_code == 0 and r1.hits + r2.hits == left  # nothing re-sent
