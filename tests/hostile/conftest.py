"""Fixtures for the hostile-input tests: a small dataset writer, the CLI, a hostile server."""

from __future__ import annotations

import asyncio
import csv
import json
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from typer.testing import CliRunner

from forgebench.cli import app

FLAGS = ["--probes", "L0", "--conditions", "full", "--retry-base-delay", "0.01"]


def read_items(root: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in (root / "items.jsonl").read_text().splitlines() if x.strip()]


def write_items(root: Path, items: list[dict[str, Any]]) -> None:
    (root / "items.jsonl").write_text("".join(json.dumps(it) + "\n" for it in items))


TSV_HEADER = ["index", "image", "question", "A", "B", "answer", "category"]
"""A Forensics-Bench release TSV's columns."""


def write_tsv(path: Path, rows: list[list[str]], header: list[str] = TSV_HEADER) -> Path:
    """A release TSV at ``path`` with ``header`` and ``rows`` as given (hostile cells kept)."""
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, delimiter="\t", lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
    return path


def cli(*args: str) -> Any:
    """Invoke the CLI in process; stdout and stderr separate."""
    return CliRunner().invoke(app, list(args))


def run_args(
    dataset: Path,
    run_dir: Path,
    spec: str,
    *extra: str,
    probes: str = "L0",
    conditions: str = "full",
) -> list[str]:
    flags = [{"L0": probes, "full": conditions}.get(f, f) for f in FLAGS]
    return [
        "run",
        str(dataset),
        "--model",
        spec,
        "--out",
        str(run_dir),
        "--cache-dir",
        str(run_dir.parent / "cache"),
        *flags,
        *extra,
    ]


def error_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("error:")]


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Server:
    """An aiohttp server on a thread whose routes a test writes (a hostile server)."""

    def __init__(self, routes: dict[str, Handler]) -> None:
        self.routes = routes
        self.hits: list[str] = []
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        app = web.Application()

        async def any_route(request: web.Request) -> web.StreamResponse:
            self.hits.append(request.path)
            handler = self.routes.get(request.path)
            if handler is None:
                return web.Response(status=404)
            return await handler(request)

        app.router.add_route("*", "/{tail:.*}", any_route)
        ready = threading.Event()

        async def setup() -> None:
            self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
            await self._runner.setup()
            site = web.TCPSite(self._runner, "127.0.0.1", 0)
            await site.start()
            assert site._server is not None
            self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

        def run() -> None:
            asyncio.set_event_loop(self._loop)
            self._loop.run_until_complete(setup())
            ready.set()
            self._loop.run_forever()

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()
        assert ready.wait(10)
        return self

    def stop(self) -> None:
        if self._runner is not None:
            asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(10)


@pytest.fixture
def hostile_server() -> Iterator[Callable[[dict[str, Handler]], Server]]:
    servers: list[Server] = []

    def start(routes: dict[str, Handler]) -> Server:
        server = Server(routes).start()
        servers.append(server)
        return server

    yield start
    for s in servers:
        s.stop()


FB = f"{sys.executable} -m forgebench.cli"
"""The CLI as a process (``main()``: the one-line guard around every command)."""


def _can_unshare() -> bool:
    try:
        done = subprocess.run(
            ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c",
             'd=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs "$d" && umount "$d"'],
            capture_output=True, timeout=20,
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def sandbox(script: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run a bash ``script`` in a private mount namespace (``unshare --user --mount``), where it
    may mount a tmpfs of a chosen size (a disk that fills up for real) or remount one read-only;
    skips the test where user namespaces are not allowed."""
    if not _can_unshare():
        pytest.skip("unshare --user --mount is not permitted here (no real tmpfs)")
    return subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", "bash", "-euo", "pipefail", "-c",
         script],
        capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip
