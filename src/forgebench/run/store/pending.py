"""What is still to be asked: the keys of a model's tasks without an answer, and "this
invocation's tasks" (a TEMP table of the connection that :meth:`TasksPart.put_tasks` fills),
read back in pages so that memory stays flat in the number of tasks (resume rules: ``send/``)."""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Iterator

from forgebench.run.store.base import CURRENT, StoreBase


class PendingPart(StoreBase):
    """Pending tasks, and this invocation's tasks."""

    # -- resume ---------------------------------------------------------------------------------

    def pending(
        self, model: str, *, retry_errors: bool = False, among: Collection[str] | None = None
    ) -> list[str]:
        """Keys of ``model``'s tasks without an answer, in insertion order.

        Errored tasks are left out unless ``retry_errors``; ``among`` narrows to this run's keys.
        """
        sql = (
            f"SELECT t.key FROM tasks t WHERE t.model=? AND t.{CURRENT} "
            "AND NOT EXISTS (SELECT 1 FROM answers a WHERE a.task_key=t.key)"
        )
        if not retry_errors:
            sql += " AND NOT EXISTS (SELECT 1 FROM errors e WHERE e.task_key=t.key)"
        sql += " ORDER BY t.rowid"
        keys = [r[0] for r in self.connection.execute(sql, (model,))]
        if among is not None:
            wanted = among if isinstance(among, set | frozenset | dict) else set(among)
            keys = [k for k in keys if k in wanted]
        return keys

    # -- this invocation's tasks, read back in pages (memory flat in the number of tasks) -------

    def begin_invocation(self) -> None:
        """Start a fresh set of "tasks of this invocation" (a TEMP table of this connection);
        :meth:`put_tasks` adds every task it is given to it."""
        self.connection.execute(
            "CREATE TEMP TABLE IF NOT EXISTS invocation (key TEXT PRIMARY KEY, model TEXT NOT NULL)"
        )
        self.connection.execute("DELETE FROM temp.invocation")
        self._invocation = True

    _PENDING = (
        "FROM temp.invocation i JOIN tasks t ON t.key = i.key "
        f"WHERE i.model = ? AND t.{CURRENT} "
        "AND NOT EXISTS (SELECT 1 FROM answers a WHERE a.task_key = t.key)"
    )

    def _pending_sql(self, retry_errors: bool) -> str:
        sql = self._PENDING
        if not retry_errors:
            sql += " AND NOT EXISTS (SELECT 1 FROM errors e WHERE e.task_key = t.key)"
        return sql

    def invocation_count(self, model: str) -> int:
        """Tasks of ``model`` in this invocation."""
        sql = "SELECT COUNT(*) FROM temp.invocation WHERE model = ?"
        return int(self.connection.execute(sql, (model,)).fetchone()[0])

    def pending_count(self, model: str, *, retry_errors: bool = False) -> int:
        """This invocation's tasks of ``model`` without an answer (errored ones only with
        ``retry_errors``)."""
        sql = "SELECT COUNT(*) " + self._pending_sql(retry_errors)
        return int(self.connection.execute(sql, (model,)).fetchone()[0])

    def pending_pages(
        self, model: str, *, retry_errors: bool = False, page: int = 1000
    ) -> Iterator[list[sqlite3.Row]]:
        """This invocation's pending task rows of ``model`` in insertion order, ``page`` rows at
        a time (each page is read whole, so writes between pages are safe)."""
        sql = "SELECT t.rowid AS rid, t.* " + self._pending_sql(retry_errors)
        yield from self._pages(sql, (model,), page)
