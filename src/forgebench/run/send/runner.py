"""The generic asyncio scheduler that asks one model many things (generation and judging).

:func:`execute` pulls :class:`Call` objects lazily from an iterable (so request payloads, image
base64 included, exist only for calls in flight: memory is bounded by ``concurrency``, not by the
number of calls), runs them on ``concurrency`` workers behind one requests-per-minute token
bucket, retries retryable failures with backoff (``retry.py``), applies a per-attempt timeout, and
reports each finished call once through ``on_outcome`` (the caller stores it). A call's outcome is
an answer or, after its last attempt, an error; never both, never twice.

Stopping:

- a non-retryable failure (HTTP 400/401/403/404/422, a missing key) stops this model: its
  outcome is reported, no further calls are started and :attr:`ExecStats.fatal` says why;
  one that condemns only its own task (``ModelError.task_only``: HTTP 413, a replay file without
  that answer) is stored as that task's error and the model goes on;
- ``ExecSettings.give_up_after`` calls in a row that end as errors (an unreachable server)
  stop it likewise;
- ``stop`` (Ctrl-C, a spending cap) stops scheduling; calls in flight get
  ``ExecSettings.grace_s`` seconds to finish and are then abandoned (not reported: they stay
  pending for the next run). Calls waiting to retry are abandoned at once.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import AsyncIterable, Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from forgebench.models.base import Model, ModelError, Request, Response
from forgebench.run.send.limits import RateLimiter
from forgebench.run.send.pool import run_bounded
from forgebench.run.send.progress import ModelProgress
from forgebench.run.send.retry import RetryPolicy
from forgebench.util.redact import redact_text

if TYPE_CHECKING:
    from forgebench.models.spec import ModelConfig


@dataclass(frozen=True)
class ExecSettings:
    """How :func:`execute` sends: the sending policy of one model (most callers build it from
    the model's config with :meth:`of`)."""

    concurrency: int = 1
    """Calls in flight at once."""
    rpm: float | None = None
    """Requests per minute (None: unlimited)."""
    max_attempts: int = 1
    """Attempts per call, the first included."""
    timeout_s: float = 120.0
    """Limit of one attempt, in seconds."""
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    """Backoff between attempts."""
    grace_s: float = 5.0
    """Seconds calls in flight get to finish after ``stop``."""
    give_up_after: int | None = None
    """Calls in a row ending as errors after which the model is stopped
    (None: ``max(3, concurrency)``)."""

    def __post_init__(self) -> None:
        if self.concurrency < 1 or self.max_attempts < 1:
            raise ValueError("concurrency and max_attempts must be at least 1")

    @classmethod
    def of(
        cls,
        config: ModelConfig,
        *,
        retry: RetryPolicy | None = None,
        grace_s: float = 5.0,
        give_up_after: int | None = None,
    ) -> ExecSettings:
        """The policy a model's config sets (concurrency, rpm, attempts, timeout)."""
        return cls(
            concurrency=config.concurrency, rpm=config.rpm, max_attempts=config.max_attempts,
            timeout_s=config.timeout_s, retry=retry or RetryPolicy(), grace_s=grace_s,
            give_up_after=give_up_after,
        )  # fmt: skip


@dataclass(frozen=True)
class Call:
    """One request to send, under the key its outcome is stored with."""

    key: str
    request: Request


@dataclass(frozen=True)
class CallOutcome:
    """How a call ended: ``response`` (an answer) or ``error`` (after its last attempt)."""

    key: str
    response: Response | None
    error: str | None
    status: int | None
    """HTTP status of the last failure, when there was one."""
    attempts: int
    latency_s: float
    """Duration of the successful (or last) attempt, in seconds."""
    invalid: Response | None = None
    """The last reply that ``validate`` rejected, when that is why the call ended as an error
    (a judge's unparseable grade is stored as unscored with this text)."""


@dataclass
class ExecStats:
    """What :func:`execute` did."""

    answered: int = 0
    errors: int = 0
    attempts: int = 0
    """Requests sent, retries included."""
    retries: int = 0
    abandoned: int = 0
    """Calls started but neither answered nor errored (stopped mid-flight or mid-backoff)."""
    fatal: str | None = None
    """Why the model was stopped early (non-retryable failure, repeated failures)."""
    stopped: bool = False
    """True when ``stop`` ended the run before every call was made."""
    elapsed_s: float = 0.0


class _Abandoned(Exception):
    pass


async def execute(
    model: Model,
    calls: Iterable[Call] | AsyncIterable[Call],
    settings: ExecSettings,
    *,
    on_outcome: Callable[[CallOutcome], Awaitable[None] | None],
    validate: Callable[[Response], None] | None = None,
    progress: ModelProgress | None = None,
    stop: asyncio.Event | None = None,
) -> ExecStats:
    """Send ``calls`` to ``model`` as ``settings`` say; report every finished call through
    ``on_outcome``.

    ``calls`` may be an async iterable (whose production awaits work done off the loop: a page
    of the store, an image's base64); it is advanced by one worker at a time. ``on_outcome`` may
    return an awaitable (hand the outcome to a writer, waiting for room): the worker awaits it
    before its next call, and counts the call as reported once it is done. ``validate`` may
    raise :class:`ModelError` for a reply whose content is unusable (retryable: ask again).
    ``progress`` is advanced per finished call; ``stop`` ends scheduling.
    """
    concurrency, max_attempts, timeout_s = (
        settings.concurrency, settings.max_attempts, settings.timeout_s,
    )  # fmt: skip
    pull = _puller(calls)
    stop_event = stop if stop is not None else asyncio.Event()
    halt = asyncio.Event()
    limiter = RateLimiter(settings.rpm)
    policy = settings.retry
    limit_in_a_row = settings.give_up_after or max(3, concurrency)
    stats = ExecStats()
    in_a_row = 0
    started = time.monotonic()

    def halted() -> bool:
        return halt.is_set() or stop_event.is_set()

    async def pause(seconds: float) -> None:
        if seconds <= 0:
            return
        waiters = [asyncio.ensure_future(halt.wait()), asyncio.ensure_future(stop_event.wait())]
        try:
            await asyncio.wait(waiters, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for w in waiters:
                w.cancel()
        if halted():
            raise _Abandoned

    async def attempt_all(call: Call) -> tuple[CallOutcome, bool]:
        attempt = 0
        while True:
            attempt += 1
            await limiter.acquire()
            if halted() and attempt > 1:
                raise _Abandoned
            stats.attempts += 1
            t0 = time.monotonic()
            invalid: Response | None = None
            try:
                async with asyncio.timeout(timeout_s):
                    response = await model.generate(call.request)
                if validate is not None:
                    try:
                        validate(response)
                    except ModelError:
                        invalid = response
                        raise
                return CallOutcome(call.key, response, None, None, attempt, _since(t0)), False
            except TimeoutError:
                err = ModelError(f"no reply within {timeout_s:g}s", retryable=True)
            except ModelError as exc:
                err = exc
            if not err.retryable or attempt >= max_attempts:
                reason = redact_text(str(err))  # a server may echo the key back
                outcome = CallOutcome(
                    call.key, None, reason, err.status, attempt, _since(t0), invalid
                )
                return outcome, not err.retryable and not err.task_only
            stats.retries += 1
            if progress is not None:
                progress.retried()
            await pause(policy.delay(attempt, err.retry_after))

    async def record(outcome: CallOutcome, fatal: bool) -> None:
        nonlocal in_a_row
        pending = on_outcome(outcome)
        if inspect.isawaitable(pending):
            await pending
        if outcome.response is not None:
            stats.answered += 1
            in_a_row = 0
        else:
            stats.errors += 1
            in_a_row += 1
            if fatal and stats.fatal is None:
                stats.fatal = outcome.error
                halt.set()
            elif in_a_row >= limit_in_a_row and stats.fatal is None:
                stats.fatal = f"{in_a_row} tasks in a row failed; last error: {outcome.error}"
                halt.set()
        if progress is not None:
            progress.advance(error=outcome.response is None)

    async def one(call: Call) -> None:
        try:
            outcome, fatal = await attempt_all(call)
            await record(outcome, fatal)
        except _Abandoned:
            stats.abandoned += 1
        except asyncio.CancelledError:
            stats.abandoned += 1
            raise

    try:
        await run_bounded(
            pull, one, concurrency, halted=halted, stop=stop_event, grace_s=settings.grace_s
        )
    finally:
        close = getattr(calls, "aclose", None)  # an async generator left part-way
        if close is not None:
            await close()
    stats.stopped = stop_event.is_set()
    stats.elapsed_s = _since(started)
    return stats


def _puller(calls: Iterable[Call] | AsyncIterable[Call]) -> Callable[[], Awaitable[Call | None]]:
    """The next call (None at the end), for a plain or an async iterable of calls."""
    if isinstance(calls, AsyncIterable):
        source = aiter(calls)
        lock = asyncio.Lock()  # an async generator is advanced by one worker at a time
        finished = False

        async def pull_async() -> Call | None:
            nonlocal finished
            async with lock:
                if finished:
                    return None
                try:
                    return await anext(source)
                except StopAsyncIteration:
                    finished = True
                    return None

        return pull_async
    it = iter(calls)

    async def pull() -> Call | None:
        return next(it, None)

    return pull


def _since(t0: float) -> float:
    return time.monotonic() - t0
