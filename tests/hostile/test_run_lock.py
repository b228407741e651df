"""One paid stage per run directory at a time; readers keep working."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from forgebench.run.lock import RunLocked, run_lock
from support.mandela_data import write_mandela_dataset

from .conftest import cli, error_lines, run_args

HOLD = """
import sys, time
from forgebench.run.lock import run_lock
with run_lock(sys.argv[1], sys.argv[2]):
    print("held", flush=True)
    time.sleep(float(sys.argv[3]))
"""


def _holder(run_dir: Path, stage: str, seconds: float) -> subprocess.Popen[str]:
    """A process holding the lock (as a paid stage would) for ``seconds``."""
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(run_dir), stage, str(seconds)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "held"
    return proc


def _answers(run_dir: Path) -> int:
    try:
        with sqlite3.connect(run_dir / "run.sqlite", timeout=5) as con:
            return int(con.execute("SELECT COUNT(*) FROM answers").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def test_a_second_run_on_a_busy_run_directory_is_refused_naming_the_pid(
    tmp_path: Path, fake_openai: Any
) -> None:
    ds = write_mandela_dataset(tmp_path / "ds", seeds=3)  # 6 tasks
    server = fake_openai(latency_ms=400)
    run_dir = tmp_path / "run"
    cmd = [sys.executable, "-m", "forgebench.cli"]
    cmd += run_args(ds, run_dir, f"openai/fake@{server.url}", "--concurrency", "1")
    first = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while _answers(run_dir) < 1:
            assert first.poll() is None, first.communicate()
            assert time.monotonic() < deadline
            time.sleep(0.05)
        second = cli(*run_args(ds, run_dir, f"openai/fake@{server.url}"))
        assert second.exit_code == 4, second.output
        lines = error_lines(second.stderr)
        assert len(lines) == 1
        assert f"PID {first.pid} (forgebench run)" in lines[0] and "--wait" in lines[0]
        judge = cli("judge", str(run_dir), "--judge", "builtin/rules")
        assert judge.exit_code == 4 and f"PID {first.pid}" in judge.stderr
        status = cli("status", str(run_dir))  # a reader: works alongside
        assert status.exit_code == 0, status.output
        metrics = cli("metrics", str(run_dir))
        assert metrics.exit_code == 0, metrics.output
    finally:
        _out, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    assert server.hits == 6  # every task sent once


def test_wait_starts_when_the_holder_finishes_and_sends_each_task_once(
    tmp_path: Path, fake_openai: Any
) -> None:
    ds = write_mandela_dataset(tmp_path / "ds", seeds=2)
    server = fake_openai()
    run_dir = tmp_path / "run"
    holder = _holder(run_dir, "run", 1.5)
    res = cli(*run_args(ds, run_dir, f"openai/fake@{server.url}"), "--wait")
    holder.wait(30)
    assert res.exit_code == 0, res.output
    assert f"waiting for PID {holder.pid} (forgebench run)" in res.stderr
    assert server.hits == 4 and _answers(run_dir) == 4
    again = cli(*run_args(ds, run_dir, f"openai/fake@{server.url}"))
    assert again.exit_code == 0 and server.hits == 4


def test_a_killed_holder_leaves_no_lock_behind(tmp_path: Path) -> None:
    holder = _holder(tmp_path / "run", "pixar run", 60)
    busy = rf"PID {holder.pid} \(forgebench pixar run\)"
    with pytest.raises(RunLocked, match=busy), run_lock(tmp_path / "run", "judge"):
        pass
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait(30)
    # free again, and re-entrant within one process
    with run_lock(tmp_path / "run", "judge"), run_lock(tmp_path / "run", "judge"):
        pass


def test_pixar_run_takes_the_same_lock(tmp_path: Path) -> None:
    holder = _holder(tmp_path / "run", "run", 60)
    try:
        pairs = tmp_path / "pairs"
        (pairs / "original").mkdir(parents=True)
        (pairs / "edited").mkdir()
        res = cli(
            "pixar",
            "run",
            str(pairs),
            "--model",
            "builtin/artefact",
            "--out",
            str(tmp_path / "run"),
        )
        assert res.exit_code == 4, res.output
        assert f"PID {holder.pid} (forgebench run)" in res.stderr
    finally:
        holder.kill()
        holder.wait(30)
