"""Demo steps run on threads of their own, so the demo's longest chain of work keeps a core.

On a two-core machine the first demo is bounded by builtin/verifier's OCR, one image after
another on one thread: every second the detector's answering takes from it comes at the end.
:func:`giving_way` runs a step on a new thread whose scheduling niceness is raised (Linux counts
niceness per thread, and threads that step starts inherit it), so the verifier's tool threads
run first and the step takes the cores they leave. Raising niceness needs no privilege;
lowering it again does, so it is only ever raised, and only on a thread the demo starts for the
step, which ends with it: the caller's own thread, the verifier's tool threads and whatever a
library user runs are left as they were.

:class:`Ahead` starts a step whose result is needed later (scoring that does not depend on the
verifier's answers) on a daemon thread at once; :meth:`Ahead.result` waits for it and raises
what it raised.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")

NICER = 10
"""How much less priority a step giving way gets: at niceness 10 a thread weighs about a tenth of
one at 0, so the tools' threads keep nearly all of a core they share with it (measured on the
first demo against niceness 5, two alternated pairs on two cores: 35.5-36.1 s against
36.7-36.8 s, peak 557-560 MB against 576-586, the tools' transient buffers overlapping the
detector's less). Where other work of the same session (the same scheduler autogroup) keeps
both cores busy, the step waits for it too."""


def lower_priority(by: int = NICER) -> bool:
    """Raise the calling thread's niceness by ``by`` (True when done; only on Linux, where
    niceness belongs to the thread; elsewhere it would apply to the whole process)."""
    if not sys.platform.startswith("linux") or by <= 0:
        return False
    tid = threading.get_native_id()
    try:
        os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + by))
    except OSError:
        return False
    return True


class Ahead(Generic[T]):
    """``fn()`` on a daemon thread from construction on (niceness raised by ``nicer``)."""

    def __init__(self, name: str, fn: Callable[[], T], *, nicer: int = 0) -> None:
        self._fn = fn
        self._nicer = nicer
        self._value: T | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name=f"forgebench-{name}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        lower_priority(self._nicer)
        try:
            self._value = self._fn()
        except BaseException as exc:  # handed to the caller of result()
            self._error = exc

    def done(self) -> bool:
        return not self._thread.is_alive()

    def wait(self) -> None:
        """Wait for the step to end, whatever it ended with (see :meth:`result`)."""
        self._thread.join()

    def result(self) -> T:
        """Wait for the step; its value, or what it raised, raised here."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value  # type: ignore[return-value]


def giving_way(fn: Callable[[], T], name: str = "step") -> T:
    """``fn()`` run on a new thread of raised niceness; waits for it (see the module
    docstring). An exception it raises is raised here."""
    return Ahead(name, fn, nicer=NICER).result()
