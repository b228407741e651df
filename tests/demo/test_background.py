"""Demo steps on threads of their own: a step giving way runs at a raised niceness (and so do the
threads it starts) while the caller's stays as it was; a step's value and its exception reach the
caller; a step computed ahead runs at once and is waited for only when its result is needed."""

from __future__ import annotations

import os
import sys
import threading

import pytest

from forgebench.demo.background import NICER, Ahead, giving_way


def _nice() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="niceness per thread")


@linux
def test_a_step_giving_way_and_the_threads_it_starts_run_nicer_and_the_caller_does_not() -> None:
    before = _nice()
    seen: dict[str, int] = {}

    def step() -> str:
        seen["step"] = _nice()
        worker = threading.Thread(target=lambda: seen.setdefault("worker", _nice()))
        worker.start()
        worker.join()
        return "answered"

    assert giving_way(step) == "answered"
    assert seen == {"step": min(19, before + NICER), "worker": min(19, before + NICER)}
    assert _nice() == before


def test_a_step_failing_raises_its_own_error_in_the_caller() -> None:
    def step() -> None:
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match="No space left on device"):
        giving_way(step)


def test_a_step_ahead_runs_at_once_and_its_failure_is_raised_when_its_result_is_asked() -> None:
    started = threading.Event()
    release = threading.Event()

    def step() -> int:
        started.set()
        assert release.wait(30)
        raise ValueError("bad label map")

    ahead = Ahead("probe", step)
    assert started.wait(30) and not ahead.done()  # running before anyone waits for it
    release.set()
    with pytest.raises(ValueError, match="bad label map"):
        ahead.result()
    assert ahead.done()
    assert Ahead("value", lambda: 42).result() == 42
