"""The full-size bounds of issue 37 (group 2). Measured, not asserted.

Every case runs ``forgebench run`` as its own process (peak RSS from ``wait4``'s ``ru_maxrss``)
on a small Mandela dataset (``--probes L0 --conditions full``: 2 tasks per seed), against a
loopback server in another process (its memory is not counted):

- ``reply``: a hostile server answering every request with a 1 GiB body, in the three forms
  (``200`` with ``Content-Length``, ``500`` with ``Content-Length``, ``200`` chunked without a
  length), at the default limit (64 MiB): peak RSS of the run, requests the server saw per task
  (1: never retried), wall time, the stored error;
- ``huge``: ``concurrency = 1e12`` in a models file, the run under ``RLIMIT_AS`` (``--as-gb``,
  2 GiB by default), on a few tasks (``tests/support/fake_openai.py``): exit, answers, wall, RSS;
- ``wide``: ``--concurrency 100000`` on 3 tasks (the first 3 of 4: ``--sample``-free, the
  server fails nothing): exit, answers, wall; then the same with a server that answers after
  60 s, SIGTERM sent 2 s in: seconds from SIGTERM to exit.

    .venv/bin/python benchmarks/hostile_bounds.py [--cases reply,huge,wide] [--reply-mb 1024]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / "tests" / "support" / "fake_openai.py"
FLAGS = ["--probes", "L0", "--conditions", "full", "--retry-base-delay", "0.01"]
ENV = dict(os.environ, OPENAI_API_KEY="sk-bench-12345678", PYTHONUNBUFFERED="1",
           HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")  # fmt: skip


def serve_big(form: str, size_mb: int) -> None:
    """A server whose every reply is ``size_mb`` MiB in ``form``; ``GET /stats``: requests seen
    (run through ``--serve``; prints its port)."""
    import asyncio

    from aiohttp import web

    hits = 0

    async def big(request: web.Request) -> web.StreamResponse:
        nonlocal hits
        if request.path == "/stats":
            return web.json_response({"hits": hits})
        hits += 1
        await request.read()
        size = size_mb << 20
        headers = {} if form == "chunked" else {"Content-Length": str(size)}
        resp = web.StreamResponse(status=500 if form == "500" else 200, headers=headers)
        if form == "chunked":
            resp.enable_chunked_encoding()
        await resp.prepare(request)
        chunk = b"x" * (1 << 20)
        try:
            for _ in range(size_mb):
                await resp.write(chunk)
        except (ConnectionError, RuntimeError):
            pass
        return resp

    async def main() -> None:
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", big)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        print(site._server.sockets[0].getsockname()[1], flush=True)  # type: ignore[union-attr]
        await asyncio.Event().wait()

    asyncio.run(main())


def _start(cmd: list[str]) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    port = int(proc.stdout.readline().strip())
    return proc, f"http://127.0.0.1:{port}"


def _dataset(root: Path, seeds: int) -> Path:
    sys.path.insert(0, str(ROOT / "tests"))
    from support.mandela_data import write_mandela_dataset

    return write_mandela_dataset(root, seeds=seeds)


def _run(args: list[str], *, as_bytes: int | None = None, term_after: float | None = None
         ) -> tuple[int, float, float, float | None]:  # fmt: skip
    """``forgebench ARGS`` as a process: exit status, wall s, peak RSS MB, s from SIGTERM to
    exit (when ``term_after`` sends one)."""

    def limit() -> None:
        if as_bytes is not None:
            resource.setrlimit(resource.RLIMIT_AS, (as_bytes, as_bytes))

    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "forgebench.cli", *args], env=ENV, preexec_fn=limit,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    termed: float | None = None
    if term_after is not None:
        time.sleep(term_after)
        proc.send_signal(signal.SIGTERM)
        termed = time.perf_counter()
    _, status, usage = os.wait4(proc.pid, 0)
    end = time.perf_counter()
    err = proc.stderr.read() if proc.stderr else ""
    if err.strip():
        print("   stderr:", " | ".join(err.strip().splitlines()[-3:])[:300])
    code = os.waitstatus_to_exitcode(status)
    return code, end - t0, usage.ru_maxrss / 1024, None if termed is None else end - termed


def _store(run: Path) -> tuple[int, list[tuple[str, int]]]:
    with sqlite3.connect(run / "run.sqlite") as con:
        answers = int(con.execute("SELECT COUNT(*) FROM answers").fetchone()[0])
        errors = [(str(r), int(a)) for r, a in con.execute("SELECT reason, attempts FROM errors")]
    return answers, errors


def case_reply(tmp: Path, size_mb: int) -> None:
    ds = _dataset(tmp / "ds-reply", seeds=1)  # 2 tasks
    print(f"reply: a {size_mb} MiB body per request, default limit 64 MiB, 2 tasks, "
          "--max-attempts 6")  # fmt: skip
    print(f"{'form':>8} {'exit':>5} {'wall s':>7} {'peak RSS MB':>12} {'requests':>9}  error")
    for form in ("length", "500", "chunked"):
        server, url = _start([sys.executable, __file__, "--serve", form, str(size_mb)])
        run = tmp / f"run-reply-{form}"
        try:
            code, wall, rss, _ = _run([
                "run", str(ds), "--model", f"m=openai/fake@{url}/v1", "--out", str(run),
                "--cache-dir", str(tmp / "cache"), "--max-attempts", "6", *FLAGS,
            ])  # fmt: skip
            hits = json.load(urllib.request.urlopen(f"{url}/stats"))["hits"]
        finally:
            server.terminate()
            server.wait()
        _, errors = _store(run)
        reason = errors[0][0][:70] if errors else "-"
        print(f"{form:>8} {code:>5} {wall:>7.1f} {rss:>12.0f} {hits:>9}  {reason}")


def case_huge(tmp: Path, as_gb: float) -> None:
    ds = _dataset(tmp / "ds-huge", seeds=2)  # 4 tasks
    server, url = _start([sys.executable, str(SERVER), "--port", "0", "--reply-text", "B."])
    models = tmp / "huge.toml"
    models.write_text(f'[[models]]\nspec = "m=openai/fake@{url}/v1"\nconcurrency = 1e12\n')
    run = tmp / "run-huge"
    try:
        code, wall, rss, _ = _run(
            ["run", str(ds), "--models-file", str(models), "--out", str(run),
             "--cache-dir", str(tmp / "cache"), *FLAGS],
            as_bytes=int(as_gb * (1 << 30)),
        )  # fmt: skip
    finally:
        server.terminate()
        server.wait()
    answers, errors = _store(run)
    print(f"huge: concurrency = 1e12 (models file), RLIMIT_AS {as_gb:g} GiB, 4 tasks: exit {code}, "
          f"{answers} answers, {len(errors)} errors, wall {wall:.1f} s, peak RSS {rss:.0f} MB")  # fmt: skip


def case_wide(tmp: Path) -> None:
    ds = _dataset(tmp / "ds-wide", seeds=2)  # 4 tasks; --sample 1 keeps 2 ... use 3 of 4 below
    server, url = _start([sys.executable, str(SERVER), "--port", "0", "--reply-text", "B."])
    run = tmp / "run-wide"
    items = (ds / "items.jsonl").read_text().splitlines()
    (ds / "items.jsonl").write_text("\n".join(items[:3]) + "\n")  # 3 items: 3 tasks
    try:
        code, wall, rss, _ = _run([
            "run", str(ds), "--model", f"m=openai/fake@{url}/v1", "--out", str(run),
            "--cache-dir", str(tmp / "cache"), "--concurrency", "100000", *FLAGS,
        ])  # fmt: skip
    finally:
        server.terminate()
        server.wait()
    answers, errors = _store(run)
    print(f"wide: --concurrency 100000, {answers + len(errors)} tasks: exit {code}, {answers} "
          f"answers, wall {wall:.1f} s, peak RSS {rss:.0f} MB")  # fmt: skip
    slow, url = _start([sys.executable, str(SERVER), "--port", "0", "--latency-ms", "60000"])
    try:
        code, wall, rss, after = _run(
            ["run", str(ds), "--model", f"m=openai/fake@{url}/v1", "--out", str(tmp / "run-t"),
             "--cache-dir", str(tmp / "cache"), "--concurrency", "100000", *FLAGS],
            term_after=4.0,
        )  # fmt: skip
    finally:
        slow.terminate()
        slow.wait()
    print(
        f"wide + SIGTERM 4 s in (server answers after 60 s): exit {code}, "
        f"{after or 0:.1f} s from SIGTERM to exit"
    )


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--cases", default="reply,huge,wide")
    ap.add_argument("--reply-mb", type=int, default=1024, help="Size of each hostile reply.")
    ap.add_argument("--as-gb", type=float, default=2.0, help="RLIMIT_AS of the huge case.")
    ap.add_argument("--serve", nargs=2, metavar=("FORM", "MB"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve_big(args.serve[0], int(args.serve[1]))
        return
    with tempfile.TemporaryDirectory() as tmp:
        cases = args.cases.split(",")
        if "reply" in cases:
            case_reply(Path(tmp), args.reply_mb)
        if "huge" in cases:
            case_huge(Path(tmp), args.as_gb)
        if "wide" in cases:
            case_wide(Path(tmp))


if __name__ == "__main__":
    main()
