"""Storing answers happens off the event loop (``run/send/writer.py``).

Multi-megabyte single-token answers are stored on the writer thread while the loop keeps
sending and hearing signals; SIGINT or SIGTERM sent while they are being stored ends ``run``
with the one-line message, and the next run completes every task exactly once. While another
process holds the store's write lock (a stage alongside), requests keep going and Ctrl-C is
heard at once; ``run`` then stores what it has and stops."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from support.mandela_data import write_mandela_dataset as write_dataset

from .conftest import FLAGS, error_lines

SEEDS = 12  # 24 tasks under --probes L0 --conditions full
HUGE = 3_000_000  # characters of one unbroken token per answer


def _stored(run_dir: Path) -> dict[str, str]:
    """Task key -> the digest that ends the stored answer (which request it answers)."""
    try:
        with sqlite3.connect(run_dir / "run.sqlite", timeout=5) as con:
            rows = con.execute("SELECT task_key, substr(text, -12) FROM answers").fetchall()
    except sqlite3.OperationalError:  # not created yet, or busy
        return {}
    return dict(rows)


def _counts(run_dir: Path) -> tuple[int, int, int]:
    with sqlite3.connect(run_dir / "run.sqlite") as con:
        tasks = con.execute("SELECT COUNT(*) FROM tasks").fetchone()[0]
        answers = con.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
        lengths = con.execute("SELECT COUNT(*) FROM answers WHERE length(text) > ?", (HUGE,))
        return int(tasks), int(answers), int(lengths.fetchone()[0])


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_while_huge_answers_are_stored_stops_run_and_resume_completes_once(
    sig: signal.Signals, tmp_path: Path, fake_openai: Any
) -> None:
    ds = write_dataset(tmp_path / "ds", seeds=SEEDS, label="y" * 100_000)
    server = fake_openai(latency_ms=150, reply_text="x" * HUGE)
    run_dir = tmp_path / "run"
    cmd = [sys.executable, "-m", "forgebench.cli", "run", str(ds), "--out", str(run_dir),
           "--model", f"m=openai/fake@{server.url}", "--concurrency", "4",
           "--cache-dir", str(tmp_path / "cache"), *FLAGS]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120  # a hang detector, not a duration assertion
        while len(_stored(run_dir)) < 2:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no answer stored: the run is stuck"
            time.sleep(0.02)
        proc.send_signal(sig)  # answers are arriving and being stored
        _out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and error_lines(err) == [], err
    before = _stored(run_dir)
    remaining = 2 * SEEDS - len(before)
    assert remaining > 0, "the run finished before the signal: nothing was tested"
    assert f"interrupted: {remaining} tasks remain" in err, err
    hits_before = server.hits

    again = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    resent = set(server.digests[hits_before:])
    assert not resent & set(before.values())  # nothing stored was asked again
    after = _stored(run_dir)
    assert all(after[k] == v for k, v in before.items())  # and nothing stored was replaced
    tasks, answers, whole = _counts(run_dir)
    assert tasks == answers == whole == 2 * SEEDS  # every task answered once, in full


def _wait(what: str, done: Any, proc: subprocess.Popen[str], seconds: float = 20) -> None:
    """Poll ``done()``; fail naming ``what`` when the process ended or ``seconds`` passed (a hang
    detector, not a duration assertion)."""
    deadline = time.monotonic() + seconds
    while not done():
        assert proc.poll() is None, f"run ended while waiting for {what}"
        assert time.monotonic() < deadline, f"{what}: run is stuck"
        time.sleep(0.02)


@pytest.mark.parametrize("presses", [1, 2])
def test_a_busy_store_neither_stalls_requests_nor_deafens_run(
    presses: int, tmp_path: Path, fake_openai: Any
) -> None:
    """One Ctrl-C: run waits for the store, stores what it has and stops; a second one while
    the store is still busy: run leaves without waiting (unwritten answers stay pending)."""
    seeds = 40  # 80 tasks: more than the writer's queue holds
    ds = write_dataset(tmp_path / "ds", seeds=seeds)
    server = fake_openai(latency_ms=30, reply_text="REAL. " + "z" * 50_000)
    run_dir = tmp_path / "run"
    cmd = [sys.executable, "-m", "forgebench.cli", "run", str(ds), "--out", str(run_dir),
           "--model", f"m=openai/fake@{server.url}", "--concurrency", "4",
           "--cache-dir", str(tmp_path / "cache"), *FLAGS]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    err: list[str] = []
    stream = proc.stderr
    assert stream is not None
    reader = threading.Thread(target=lambda: err.extend(stream), daemon=True)
    reader.start()
    holder = None
    try:
        _wait("the first answers", lambda: len(_stored(run_dir)) >= 2, proc, 120)
        # another process takes the store's write lock (as a stage running alongside may)
        holder = sqlite3.connect(run_dir / "run.sqlite", timeout=5, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        hits = server.hits
        # the loop is not stuck in a write: it keeps asking (more than the requests in flight)
        _wait("requests while the store is busy", lambda: server.hits >= hits + 8, proc)
        proc.send_signal(signal.SIGINT)
        _wait("the reply to Ctrl-C", lambda: any("stopping:" in line for line in err), proc)
        if presses == 2:
            proc.send_signal(signal.SIGINT)
            deadline = time.monotonic() + 20  # a hang detector, not a duration assertion
            while proc.poll() is None:
                assert time.monotonic() < deadline, "a second Ctrl-C waited for the busy store"
                time.sleep(0.02)
        holder.execute("ROLLBACK")  # the store is free again: run stores what it has, stops
        holder.close()
        holder = None
        proc.wait(timeout=60)
    finally:
        if holder is not None:
            holder.close()
        if proc.poll() is None:
            proc.kill()
    reader.join(10)
    text = "".join(err)
    assert proc.returncode == 130, text
    assert "Traceback" not in text and error_lines(text) == [], text
    before = _stored(run_dir)
    if presses == 1:
        assert len(before) > 2  # what arrived while the store was busy was stored afterwards
    assert f"interrupted: {2 * seeds - len(before)} tasks remain" in text, text
    hits_before = server.hits
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert not set(server.digests[hits_before:]) & set(before.values())
    tasks, answers, _ = _counts(run_dir)
    assert tasks == answers == 2 * seeds
