"""One model served by several replicas (``openai/M@URL1,URL2`` or ``base_urls = [...]``).

:class:`ReplicatedModel` is a :class:`~forgebench.models.base.Model` over one backend per
replica. The runner keeps its one queue per model and its ``concurrency``; each request goes to
the replica with the fewest requests in flight (ties: the one chosen least recently, so idle
replicas take turns).

Health:

- a refused connection, a request with no reply within ``timeout_s`` (whichever timeout fires,
  the backend's or the runner's) and a redirect the backend refuses rest the replica at once;
  ``fail_after`` failures in a row of another kind (a dropped connection, HTTP 5xx, a reply that
  is not a chat completion) rest it too. 429 and other 4xx say nothing about the replica's
  health and do not count;
- a rested replica gets no request for ``rest_base_s``, doubled after each failed probe up to
  ``rest_cap_s``; then exactly one request probes it (the next one to arrive) and an answer
  brings it back;
- a request whose connection failed (refused or dropped) or that was redirected is sent again at
  once to another replica that has not yet failed it, within the same runner attempt; other
  failures (a timeout included: the attempt's time is spent) go back to the runner, which
  retries with backoff as for one server, and the retry goes to another replica, the failed one
  resting. When every replica is resting, the
  attempt fails as retryable with ``retry_after`` set to the next probe.

Answers do not depend on the replica: task keys hash the model's name and generation
parameters, never its URLs, so adding, removing or moving replicas re-asks nothing.
:meth:`ReplicatedModel.stats` gives per-replica counts, errors and latency (shown in the
progress, stored by ``run/send/replicas.py``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from forgebench.models.base import Model, ModelError, ReplyTimeout, Request, Response


@dataclass(frozen=True)
class ReplicaPolicy:
    """When a replica is rested and for how long."""

    fail_after: int = 3
    """Failures in a row (other than a refused connection) that rest a replica."""
    rest_base_s: float = 1.0
    """First rest; doubled after each failed probe."""
    rest_cap_s: float = 30.0
    """Longest rest."""


@dataclass
class ReplicaStats:
    """One replica's counters for this process (requests, not tasks)."""

    url: str
    sent: int = 0
    """Requests sent to it (probes and failovers included)."""
    answered: int = 0
    """Requests it answered."""
    errors: int = 0
    """Requests that failed there (any reason, timeouts included)."""
    timeouts: int = 0
    """Requests it did not answer within the timeout."""
    rests: int = 0
    """Times it was rested."""
    latency_sum_s: float = 0.0
    """Summed latency of its answers."""
    in_flight: int = 0
    """Requests in flight now."""
    resting: bool = False
    """True while it is rested (or being probed)."""

    @property
    def mean_latency_s(self) -> float | None:
        """Mean latency of its answers (None before the first)."""
        return self.latency_sum_s / self.answered if self.answered else None


@dataclass
class _Replica:
    backend: Model
    stats: ReplicaStats
    streak: int = 0
    rest_until: float | None = None
    """Monotonic time the rest ends; None when up."""
    rest_s: float = 0.0
    probing: bool = False
    last_pick: int = -1
    last_error: str | None = None


def _is_transport(exc: ModelError) -> bool:
    # inside: light path (a run of builtin models loads replicas, not aiohttp)
    from forgebench.models.openai_compat import TransportError

    return isinstance(exc, TransportError)


def _refused(exc: ModelError) -> bool:
    return bool(getattr(exc, "refused", False))


def _redirected(exc: ModelError) -> bool:
    # inside: light path (a run of builtin models loads replicas, not aiohttp)
    from forgebench.models.openai_compat import RedirectRefused

    return isinstance(exc, RedirectRefused)


def _counts_against(exc: ModelError) -> bool:
    """Failures that say the replica is unhealthy (not 429 or a client error)."""
    if exc.status is None:
        return exc.retryable
    return exc.status >= 500


