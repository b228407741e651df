"""OneThread: every call on the same worker thread, results and errors handed back."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from forgebench.util.one_thread import OneThread


def test_calls_from_many_threads_all_run_on_one_worker_one_at_a_time() -> None:
    worker = OneThread("test-one")
    seen: list[str] = []
    busy = threading.Lock()

    def work(i: int) -> int:
        assert busy.acquire(blocking=False), "two calls ran at once"
        try:
            seen.append(threading.current_thread().name)
            return i * i
        finally:
            busy.release()

    with ThreadPoolExecutor(6) as pool:
        results = list(pool.map(lambda i: worker.call(work, i), range(40)))
    assert results == [i * i for i in range(40)]
    assert len(set(seen)) == 1
    assert seen[0].startswith("test-one")
    assert seen[0] != threading.current_thread().name


def test_an_error_is_raised_in_the_caller_and_the_worker_goes_on() -> None:
    worker = OneThread("test-err")

    def boom() -> None:
        raise ValueError("bad image")

    with pytest.raises(ValueError, match="bad image"):
        worker.call(boom)
    assert worker.call(len, "abc") == 3


def test_a_call_from_the_worker_itself_runs_directly() -> None:
    worker = OneThread("test-nested")

    def outer() -> tuple[str, str]:
        inner = worker.call(lambda: threading.current_thread().name)
        return threading.current_thread().name, inner

    outer_name, inner_name = worker.call(outer)
    assert outer_name == inner_name


def test_cpu_seconds_counts_the_workers_own_time_only() -> None:
    worker = OneThread("test-cpu")
    assert worker.cpu_seconds() is None  # not started

    def spin() -> None:
        end = time.thread_time() + 0.2
        while time.thread_time() < end:
            pass

    worker.call(spin)
    used = worker.cpu_seconds()
    assert used is not None and used >= 0.2
    time.sleep(0.3)  # the caller waiting costs the worker nothing
    assert worker.cpu_seconds() == pytest.approx(used, abs=0.05)
