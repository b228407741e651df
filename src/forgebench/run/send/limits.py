"""Requests-per-minute limiting: a token bucket shared by every worker of one model.

The bucket holds at most ``burst`` tokens (default 1: requests are spaced evenly, so no window of
any length ever exceeds the rate) and refills at ``rpm / 60`` tokens per second. Each attempt,
retries included, takes one token: a retry is a request the server counts.
"""

from __future__ import annotations

import asyncio
import time


class RateLimiter:
    """An async token bucket (``rpm`` None: no limit)."""

    def __init__(self, rpm: float | None, *, burst: int = 1) -> None:
        if rpm is not None and rpm <= 0:
            raise ValueError("rpm must be positive")
        self.rate = None if rpm is None else rpm / 60.0
        self.burst = max(1, burst)
        self._tokens = float(self.burst)
        self._stamp = time.monotonic()
        self._lock = asyncio.Lock()

    async def acquire(self) -> None:
        """Wait until a request may be sent, then take its token."""
        if self.rate is None:
            return
        async with self._lock:
            now = time.monotonic()
            self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
            self._stamp = now
            if self._tokens >= 1.0:
                self._tokens -= 1.0
                return
            wait = (1.0 - self._tokens) / self.rate
            # Holding the lock while sleeping keeps waiters in FIFO order.
            await asyncio.sleep(wait)
            self._stamp = time.monotonic()
            self._tokens = 0.0