class ReplicatedModel:
    """A model over several replicas, least-outstanding-requests balanced."""

    def __init__(
        self,
        name: str,
        backends: list[Any],
        *,
        policy: ReplicaPolicy | None = None,
        clock: Callable[[], float] = time.monotonic,
        timeout_s: float | None = None,
    ) -> None:
        if not backends:
            raise ValueError("a replicated model needs at least one replica")
        self.name = name
        self.policy = policy or ReplicaPolicy()
        self._clock = clock
        self.timeout_s = timeout_s
        """The per-attempt timeout (a cancellation that comes this late is a timeout)."""
        self._replicas = [
            _Replica(b, ReplicaStats(str(getattr(b, "base_url", f"replica{i + 1}"))))
            for i, b in enumerate(backends)
        ]
        self._picks = 0

    @property
    def urls(self) -> list[str]:
        """The replicas' URLs, in the order given."""
        return [r.stats.url for r in self._replicas]

    def stats(self) -> list[ReplicaStats]:
        """Per-replica counters (live objects; copy to keep a snapshot)."""
        return [r.stats for r in self._replicas]

    def summary(self) -> str:
        """``:8001 12 ok 0 err 31ms | :8002 (resting) 3 ok 4 err 30ms``."""
        parts = []
        for r in self._replicas:
            s = r.stats
            lat = f"{s.mean_latency_s * 1000:.0f}ms" if s.mean_latency_s is not None else "-"
            state = " (resting)" if s.resting else ""
            late = f" {s.timeouts} timeout" if s.timeouts else ""
            parts.append(f"{_short(s.url)}{state} {s.answered} ok {s.errors} err{late} {lat}")
        return " | ".join(parts)

    def describe_request(self, request: Request) -> dict[str, Any]:
        """What the first replica would send (every replica sends the same body)."""
        describe = getattr(self._replicas[0].backend, "describe_request", None)
        if callable(describe):
            out: dict[str, Any] = describe(request)
            return out
        return {"model": self.name, "prompt": request.prompt}

    # -- choosing --------------------------------------------------------------------------------

    def _pick(self, exclude: set[int]) -> int | None:
        now = self._clock()
        due = [
            i
            for i, r in enumerate(self._replicas)
            if i not in exclude
            and r.rest_until is not None
            and not r.probing
            and r.rest_until <= now
        ]
        if due:  # a rested replica whose rest is over: this request probes it
            i = min(due, key=lambda j: self._replicas[j].rest_until or 0.0)
            self._replicas[i].probing = True
            return i
        up = [i for i, r in enumerate(self._replicas) if i not in exclude and r.rest_until is None]
        if not up:
            return None
        return min(
            up, key=lambda j: (self._replicas[j].stats.in_flight, self._replicas[j].last_pick)
        )

    def _next_probe_in(self) -> float:
        now = self._clock()
        ends = [r.rest_until for r in self._replicas if r.rest_until is not None and not r.probing]
        return max(0.0, min(ends) - now) if ends else self.policy.rest_base_s

    # -- outcomes --------------------------------------------------------------------------------

    def _rest(self, r: _Replica) -> None:
        p = self.policy
        r.rest_s = p.rest_base_s if r.rest_until is None else min(p.rest_cap_s, r.rest_s * 2)
        r.rest_until = self._clock() + r.rest_s
        r.stats.rests += 1
        r.stats.resting = True
        r.streak = 0

    def _failed(self, r: _Replica, exc: ModelError) -> None:
        r.stats.errors += 1
        r.last_error = str(exc)
        was_probe = r.probing
        r.probing = False
        if not _counts_against(exc):
            if was_probe:  # reached and answered sensibly (e.g. 429): it is up again
                self._recovered(r)
            return
        if r.rest_until is not None and not was_probe:
            return  # sent before it was rested: the rest already counts this outage
        r.streak += 1
        if was_probe or _refused(exc) or r.streak >= self.policy.fail_after:
            self._rest(r)

    def _down(self, r: _Replica, why: str, *, timeout: bool = False) -> None:
        """A failure that rests the replica at once (no reply in time, a refused redirect)."""
        r.stats.errors += 1
        r.stats.timeouts += timeout
        r.last_error = why
        was_probe = r.probing
        r.probing = False
        if r.rest_until is not None and not was_probe:
            return  # sent before it was rested: the rest already counts this outage
        self._rest(r)

    def _recovered(self, r: _Replica) -> None:
        r.streak = 0
        r.rest_until = None
        r.rest_s = 0.0
        r.stats.resting = False

    def _answered(self, r: _Replica, latency_s: float) -> None:
        r.probing = False
        r.stats.answered += 1
        r.stats.latency_sum_s += latency_s
        self._recovered(r)

    # -- the Model interface ---------------------------------------------------------------------

    async def generate(self, request: Request) -> Response:
        """Send to the least busy healthy replica; fail over once per replica on a broken
        connection."""
        tried: set[int] = set()
        last: ModelError | None = None
        while True:
            i = self._pick(tried)
            if i is None:
                if last is not None:
                    raise last
                wait = self._next_probe_in()
                why = [f"{_short(r.stats.url)}: {r.last_error}" for r in self._replicas]
                raise ModelError(
                    f"all {len(self._replicas)} replicas of {self.name} are resting "
                    f"(next probe in {wait:.1f}s); last errors: {'; '.join(why)}",
                    retryable=True,
                    retry_after=wait,
                )
            tried.add(i)
            r = self._replicas[i]
            self._picks += 1
            r.last_pick = self._picks
            r.stats.sent += 1
            r.stats.in_flight += 1
            t0 = time.monotonic()
            try:
                response = await r.backend.generate(request)
            except ReplyTimeout as exc:
                self._down(r, str(exc), timeout=True)
                raise
            except ModelError as exc:
                if _redirected(exc):
                    self._down(r, str(exc))
                    last = exc
                    continue
                self._failed(r, exc)
                if _is_transport(exc):
                    last = exc
                    continue
                raise
            except asyncio.CancelledError:
                # the runner's timeout (the replica did not answer in time: its failure) or a
                # stop (not the replica's doing)
                late = self.timeout_s is not None and time.monotonic() - t0 >= 0.95 * self.timeout_s
                if late:
                    self._down(r, f"no reply within {self.timeout_s:g}s", timeout=True)
                else:
                    r.probing = False
                raise
            finally:
                r.stats.in_flight -= 1
            self._answered(r, time.monotonic() - t0)
            return response

    async def aclose(self) -> None:
        """Close every replica's connections."""
        for r in self._replicas:
            await r.backend.aclose()


def _short(url: str) -> str:
    """``http://127.0.0.1:8001/v1`` -> ``127.0.0.1:8001``."""
    rest = url.split("://", 1)[-1]
    return rest.split("/", 1)[0]
