"""The run store's per-replica counters (table ``replica_stats``, declared in
:mod:`~forgebench.run.store.schema` since schema 7): one row per model and replica URL,
cumulative over the invocations of the run (each run adds what it did): requests sent, answered,
failed, not answered in time, times rested and summed answer latency. The answers themselves do
not say which replica gave them (that is not part of a task). ``forgebench status`` prints the
rows when a run used replicas; :func:`forgebench.run.send.replicas.record_replicas` adds them."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

from forgebench.run.store.base import StoreBase


@dataclass(frozen=True)
class ReplicaRow:
    """One replica's stored totals."""

    model: str
    url: str
    sent: int
    answered: int
    errors: int
    rests: int
    latency_sum_s: float
    timeouts: int = 0

    @property
    def mean_latency_s(self) -> float | None:
        """Mean latency of its answers (None before the first)."""
        return self.latency_sum_s / self.answered if self.answered else None


class ReplicasPart(StoreBase):
    """Rows of ``replica_stats``."""

    def add_replica_counts(self, rows: Iterable[ReplicaRow]) -> int:
        """Add one invocation's counters to each replica's totals (a new replica gets a row), in
        one transaction; returns the rows given."""
        now = time.time()
        values = [
            (r.model, r.url, r.sent, r.answered, r.errors, r.rests, r.latency_sum_s, now,
             r.timeouts)
            for r in rows
        ]  # fmt: skip
        with self._tx():
            self.connection.executemany(
                "INSERT INTO replica_stats(model, url, sent, answered, errors, rests, "
                "latency_sum_s, updated_at, timeouts) VALUES(?,?,?,?,?,?,?,?,?) "
                "ON CONFLICT(model, url) DO UPDATE "
                "SET sent=sent+excluded.sent, answered=answered+excluded.answered, "
                "errors=errors+excluded.errors, rests=rests+excluded.rests, "
                "timeouts=timeouts+excluded.timeouts, "
                "latency_sum_s=latency_sum_s+excluded.latency_sum_s, updated_at=excluded.updated_at",
                values,
            )
        return len(values)

    def replicas(self) -> list[ReplicaRow]:
        """The stored per-replica totals, by model and URL (empty when no run used replicas)."""
        sql = (
            "SELECT model, url, sent, answered, errors, rests, latency_sum_s, timeouts "
            "FROM replica_stats ORDER BY model, url"
        )
        return [ReplicaRow(*row) for row in self.connection.execute(sql)]
