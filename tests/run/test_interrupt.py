"""``forgebench run`` as a real process: killed with SIGKILL or SIGINT mid-run, then resumed."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

SEEDS = 30  # 120 tasks


def _cmd(dataset: Path, run_dir: Path, url: str, cache: Path) -> list[str]:
    return [
        sys.executable, "-m", "forgebench.cli", "run", str(dataset),
        "--model", f"m=openai/fake@{url}", "--out", str(run_dir), "--cache-dir", str(cache),
        "--probes", "L0,L1", "--conditions", "full", "--concurrency", "4",
        "--retry-base-delay", "0.01",
    ]  # fmt: skip


def _answers(run_dir: Path) -> dict[str, str]:
    db = run_dir / "run.sqlite"
    if not db.exists():
        return {}
    try:
        with sqlite3.connect(db, timeout=5) as con:
            return dict(con.execute("SELECT task_key, text FROM answers"))
    except sqlite3.OperationalError:  # schema not created yet
        return {}


def _start_and_wait(cmd: list[str], run_dir: Path, at_least: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while len(_answers(run_dir)) < at_least:
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            _out, err = proc.communicate()
            pytest.fail(f"run ended early (rc {proc.returncode}): {err.decode()[-2000:]}")
        time.sleep(0.02)
    return proc


def test_sigkill_then_same_command_equals_an_uninterrupted_run(
    fake_openai: Any, make_dataset: Callable[[int], Path], tmp_path: Path
) -> None:
    server = fake_openai(latency_ms=20, fault_rate=0.1, seed=11, faults=("429", "500", "drop"))
    ds, cache = make_dataset(SEEDS), tmp_path / "cache"
    killed, clean = tmp_path / "KILLED", tmp_path / "CLEAN"

    proc = _start_and_wait(_cmd(ds, killed, server.url, cache), killed, at_least=15)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    before = _answers(killed)
    assert 15 <= len(before) < 4 * SEEDS
    hits_before = server.hits

    done = subprocess.run(_cmd(ds, killed, server.url, cache), capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    resumed = set(server.digests[hits_before:])
    assert not resumed & {text.rsplit("#", 1)[1] for text in before.values()}  # none re-sent

    ref = subprocess.run(_cmd(ds, clean, server.url, cache), capture_output=True, timeout=60)
    assert ref.returncode == 0, ref.stderr.decode()
    after = _answers(killed)
    assert after == _answers(clean) and len(after) == 4 * SEEDS
    assert all(after[k] == v for k, v in before.items())
    with sqlite3.connect(killed / "run.sqlite") as con:
        (n_tasks,) = con.execute("SELECT COUNT(*) FROM tasks").fetchone()
        (n_ans,) = con.execute("SELECT COUNT(*) FROM answers").fetchone()
        assert n_tasks == n_ans == 4 * SEEDS


def test_ctrl_c_stops_cleanly_with_130_and_says_what_remains(
    fake_openai: Any, make_dataset: Callable[[int], Path], tmp_path: Path
) -> None:
    server = fake_openai(latency_ms=30)
    ds, run_dir = make_dataset(SEEDS), tmp_path / "RUN"
    cmd = _cmd(ds, run_dir, server.url, tmp_path / "cache")
    proc = _start_and_wait(cmd, run_dir, at_least=10)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 130
    stderr = err.decode()
    remaining = 4 * SEEDS - len(_answers(run_dir))
    assert remaining > 0
    assert f"interrupted: {remaining} tasks remain" in stderr, stderr
    assert "Traceback" not in stderr
    again = subprocess.run(cmd, capture_output=True, timeout=60)
    assert again.returncode == 0 and len(_answers(run_dir)) == 4 * SEEDS
