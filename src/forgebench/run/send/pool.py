"""A bounded pool of asyncio tasks: the one rule for fanning work out under a concurrency.

:func:`run_bounded` takes items one at a time from ``pull`` and handles each in its own task,
with at most ``limit`` tasks alive at once: a task is created only when an item is in hand and a
slot is free, so the number of tasks is at most ``min(limit, items)`` whatever ``limit`` says
(``concurrency = 1e12`` in a models file costs nothing more than ``concurrency = 8`` on three
tasks). Bookkeeping is O(1) per finished item (a done-callback, no scan of the pool), so a
large limit does not slow the loop either, and the loop stays responsive to signals.

Every sender that fans out per unit of concurrency goes through here (the runner's
:func:`~forgebench.run.send.runner.execute`, which generation, judging and editors share).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


async def run_bounded(
    pull: Callable[[], Awaitable[T | None]],
    handle: Callable[[T], Coroutine[Any, Any, None]],
    limit: int,
    *,
    halted: Callable[[], bool],
    stop: asyncio.Event,
    grace_s: float,
) -> None:
    """Handle every item ``pull`` returns (None: no more) with ``handle``, at most ``limit`` at
    once; no item is pulled once ``halted()`` is true.

    After ``stop`` is set, tasks in flight get ``grace_s`` seconds and are then cancelled (as are
    all tasks when this coroutine itself is cancelled). An exception raised by ``handle`` (a bug:
    expected failures are the handler's to report) is re-raised here once the others are
    cancelled; the others' exceptions are retrieved, not logged.
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    live: set[asyncio.Task[None]] = set()
    room = asyncio.Event()  # the feeder's: a slot was freed
    changed = asyncio.Event()  # the supervisor's: a task ended
    failures: list[BaseException] = []

    def finished(task: asyncio.Task[None]) -> None:
        live.discard(task)
        if not task.cancelled() and task.exception() is not None:
            failures.append(task.exception())  # type: ignore[arg-type]
        room.set()
        changed.set()

    async def feed() -> None:
        while not halted():
            while len(live) >= limit:
                room.clear()
                await room.wait()
                if halted():
                    return
            item = await pull()
            if item is None or halted():
                return  # an item pulled after a halt is not started: it stays pending
            task = asyncio.create_task(handle(item))
            live.add(task)
            task.add_done_callback(finished)

    feeder = asyncio.create_task(feed())
    stop_waiter = asyncio.ensure_future(stop.wait())
    try:
        await _supervise(feeder, live, changed, failures, stop_waiter, grace_s)
    finally:
        stop_waiter.cancel()
        leftover = [t for t in (feeder, *live) if not t.done()]
        for t in leftover:
            t.cancel()
        if leftover:
            await asyncio.gather(*leftover, return_exceptions=True)
        if feeder.done() and not feeder.cancelled():
            feeder.exception()  # retrieved: raised by _supervise when it mattered


async def _supervise(
    feeder: asyncio.Task[None],
    live: set[asyncio.Task[None]],
    changed: asyncio.Event,
    failures: list[BaseException],
    stop_waiter: asyncio.Future[Any],
    grace_s: float,
) -> None:
    """Wait until the feeder is done and no task is alive; after ``stop``, give them
    ``grace_s``; re-raise the first failure of a task or of the feeder."""
    deadline: float | None = None
    while True:
        changed.clear()  # before looking: a task ending from here on wakes the wait below
        if failures:
            raise failures[0]
        if feeder.done():
            if not feeder.cancelled() and feeder.exception() is not None:
                raise feeder.exception()  # type: ignore[misc]
            if not live:
                return
        if stop_waiter.done() and deadline is None:
            deadline = time.monotonic() + grace_s
        if deadline is not None and time.monotonic() >= deadline:
            return
        timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
        wake = asyncio.ensure_future(changed.wait())
        waiting: set[asyncio.Future[Any]] = {wake, stop_waiter}
        if not feeder.done():
            waiting.add(feeder)
        try:
            await asyncio.wait(waiting, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            wake.cancel()
