"""Retry policy: exponential backoff with full jitter, honouring ``Retry-After``.

Attempt ``n`` (1-based) that failed waits ``uniform(0, min(cap, base * 2**(n-1)))`` seconds
("full jitter": concurrent clients that failed together do not retry together). When the server
sent ``Retry-After``, the wait is at least that long (capped at ``max_retry_after`` so a
misconfigured server cannot park a run for hours).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass
class RetryPolicy:
    """How long to wait before the next attempt."""

    base_s: float = 1.0
    """Upper bound of the first wait; doubles with each attempt."""
    cap_s: float = 60.0
    """Largest backoff upper bound."""
    max_retry_after_s: float = 300.0
    """Largest ``Retry-After`` honoured."""
    rng: random.Random = field(default_factory=random.Random)
    """Jitter source (seed it for reproducible tests)."""

    def delay(self, attempt: int, retry_after: float | None = None) -> float:
        """Seconds to wait after failed attempt ``attempt`` (1-based)."""
        bound = min(self.cap_s, self.base_s * (2 ** max(0, attempt - 1)))
        wait = self.rng.uniform(0.0, bound)
        if retry_after is not None:
            wait = max(wait, min(retry_after, self.max_retry_after_s))
        return wait
