"""Per-replica counters of a run, stored in ``RUN/run.sqlite`` table ``replica_stats``.

One row per model and replica URL, cumulative over the invocations of the run (each run adds
what it did): requests sent, answered, failed, not answered in time, times rested and summed
answer latency. The
answers themselves do not say which replica gave them (that is not part of a task). ``forgebench
status`` prints the table when a run used replicas.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from forgebench.models.base import Model
from forgebench.run.store import Store

TABLE = """
CREATE TABLE IF NOT EXISTS replica_stats (
    model         TEXT NOT NULL,
    url           TEXT NOT NULL,
    sent          INTEGER NOT NULL,
    answered      INTEGER NOT NULL,
    errors        INTEGER NOT NULL,
    rests         INTEGER NOT NULL,
    latency_sum_s REAL NOT NULL,
    updated_at    REAL NOT NULL,
    timeouts      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (model, url)
)
"""


def _ensure_table(con: Any) -> None:
    """The table, with the ``timeouts`` column a table of an older run lacks."""
    con.execute(TABLE)
    cols = {r[1] for r in con.execute("PRAGMA table_info(replica_stats)")}
    if "timeouts" not in cols:
        con.execute("ALTER TABLE replica_stats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0")


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


def record_replicas(store: Store, model: Model) -> int:
    """Add a replicated model's counters of this invocation to the run; returns rows written
    (0 for a model with one server)."""
    from forgebench.models.replicas import ReplicatedModel

    if not isinstance(model, ReplicatedModel):
        return 0
    con = store.connection
    _ensure_table(con)
    now = time.time()
    rows = [
        (model.name, s.url, s.sent, s.answered, s.errors, s.rests, s.latency_sum_s, now,
         s.timeouts)
        for s in model.stats()
    ]  # fmt: skip
    con.execute("BEGIN IMMEDIATE")
    try:
        con.executemany(
            "INSERT INTO replica_stats(model, url, sent, answered, errors, rests, latency_sum_s, "
            "updated_at, timeouts) VALUES(?,?,?,?,?,?,?,?,?) ON CONFLICT(model, url) DO UPDATE "
            "SET sent=sent+excluded.sent, answered=answered+excluded.answered, "
            "errors=errors+excluded.errors, rests=rests+excluded.rests, "
            "timeouts=timeouts+excluded.timeouts, "
            "latency_sum_s=latency_sum_s+excluded.latency_sum_s, updated_at=excluded.updated_at",
            rows,
        )
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return len(rows)


def load_replicas(store: Store) -> list[ReplicaRow]:
    """The stored per-replica totals, by model and URL (empty when no run used replicas)."""
    con = store.connection
    if not con.execute(
        "SELECT 1 FROM sqlite_master WHERE type='table' AND name='replica_stats'"
    ).fetchone():
        return []
    cols = {r[1] for r in con.execute("PRAGMA table_info(replica_stats)")}
    late = "timeouts" if "timeouts" in cols else "0"
    sql = (
        f"SELECT model, url, sent, answered, errors, rests, latency_sum_s, {late} "
        "FROM replica_stats ORDER BY model, url"
    )
    return [ReplicaRow(*row) for row in con.execute(sql)]
