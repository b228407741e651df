"""Storing answers off the event loop: the same ``forgebench run`` with two
source trees, before and after, in one invocation. Measured, not asserted.

For each tree (``--before SRC``, e.g. a checkout of the commit before ``run/writer.py``, and this
checkout's ``src``), against ``tests/support/fake_openai.py`` (on a thread of this process,
``--latency-ms``, every answer one unbroken token of ``--answer-kb`` KB):

1. throughput: ``forgebench run`` of ``--seeds`` x 2 tasks (``--probes L0 --conditions full``,
   concurrency ``--concurrency``); answers/s = tasks / (process exit - the server's first
   request), so start-up and task expansion are not counted but storing the last answers is;
2. a busy store: once 10 answers are stored, this script holds the store's write lock (as
   another stage alongside may) for ``--hold-s`` seconds and sends SIGINT 0.5 s into the hold:
   requests the server got during the hold, seconds from SIGINT to the "stopping:" line, and
   seconds from releasing the lock to the process exit.

    .venv/bin/python benchmarks/store_writer.py --before /path/to/old/src [--seeds 150]

Measured on the shared 2-core dev machine (load ~4.6; before: main, writes on the event loop):

    200 tasks, 1 MB answers, 20 ms, concurrency 8     answers/s   sent while busy   SIGINT heard
      before                                          29.1, 29.7         0           2.6 s
      after                                           36.0, 36.3     17-20           0.01 s
    1000 tasks, 16 KB answers, 5 ms, concurrency 16
      before (4 runs)                                  300-497         0-8           2.5-2.6 s
      after (4 runs)                                   339-506       40-43           0.01 s

Small answers: no difference beyond this machine's noise. Before, SIGINT is heard only when the
lock is released (2.5 s after it was sent); after, the run also stores the answers that arrived
meanwhile, so it exits up to a second later after the unlock.
"""

from __future__ import annotations

import argparse
import importlib.util
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / "tests" / "support" / "fake_openai.py"


def _write_dataset(root: Path, seeds: int) -> Path:
    module: Any = _load("mandela_data", ROOT / "tests" / "support" / "mandela_data.py")
    path: Path = module.write_mandela_dataset(root, seeds)
    return path


def _load(name: str, path: Path) -> object:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _server(latency_ms: float, answer_kb: int) -> Any:
    """The loopback server on a thread of this process (an answer this long cannot be a
    command-line argument); this process only waits meanwhile."""
    module: Any = _load("fake_openai", SERVER)
    return module.FakeOpenAI(
        latency_ms=latency_ms, reply_text="x" * (answer_kb * 1024), record=False
    ).start()


def _reset(server: Any) -> None:
    with server._lock:
        server.hits = 0
        server.first_hit_at = server.last_reply_at = None


def _answers(run_dir: Path) -> int:
    try:
        with sqlite3.connect(run_dir / "run.sqlite", timeout=5) as con:
            return int(con.execute("SELECT COUNT(*) FROM answers").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def _cmd(src: Path, ds: Path, run_dir: Path, url: str, concurrency: int) -> list[str]:
    return [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(src)!r}); "
            "from forgebench.cli import main; sys.exit(main())",
            "run", str(ds), "--out", str(run_dir), "--model", f"m=openai/fake@{url}",
            "--concurrency", str(concurrency), "--cache-dir", str(run_dir.parent / "cache"),
            "--probes", "L0", "--conditions", "full"]  # fmt: skip


def throughput(src: Path, ds: Path, tmp: Path, server: Any, args: argparse.Namespace) -> float:
    _reset(server)
    url = server.url
    run_dir = tmp / "through"
    done = subprocess.run(_cmd(src, ds, run_dir, url, args.concurrency), capture_output=True)
    end = time.time()
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    n = _answers(run_dir)
    assert n == 2 * args.seeds, n
    return float(n / (end - server.first_hit_at))


def busy(
    src: Path, ds: Path, tmp: Path, server: Any, args: argparse.Namespace
) -> tuple[int, float, float]:
    _reset(server)
    url = server.url
    run_dir = tmp / "busy"
    proc = subprocess.Popen(
        _cmd(src, ds, run_dir, url, args.concurrency), stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    heard: list[float] = []

    def read() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            if "stopping:" in line and not heard:
                heard.append(time.monotonic())

    threading.Thread(target=read, daemon=True).start()
    while _answers(run_dir) < 10:
        assert proc.poll() is None
        time.sleep(0.01)
    holder = sqlite3.connect(run_dir / "run.sqlite", timeout=5, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    hits = server.hits
    time.sleep(0.5)
    sent_at = time.monotonic()
    proc.send_signal(signal.SIGINT)
    time.sleep(max(0.0, args.hold_s - 0.5))
    during = server.hits - hits
    holder.execute("ROLLBACK")
    released = time.monotonic()
    holder.close()
    proc.wait(120)
    exit_after = time.monotonic() - released
    to_reply = (heard[0] - sent_at) if heard else float("nan")
    return during, to_reply, exit_after


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--before", type=Path, required=True, help="The old tree's src folder.")
    parser.add_argument("--seeds", type=int, default=150)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--latency-ms", type=float, default=20.0)
    parser.add_argument("--answer-kb", type=int, default=1024)
    parser.add_argument("--hold-s", type=float, default=3.0)
    args = parser.parse_args()
    trees = {"before": args.before.resolve(), "after": ROOT / "src"}
    server = _server(args.latency_ms, args.answer_kb)
    print(
        f"{2 * args.seeds} tasks, answers of {args.answer_kb} KB (one token), server latency "
        f"{args.latency_ms:g} ms, concurrency {args.concurrency}; lock held {args.hold_s:g} s"
    )
    print(f"{'tree':<8} {'answers/s':>10} {'sent while busy':>16} {'SIGINT heard (s)':>17} "
          f"{'exit after unlock (s)':>22}")  # fmt: skip
    try:
        with tempfile.TemporaryDirectory() as tmp_name:
            tmp = Path(tmp_name)
            ds = _write_dataset(tmp / "ds", args.seeds)
            for name, src in trees.items():
                work = tmp / name
                work.mkdir()
                rate = throughput(src, ds, work, server, args)
                during, heard, exit_after = busy(src, ds, work, server, args)
                print(f"{name:<8} {rate:>10.1f} {during:>16d} {heard:>17.2f} {exit_after:>22.2f}")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
