"""The runner's pool is bounded by the work, not by ``concurrency``: a huge concurrency on a few
calls creates a few tasks, finishes at once and still honours ``stop``; a small one still caps
the calls in flight."""

from __future__ import annotations

import asyncio
import time

import pytest

from forgebench.models.base import Request, Response
from forgebench.run.send.pool import run_bounded
from forgebench.run.send.runner import Call, CallOutcome, ExecSettings, execute


class _Counting:
    """A model that answers after ``delay_s``, counting calls in flight and the loop's tasks."""

    name = "counting"

    def __init__(self, delay_s: float = 0.0) -> None:
        self.delay_s = delay_s
        self.in_flight = 0
        self.most_in_flight = 0
        self.most_tasks = 0

    async def generate(self, request: Request) -> Response:
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        self.most_tasks = max(self.most_tasks, len(asyncio.all_tasks()))
        try:
            await asyncio.sleep(self.delay_s)
        finally:
            self.in_flight -= 1
        return Response(text=f"answer to {request.prompt}")


def _calls(n: int) -> list[Call]:
    return [Call(f"k{i}", Request(prompt=f"q{i}")) for i in range(n)]


@pytest.mark.parametrize("concurrency", [100_000, 10**12])
def test_a_huge_concurrency_on_three_calls_makes_a_few_tasks_and_ends_at_once(
    concurrency: int,
) -> None:
    model = _Counting(delay_s=0.01)
    outcomes: list[CallOutcome] = []

    async def go() -> float:
        t0 = time.monotonic()
        settings = ExecSettings(concurrency=concurrency, grace_s=0.1)
        stats = await execute(model, _calls(3), settings, on_outcome=outcomes.append)
        assert stats.answered == 3
        return time.monotonic() - t0

    elapsed = asyncio.run(go())
    assert sorted(o.key for o in outcomes) == ["k0", "k1", "k2"]
    assert all(o.response is not None for o in outcomes)
    assert model.most_in_flight == 3
    # the main task, the feeder, the stop waiter and the 3 calls (before: one per unit)
    assert model.most_tasks <= 8, model.most_tasks
    assert elapsed < 2.0


def test_a_small_concurrency_still_caps_the_calls_in_flight() -> None:
    model = _Counting(delay_s=0.005)
    outcomes: list[CallOutcome] = []
    asyncio.run(execute(model, _calls(40), ExecSettings(concurrency=4), on_outcome=outcomes.append))
    assert len(outcomes) == 40 and model.most_in_flight == 4


def test_stop_with_a_huge_concurrency_ends_within_the_grace() -> None:
    model = _Counting(delay_s=30.0)  # never answers in time
    outcomes: list[CallOutcome] = []

    async def go() -> float:
        stop = asyncio.Event()
        settings = ExecSettings(concurrency=10**12, grace_s=0.2)
        run = asyncio.create_task(
            execute(model, _calls(5), settings, on_outcome=outcomes.append, stop=stop)
        )
        await asyncio.sleep(0.1)
        t0 = time.monotonic()
        stop.set()
        stats = await run
        assert stats.stopped and stats.abandoned == 5
        return time.monotonic() - t0

    assert asyncio.run(go()) < 1.5
    assert outcomes == []  # abandoned calls stay pending, never reported


def test_a_bug_in_a_handler_is_raised_once_the_others_are_cancelled() -> None:
    started: list[int] = []

    async def go() -> None:
        items = iter(range(10))

        async def pull() -> int | None:
            return next(items, None)

        async def handle(i: int) -> None:
            started.append(i)
            if i == 2:
                raise RuntimeError("bug in handler")
            await asyncio.sleep(30)

        await run_bounded(
            pull, handle, 10**12, halted=lambda: False, stop=asyncio.Event(), grace_s=0.1
        )

    t0 = time.monotonic()
    with pytest.raises(RuntimeError, match="bug in handler"):
        asyncio.run(go())
    assert time.monotonic() - t0 < 2.0 and 2 in started
