"""The run store's construction steps (schema 4): the finished steps of multi-step candidates
of a construction work folder (``forgebench.construct.steps`` keeps their images), keyed by the
candidate's task key, the step's index and a hash of the step's inputs, with what each cost."""

from __future__ import annotations

import time
from collections.abc import Iterable

from forgebench.run.store.base import StoreBase


class StepsPart(StoreBase):
    """Rows of ``construct_steps``."""

    def step_blob(self, key: str, step: int, inputs: str) -> str | None:
        """The sha256 of a kept step's image, or None."""
        row = self.connection.execute(
            "SELECT sha256 FROM construct_steps WHERE task_key=? AND step=? AND inputs=?",
            (key, step, inputs),
        ).fetchone()
        return None if row is None else str(row[0])

    def step_cost(self, key: str, step: int, inputs: str) -> float:
        """What a kept step cost when it was rendered (0 when not kept)."""
        row = self.connection.execute(
            "SELECT cost FROM construct_steps WHERE task_key=? AND step=? AND inputs=?",
            (key, step, inputs),
        ).fetchone()
        return float(row[0]) if row else 0.0

    def put_step(self, key: str, step: int, inputs: str, sha256: str, cost: float) -> None:
        """Keep a rendered step (a step rendered again adds its cost to the row)."""
        with self._tx():
            self.connection.execute(
                "INSERT INTO construct_steps(task_key, step, inputs, sha256, cost, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(task_key, step, inputs) DO UPDATE SET "
                "sha256=excluded.sha256, cost=cost+excluded.cost, created_at=excluded.created_at",
                (key, step, inputs, sha256, cost, time.time()),
            )

    def kept_steps(self, keys: Iterable[str], *, except_blob: str | None = None) -> dict[str, int]:
        """Steps kept per candidate key (keys without any are left out); rows naming
        ``except_blob`` (a paid reply without a usable image) are not counted."""
        out: dict[str, int] = {}
        for chunk, marks in self._chunks(keys):
            sql = (
                "SELECT task_key, COUNT(DISTINCT step) FROM construct_steps "
                f"WHERE task_key IN ({marks}) AND sha256 IS NOT ? GROUP BY task_key"
            )
            rows = self.connection.execute(sql, [*chunk, except_blob])
            out.update({str(k): int(n) for k, n in rows})
        return out

    def steps_cost(self) -> float:
        """What every kept step cost (finished candidates, unfinished ones and steps whose
        inputs changed since: each was paid for)."""
        row = self.connection.execute("SELECT SUM(cost) FROM construct_steps").fetchone()
        return float(row[0] or 0.0)
