"""The demo's step timings: each line says the step's wall and CPU seconds, the main thread's
share and the peak so far, in the format benchmarks/demo_speed.py reads back."""

from __future__ import annotations

import threading
import time

from forgebench.demo.clock import LINE, StageClock


def _spin(seconds: float) -> None:
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_a_step_counts_background_threads_in_cpu_but_not_in_the_main_threads_share() -> None:
    clock = StageClock()
    worker = threading.Thread(target=_spin, args=(0.3,))
    worker.start()
    worker.join()
    _spin(0.1)
    m = LINE.match(clock.lap("ask"))
    assert m is not None and m["step"] == "ask"
    assert float(m["cpu"]) >= 0.35
    assert 0.1 <= float(m["main"]) < 0.25
    assert int(m["peak"]) > 0
    m2 = LINE.match(clock.lap("report"))
    assert m2 is not None and float(m2["cpu"]) < 0.2  # each lap starts where the last ended
