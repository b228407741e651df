"""What every part of the run store shares: its connection, transactions and row helpers.

:class:`forgebench.run.store.Store` is assembled from one part per family of tables (``items``,
``tasks``, ``pending``, ``answers``, ``judgements``, ``records``, ``columns``, ``steps``,
``replicas``); each part is a mixin over :class:`StoreBase`, so a stage sees one object with
typed methods and no SQL.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

CURRENT = "superseded_by IS NULL"
"""SQL condition selecting current (not superseded) task rows."""

SUPERSEDING = """``superseded_by``: a task whose question changed (a fixed typo in an event label, a new prompt
version, an edited image) keeps its row and answer, but the newer task of the same model, item,
probe, condition and extra replaces it: the old row names the new key here. Every stage reads
current tasks only (``superseded_by IS NULL``), so a changed question is asked and scored once."""

CHUNK = 900
"""Keys per ``IN (...)`` list (below SQLite's limit of bound parameters)."""


class StoreBase:
    """The connection and the helpers every store part uses."""

    connection: sqlite3.Connection
    """The SQLite connection (autocommit; transactions through :meth:`_tx`)."""
    run_dir: Path
    """The run directory (named in the errors about its rows)."""
    _invocation: bool = False
    """Whether :meth:`~forgebench.run.store.tasks.TasksPart.put_tasks` adds what it stores to
    this invocation's tasks (:meth:`~forgebench.run.store.pending.PendingPart.begin_invocation`)."""

    def _tx(self) -> _Transaction:
        return _Transaction(self.connection)

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        """Every row of a query as :class:`sqlite3.Row` (read whole: safe to write after)."""
        cur = self.connection.cursor()
        cur.row_factory = sqlite3.Row
        return cur.execute(sql, params).fetchall()

    def _pages(
        self, sql: str, params: Sequence[Any] = (), page: int = 2000
    ) -> Iterator[list[sqlite3.Row]]:
        """The rows of ``sql`` in pages of ``page``, each read whole (writes between pages are
        safe). ``sql`` selects ``t.rowid AS rid`` and ends with a condition, so that
        ``AND t.rowid > ? ORDER BY t.rowid LIMIT ?`` can follow it."""
        after = -1
        full = sql + " AND t.rowid > ? ORDER BY t.rowid LIMIT ?"
        while True:
            rows = self._rows(full, (*params, after, page))
            if not rows:
                return
            yield rows
            after = int(rows[-1]["rid"])

    def _chunks(self, keys: Iterable[str]) -> Iterator[tuple[list[str], str]]:
        """``keys`` (deduplicated, in order) in chunks, each with its ``?,?,..`` placeholders."""
        wanted = list(dict.fromkeys(keys))
        for i in range(0, len(wanted), CHUNK):
            chunk = wanted[i : i + CHUNK]
            yield chunk, ",".join("?" * len(chunk))


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (rollback on error) on an autocommit connection; a
    transaction already open on the connection is joined (committed by its owner)."""

    def __init__(self, con: sqlite3.Connection) -> None:
        self.con = con
        self.owner = False

    def __enter__(self) -> None:
        self.owner = not self.con.in_transaction
        if self.owner:
            self.con.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, *rest: object) -> None:
        if not self.owner:
            return
        if exc_type is None:
            self.con.execute("COMMIT")
        else:
            self.con.execute("ROLLBACK")
