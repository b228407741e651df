"""The generic scheduler against a real loopback server that injects faults."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest
from rich.console import Console

from forgebench.models.base import ModelError, Request, Response
from forgebench.models.openai_compat import create
from forgebench.models.spec import ModelConfig
from forgebench.run.send.limits import RateLimiter
from forgebench.run.send.progress import RunProgress
from forgebench.run.send.retry import RetryPolicy
from forgebench.run.send.runner import Call, CallOutcome, ExecSettings, ExecStats, execute

FAST = RetryPolicy(base_s=0.01, cap_s=0.05, rng=random.Random(0))


def _calls(n: int) -> list[Call]:
    return [Call(f"k{i}", Request(prompt=f"question {i}")) for i in range(n)]


HOOKS = ("validate", "progress", "stop")


def _run(server: Any, calls: list[Call], **kw: Any) -> tuple[ExecStats, list[CallOutcome]]:
    """``execute`` against ``server``; ``kw``: :class:`ExecSettings` fields and the hooks."""
    outcomes: list[CallOutcome] = []
    model = create(ModelConfig(spec=f"m=openai/fake@{server.url}", concurrency=8))
    policy: dict[str, Any] = {"concurrency": 8, "max_attempts": 6, "timeout_s": 2.0, "retry": FAST}
    policy.update({k: v for k, v in kw.items() if k not in HOOKS})
    hooks = {k: v for k, v in kw.items() if k in HOOKS}
    settings = ExecSettings(**policy)

    async def go() -> ExecStats:
        try:
            return await execute(model, calls, settings, on_outcome=outcomes.append, **hooks)
        finally:
            await model.aclose()

    return asyncio.run(go()), outcomes


def test_faulty_server_gives_exactly_one_answer_per_call(fake_openai: Any) -> None:
    server = fake_openai(latency_ms=2, fault_rate=0.15, seed=3, slow_s=0.6)
    server.script.extend(
        ["429", "500", "drop", "nonjson", "slow", "badschema"]
    )  # each at least once
    bar = RunProgress(Console(), enabled=False).add("m", 60)
    stats, outcomes = _run(server, _calls(60), timeout_s=0.3, progress=bar)
    assert sorted(o.key for o in outcomes) == sorted(f"k{i}" for i in range(60))
    assert all(o.response is not None and o.error is None for o in outcomes)
    faults = sum(n for k, n in server.outcomes.items() if k != "ok")
    assert faults >= 6  # the server really misbehaved ...
    assert stats.retries == faults == bar.retries  # ... and every fault was retried once
    assert stats.answered == bar.done == 60 and stats.errors == 0
    assert {"429", "500", "drop", "nonjson", "slow", "badschema"} <= set(server.outcomes)


def test_bad_request_is_not_retried_and_stops_the_model(fake_openai: Any) -> None:
    server = fake_openai()
    server.script.append("400")
    stats, outcomes = _run(server, _calls(50), concurrency=1)
    assert server.hits == 1
    assert [o.status for o in outcomes] == [400]
    assert outcomes[0].response is None and outcomes[0].attempts == 1
    assert "Invalid 'temperature'" in (stats.fatal or "")


def test_a_request_too_large_fails_alone_and_the_model_goes_on(fake_openai: Any) -> None:
    server = fake_openai()
    server.script.append("413")
    stats, outcomes = _run(server, _calls(5), concurrency=1)
    assert server.hits == 5  # not retried, and the other tasks were still sent
    errors = [o for o in outcomes if o.response is None]
    assert [(o.status, o.attempts) for o in errors] == [(413, 1)]
    assert "image exceeds" in (errors[0].error or "")
    assert stats.answered == 4 and stats.fatal is None


def test_retry_after_is_honoured(fake_openai: Any) -> None:
    server = fake_openai(retry_after="1")
    server.script.extend(["429", "ok"])
    stats, outcomes = _run(server, _calls(1))
    gap = server.hit_times[1] - server.hit_times[0]
    assert gap >= 0.95, gap
    assert outcomes[0].attempts == 2 and stats.retries == 1


def test_last_attempt_failure_is_an_error_with_reason(fake_openai: Any) -> None:
    server = fake_openai()
    server.script.extend(["500", "500", "500"])
    stats, outcomes = _run(server, _calls(1), max_attempts=3)
    (o,) = outcomes
    assert o.response is None and o.attempts == 3 and o.status == 500
    assert o.error == "HTTP 500: internal server error"
    assert stats.errors == 1 and stats.fatal is None


def test_refusal_and_truncation_are_answers_not_errors(fake_openai: Any) -> None:
    server = fake_openai()
    server.script.extend(["refusal", "length"])
    _, outcomes = _run(server, _calls(2), concurrency=1)
    assert [o.response.finish_reason for o in outcomes if o.response] == ["refusal", "length"]
    assert server.hits == 2


def test_validate_can_ask_again(fake_openai: Any) -> None:
    server = fake_openai(reply_text="not json")
    seen: list[int] = []

    def validate(resp: Response) -> None:
        seen.append(1)
        if len(seen) < 3:
            raise ModelError("judge reply is not JSON", retryable=True)

    stats, outcomes = _run(server, _calls(1), validate=validate)
    assert server.hits == 3 and outcomes[0].attempts == 3 and stats.retries == 2


def test_unreachable_server_gives_up_after_consecutive_failures() -> None:
    class Nowhere:
        url = "http://127.0.0.1:1/v1"

    stats, outcomes = _run(Nowhere(), _calls(100), concurrency=2, max_attempts=2)
    # the third failure in a row halts the model; a call already in flight on the other
    # worker may still finish (and fail) after it
    assert 3 <= len(outcomes) <= 4 and all(o.response is None for o in outcomes)
    assert stats.fatal is not None and "cannot connect to http://127.0.0.1:1/v1" in stats.fatal


class _CountingModel:
    """A local model that records how many requests are in flight at once."""

    name = "counting"

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.inflight = 0
        self.peak = 0
        self.calls = 0

    async def generate(self, request: Request) -> Response:
        self.inflight += 1
        self.calls += 1
        self.peak = max(self.peak, self.inflight)
        try:
            await asyncio.sleep(self.delay)
        finally:
            self.inflight -= 1
        return Response(text=request.prompt)

    async def aclose(self) -> None:
        return None


def test_concurrency_bounds_requests_in_flight_and_calls_are_pulled_lazily() -> None:
    model = _CountingModel(0.01)
    pulled: list[int] = []

    def calls() -> Any:
        for i in range(40):
            pulled.append(i)
            # never more than `concurrency` calls exist beyond those already answered
            assert len(pulled) - len(done) <= 4
            yield Call(f"k{i}", Request(prompt=str(i)))

    done: list[CallOutcome] = []
    stats = asyncio.run(
        execute(model, calls(), ExecSettings(concurrency=4, timeout_s=1), on_outcome=done.append)
    )
    assert model.peak == 4 and stats.answered == 40


def test_async_calls_and_an_awaited_on_outcome_report_every_call_once() -> None:
    """The generation path: calls produced by an async generator (image base64 on a thread),
    outcomes handed to a writer whose room is awaited; a stop while outcomes wait for room
    leaves those calls unreported (abandoned), never reported twice."""
    model = _CountingModel(0.001)
    room = asyncio.Semaphore(2)
    stored: list[str] = []

    async def calls() -> Any:
        for i in range(30):
            await asyncio.sleep(0)  # production awaits work done elsewhere
            yield Call(f"k{i}", Request(prompt=str(i)))

    async def on_outcome(outcome: CallOutcome) -> None:
        async with room:
            await asyncio.sleep(0.002)
            stored.append(outcome.key)

    stats = asyncio.run(
        execute(model, calls(), ExecSettings(concurrency=4, timeout_s=5), on_outcome=on_outcome)
    )
    assert sorted(stored) == sorted(f"k{i}" for i in range(30))
    assert stats.answered == 30 and model.calls == 30 and stats.abandoned == 0

    blocked: list[str] = []

    async def never_room(outcome: CallOutcome) -> None:
        await asyncio.Event().wait()  # the writer never has room
        blocked.append(outcome.key)

    async def stopped() -> ExecStats:
        stop = asyncio.Event()
        asyncio.get_running_loop().call_later(0.2, stop.set)
        settings = ExecSettings(concurrency=3, timeout_s=5, grace_s=0.1)
        return await execute(model, calls(), settings, on_outcome=never_room, stop=stop)

    stats = asyncio.run(stopped())
    assert blocked == [] and stats.answered == 0 and stats.abandoned == 3 and stats.stopped


def test_rpm_limit_spaces_requests() -> None:
    async def go() -> float:
        limiter = RateLimiter(rpm=1200)  # 20 per second
        t0 = time.monotonic()
        for _ in range(6):
            await limiter.acquire()
        return time.monotonic() - t0

    assert 0.22 <= asyncio.run(go()) < 0.6


def test_stop_abandons_in_flight_calls_without_reporting_them() -> None:
    model = _CountingModel(5.0)
    done: list[CallOutcome] = []

    async def go() -> ExecStats:
        stop = asyncio.Event()
        asyncio.get_running_loop().call_later(0.1, stop.set)
        settings = ExecSettings(concurrency=3, timeout_s=10, grace_s=0.1)
        return await execute(model, _calls(10), settings, on_outcome=done.append, stop=stop)

    stats = asyncio.run(go())
    assert done == [] and stats.abandoned == 3 and stats.stopped and model.calls == 3


def test_backoff_is_full_jitter_and_respects_retry_after() -> None:
    policy = RetryPolicy(base_s=1.0, cap_s=8.0, rng=random.Random(1))
    waits = [policy.delay(5) for _ in range(200)]
    assert 0 <= min(waits) < 1.0 and 7.0 < max(waits) <= 8.0
    assert all(policy.delay(1, retry_after=3.0) >= 3.0 for _ in range(20))
    assert policy.delay(1, retry_after=10_000) <= 300.0


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        ExecSettings(concurrency=0)
    with pytest.raises(ValueError, match="at least 1"):
        ExecSettings(max_attempts=0)


def test_settings_from_a_model_config_take_its_sending_policy() -> None:
    config = ModelConfig(
        spec="m=openai/fake@http://127.0.0.1:9/v1", concurrency=3, rpm=90, max_attempts=2,
        timeout_s=7.5,
    )  # fmt: skip
    settings = ExecSettings.of(config, retry=FAST, grace_s=1.0, give_up_after=4)
    assert (settings.concurrency, settings.rpm, settings.max_attempts) == (3, 90, 2)
    assert (settings.timeout_s, settings.grace_s, settings.give_up_after) == (7.5, 1.0, 4)
    assert settings.retry is FAST
