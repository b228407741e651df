"""Where the test suite's CPU goes: ``pytest --cpu-profile DIR`` (the option is the conftest's)
records, for every test phase (setup, call, teardown) and every fixture set up, the seconds of
CPU spent by the pytest process (all its threads: ``time.process_time``), by the processes it
started and waited for (``RUSAGE_CHILDREN``: the ``forgebench`` subprocesses, Chromium through
Playwright's driver, ...), the wall time and how long the main thread waited for a CPU while
ready to run (``run_wait``: on a shared machine, wall time that was not the test's own). Each
process (each pytest-xdist worker) writes ``DIR/<worker>.json``;
``benchmarks/test_suite_profile.py DIR`` ranks them.

A fixture's figures are its own: the fixtures it requested are set up first and counted under
their own names. A session fixture appears once, in the worker that set it up, at the test that
first asked for it (and in that test's setup phase too). Processes that outlive their parent's
wait (Ray's workers, killed with their raylet) are not counted anywhere.
"""

from __future__ import annotations

import json
import os
import resource
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run_wait() -> float:
    """Seconds the main thread has waited, ready to run, for a CPU (Linux schedstat; 0.0
    elsewhere): on a busy machine a test's wall time minus this is what it would take alone."""
    try:
        with open(f"/proc/self/task/{os.getpid()}/schedstat") as fh:
            return int(fh.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def _now() -> tuple[float, float, float, float]:
    return time.process_time(), _children_cpu(), time.perf_counter(), _run_wait()


def _spent(start: tuple[float, float, float, float]) -> dict[str, float]:
    own, children, wall, wait = _now()
    return {
        "cpu": round(own - start[0], 4),
        "children_cpu": round(children - start[1], 4),
        "wall": round(wall - start[2], 4),
        "run_wait": round(wait - start[3], 4),
    }


class CpuProfile:
    """The plugin: registered by the conftest when ``--cpu-profile`` names a folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        self.session_start = _now()
        self.tests: list[dict[str, Any]] = []
        self.fixtures: list[dict[str, Any]] = []
        self._current: dict[str, Any] | None = None
        self._fixture_stack: list[dict[str, float]] = []

    def _phase(self, item: pytest.Item, phase: str) -> Generator[None, None, None]:
        if self._current is None or self._current["nodeid"] != item.nodeid:
            self._current = {"nodeid": item.nodeid}
            self.tests.append(self._current)
        start = _now()
        yield
        self._current[phase] = _spent(start)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Generator[None, None, None]:
        yield from self._phase(item, "setup")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Generator[None, None, None]:
        yield from self._phase(item, "call")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(self, item: pytest.Item) -> Generator[None, None, None]:
        yield from self._phase(item, "teardown")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_fixture_setup(
        self, fixturedef: Any, request: pytest.FixtureRequest
    ) -> Generator[None, None, None]:
        nested = {"cpu": 0.0, "children_cpu": 0.0, "wall": 0.0, "run_wait": 0.0}
        self._fixture_stack.append(nested)
        start = _now()
        yield
        self._fixture_stack.pop()
        spent = _spent(start)
        for parent in self._fixture_stack[-1:]:
            for key in parent:
                parent[key] += spent[key]
        own = {key: round(spent[key] - nested[key], 4) for key in spent}
        self.fixtures.append(
            {
                "fixture": fixturedef.argname,
                "scope": fixturedef.scope,
                "baseid": fixturedef.baseid,
                "for": self._current["nodeid"] if self._current else "",
                **own,
            }
        )

    def pytest_sessionfinish(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        record = {
            "worker": self.worker,
            "session": _spent(self.session_start),
            "process_total": {"cpu": time.process_time(), "children_cpu": _children_cpu()},
            "tests": self.tests,
            "fixtures": self.fixtures,
        }
        out = self.folder / f"{self.worker}.json"
        out.write_text(json.dumps(record), encoding="utf-8")
