"""Wall and CPU time of each demo step, printed after it so a slow step can be named.

CPU time is the whole process's (every thread, user + system) plus that of child processes
waited for, as ``getrusage`` counts them: work a background thread does during a step is counted
in that step. ``benchmarks/demo_speed.py`` reads the lines back (:data:`LINE`).
"""

from __future__ import annotations

import re
import resource
import time
from dataclasses import dataclass, field

LINE = re.compile(
    r"^\s*\[(?P<step>[^\]]+)\] (?P<wall>[\d.]+) s wall, (?P<cpu>[\d.]+) CPU-s, "
    r"(?P<main>[\d.]+) on the main thread, peak (?P<peak>\d+) MB$"
)
"""A printed step time, as :meth:`StageClock.lap` formats it."""


def cpu_seconds() -> float:
    """User + system seconds of this process and of its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


@dataclass
class StageClock:
    """Times consecutive steps: each :meth:`lap` closes the step running since the last one."""

    _wall: float = field(default_factory=time.perf_counter)
    _cpu: float = field(default_factory=cpu_seconds)
    _main: float = field(default_factory=time.thread_time)

    def lap(self, step: str) -> str:
        """Close ``step``; its line: wall seconds, CPU seconds of the process, of the main thread
        (the rest ran on background threads or in children) and the peak RSS so far."""
        wall, cpu, main = time.perf_counter(), cpu_seconds(), time.thread_time()
        line = (
            f"  [{step}] {wall - self._wall:.1f} s wall, {cpu - self._cpu:.1f} CPU-s, "
            f"{main - self._main:.1f} on the main thread, peak {peak_mb()} MB"
        )
        self._wall, self._cpu, self._main = wall, cpu, main
        return line


def peak_mb() -> int:
    """This process's resident-memory high-water mark (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
