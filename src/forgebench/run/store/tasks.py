"""The run store's tasks: writing them (with superseding, and a new run's tasks loaded with the
indexes built after the rows), and reading them back by key, probe, model or benchmark.

A task's images: ``variant_id``, ``image_path`` and ``media_type`` describe its first image; a
task with more than one image also has ``tasks.images`` (schema 3), a JSON list of
``[variant_id, path, media_type]`` for every image in order, and NULL otherwise.
:func:`task_images` reads them back.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from forgebench.models.base import ImageRef
from forgebench.run.store.base import CURRENT, StoreBase
from forgebench.run.store.rows import TaskIdentity, json_object
from forgebench.run.store.schema import TASK_INDEXES
from forgebench.run.tasks import Question, Task, canonical_json


def images_json(question: Question) -> str | None:
    """The ``tasks.images`` value of a question: every image in order when it has several."""
    if len(question.images) < 2:
        return None
    return json.dumps([[r.variant_id, str(r.path), r.media_type] for r in question.images])


def task_images(row: sqlite3.Row) -> tuple[ImageRef, ...]:
    """A stored task's images, in order (empty for a text-only task). A store written before
    schema 3, or a task with one image, has only the first-image columns."""
    many = row["images"] if "images" in row.keys() else None  # noqa: SIM118 (Row: in = values)
    if many:
        return tuple(ImageRef(v, Path(p), m or "image/png") for v, p, m in json.loads(many))
    if row["variant_id"] is None:
        return ()
    return (
        ImageRef(
            row["variant_id"], Path(row["image_path"] or ""), row["media_type"] or "image/png"
        ),
    )


_INSERT_TASK = (
    "INTO tasks(key, item_id, probe, condition, model, prompt, prompt_version, variant_id, "
    "params, extra, created_at, image_path, media_type, benchmark, images) "
    "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
)


def _task_rows(tasks: Iterable[Task]) -> list[tuple[Any, ...]]:
    """``tasks`` as rows of :data:`_INSERT_TASK`. What a question and a model's params give
    is made once, however many tasks share them (a question is asked of every model)."""
    now = time.time()
    rows = []
    params: dict[int, tuple[object, str]] = {}
    parts: dict[int, tuple[Question, tuple[Any, ...], tuple[Any, ...], tuple[Any, ...]]] = {}
    for t in tasks:
        q = t.question
        part = parts.get(id(q))
        if part is None or part[0] is not q:
            if not q.benchmark:
                raise ValueError(f"task {t.key}: question without a benchmark")
            im = q.image
            part = parts[id(q)] = (
                q,
                (q.item_id, q.probe, q.condition),
                (q.prompt, q.prompt_version, im.variant_id if im else None),
                (canonical_json(dict(q.extra)), now, str(im.path) if im else None,
                 im.media_type if im else None, q.benchmark, images_json(q)),
            )  # fmt: skip
        enc = params.get(id(t.params))
        if enc is None or enc[0] is not t.params:
            enc = params[id(t.params)] = (t.params, canonical_json(dict(t.params)))
        rows.append((t.key, *part[1], t.model, *part[2], enc[1], *part[3]))
    return rows


def _rollback_journal(con: sqlite3.Connection) -> bool:
    """Switch a WAL store to a rollback journal for one load; False where it stays in WAL (not
    in WAL, or another connection has the store open: SQLite keeps WAL then)."""
    if con.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        return False
    try:
        return bool(con.execute("PRAGMA journal_mode=DELETE").fetchone()[0] == "delete")
    except sqlite3.OperationalError:  # busy: another process holds the store
        return False


class TasksPart(StoreBase):
    """Rows of ``tasks``."""

    def put_tasks(self, tasks: Iterable[Task]) -> int:
        """Store tasks (``INSERT OR IGNORE``: a key is stored once); returns how many were new.

        A stored task is the current one for its model, item, probe, condition and extra: any
        other task of that identity is marked superseded (and one stored earlier that is given
        again becomes current again).
        """
        rows = _task_rows(tasks)
        with self._tx():
            stored = self._stored_keys([r[0] for r in rows])
            before = self.connection.total_changes
            self.connection.executemany("INSERT OR IGNORE " + _INSERT_TASK, rows)
            added = self.connection.total_changes - before
            # a stored task's images may live elsewhere now (another --cache-dir): point at them
            self.connection.executemany(
                "UPDATE tasks SET image_path=?, media_type=?, images=? WHERE key=? "
                "AND (image_path IS NOT ? OR media_type IS NOT ? OR images IS NOT ?)",
                [(r[11], r[12], r[14], r[0], r[11], r[12], r[14]) for r in rows if r[0] in stored],
            )
            if self._invocation:
                self.connection.executemany(
                    "INSERT OR IGNORE INTO temp.invocation(key, model) VALUES(?, ?)",
                    [(r[0], r[4]) for r in rows],
                )
            changed = [r for r in rows if not stored.get(r[0], False)]
            self.connection.executemany(
                "UPDATE tasks SET superseded_by=? WHERE model=? AND item_id=? AND probe=? "
                "AND condition=? AND extra=? AND key<>?",
                [(r[0], r[4], r[1], r[2], r[3], r[9], r[0]) for r in changed],
            )
            # every changed task ends current; one inserted just now can only have been marked
            # above by another changed task of its identity, so only those and the superseded
            # ones stored before need resetting
            ids = Counter((r[4], r[1], r[2], r[3], r[9]) for r in changed)
            self.connection.executemany(
                "UPDATE tasks SET superseded_by=NULL WHERE key=?",
                [
                    (r[0],)
                    for r in changed
                    if r[0] in stored or ids[(r[4], r[1], r[2], r[3], r[9])] > 1
                ],
            )
            return added

    def load_tasks(self, batches: Callable[[], Iterable[Iterable[Task]]]) -> int:
        """Store every batch that ``batches()`` yields, as :meth:`put_tasks` would one batch at a
        time; returns how many tasks were new.

        Into a run without tasks, the tasks are loaded in one transaction with ``tasks``'
        indexes dropped and then built, each from one sort: the rows are written once, in order,
        instead of each random key finding its place in a B-tree (several times faster). That
        transaction uses a rollback journal instead of the write-ahead log (where no other
        connection holds the store): pages appended to the file need no journal entry, so the
        rows reach the file once instead of going through the log and then a checkpoint. A
        process killed before the commit leaves the run as it was, without tasks (the journal
        rolls the file back when it is next opened), and the next prepare loads them again. The result is what batch after batch would store: a key given
        twice keeps its first row (``INSERT OR IGNORE``), and where two keys share an identity
        (superseding would mark one) the load is rolled back and the batches stored one by one.
        """
        con = self.connection
        if con.in_transaction:
            return sum(self.put_tasks(b) for b in batches())
        # nothing references a task of a run without tasks: foreign keys have nothing to check
        # while they load (and removing a key given twice must not ask for its missing index)
        enforced = con.execute("PRAGMA foreign_keys").fetchone()[0]
        con.execute("PRAGMA foreign_keys=OFF")
        journal = _rollback_journal(con)
        try:
            loaded = self._load_new(batches)
        finally:
            con.execute(f"PRAGMA foreign_keys={'ON' if enforced else 'OFF'}")
            if journal:  # back to WAL; busy (another process opened the store meanwhile):
                with contextlib.suppress(sqlite3.OperationalError):  # its next open sets it
                    con.execute("PRAGMA journal_mode=WAL")
        return sum(self.put_tasks(b) for b in batches()) if loaded is None else loaded

    def _load_new(self, batches: Callable[[], Iterable[Iterable[Task]]]) -> int | None:
        """:meth:`load_tasks` into a run without tasks; None (nothing stored) where the run has
        tasks or two keys share an identity."""
        con = self.connection
        con.execute("BEGIN IMMEDIATE")
        try:
            if con.execute("SELECT 1 FROM tasks LIMIT 1").fetchone() is not None:
                con.execute("ROLLBACK")
                return None
            for name in TASK_INDEXES:
                con.execute(f"DROP INDEX IF EXISTS {name}")
            for batch in batches():
                con.executemany("INSERT " + _INSERT_TASK, _task_rows(batch))
            if self._invocation:
                con.execute(
                    "INSERT OR IGNORE INTO temp.invocation(key, model) "
                    "SELECT key, model FROM tasks ORDER BY key"
                )
            try:
                con.execute(TASK_INDEXES["tasks_key"])
            except sqlite3.IntegrityError:  # a key given twice: the first stays
                con.execute(
                    "DELETE FROM tasks WHERE rowid NOT IN (SELECT min(rowid) FROM tasks GROUP BY key)"
                )
                con.execute(TASK_INDEXES["tasks_key"])
            for sql in TASK_INDEXES.values():
                con.execute(sql)
            if self._shared_identity():
                con.execute("ROLLBACK")
                return None
            added = int(con.execute("SELECT COUNT(*) FROM tasks").fetchone()[0])
            con.execute("COMMIT")
            return added
        except BaseException:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise

    def _shared_identity(self) -> bool:
        """Whether two stored tasks share model, item, probe, condition and extra (the index
        answers for all but extra; rows are read only where it finds a group)."""
        groups = (
            "SELECT model, item_id, probe, condition FROM tasks "
            "GROUP BY model, item_id, probe, condition HAVING COUNT(*) > 1"
        )
        if self.connection.execute(groups + " LIMIT 1").fetchone() is None:
            return False
        sql = (
            f"SELECT 1 FROM ({groups}) g JOIN tasks t USING (model, item_id, probe, condition) "
            "GROUP BY t.model, t.item_id, t.probe, t.condition, t.extra HAVING COUNT(*) > 1 LIMIT 1"
        )
        return self.connection.execute(sql).fetchone() is not None

    def _stored_keys(self, keys: list[str]) -> dict[str, bool]:
        """Those of ``keys`` already stored: key -> whether it is current."""
        found: dict[str, bool] = {}
        for chunk, marks in self._chunks(keys):
            sql = f"SELECT key, {CURRENT} FROM tasks WHERE key IN ({marks})"
            found.update((r[0], bool(r[1])) for r in self.connection.execute(sql, chunk))
        return found

    def task_row(self, key: str) -> sqlite3.Row | None:
        """One task's row (``sqlite3.Row``), or None."""
        rows = self._rows("SELECT * FROM tasks WHERE key=?", (key,))
        return rows[0] if rows else None

    def iter_task_rows(self, keys: Iterable[str]) -> Iterator[sqlite3.Row]:
        """Task rows for ``keys`` in the given order (unknown keys skipped)."""
        for key in keys:
            row = self.task_row(key)
            if row is not None:
                yield row

    def current_tasks(self, probe: str) -> list[TaskIdentity]:
        """The current tasks of one probe (any benchmark), in the order they were stored."""
        sql = f"SELECT key, item_id, model, extra FROM tasks WHERE probe=? AND {CURRENT} "
        return [
            TaskIdentity(str(k), str(i), str(m), json_object(e))
            for k, i, m, e in self.connection.execute(sql + "ORDER BY rowid", (probe,))
        ]

    def models(self) -> list[str]:
        """Model names that have tasks in this run, sorted."""
        sql = "SELECT DISTINCT model FROM tasks ORDER BY 1"
        return [r[0] for r in self.connection.execute(sql)]

    def benchmarks(self) -> list[str]:
        """Benchmarks that have tasks in this run, sorted."""
        sql = "SELECT DISTINCT benchmark FROM tasks ORDER BY 1"
        return [r[0] for r in self.connection.execute(sql)]
