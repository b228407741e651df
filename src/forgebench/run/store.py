"""The run store: one SQLite file per run directory (``RUN/run.sqlite``, schema in ``schema.py``).

Write rules that make resume safe:

- every answer is its own transaction, committed as it arrives (WAL journal, ``synchronous=NORMAL``:
  a crash of the process loses nothing committed; a power cut may lose the last few commits, never
  corrupt the file);
- ``answers.task_key`` is the primary key and answers are written with ``INSERT OR IGNORE``, so a
  key can never get a second answer, whatever runs concurrently or again;
- storing an answer deletes the key's error row; storing an error never touches an answer.

During ``run``, pending pages are read on worker threads of the event loop that opened the store
(the connection is opened with ``check_same_thread=False``; SQLite serialises its use), and
answers are written on the store writer's own connection (``writer.py``).

Other stages use :attr:`Store.connection` with plain SQL (scoring reads tasks/answers/items and
writes verdicts/grades). Columns added by this module to the contract schema: ``tasks.image_path``
and ``tasks.media_type`` (where the variant's bytes live, for ``export-batch``).

A task's images: ``variant_id``, ``image_path`` and ``media_type`` describe its first image (as
they always did); a task with more than one image also has ``tasks.images`` (schema 3), a JSON
list of ``[variant_id, path, media_type]`` for every image in order, and NULL otherwise.
:func:`task_images` reads them back.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from forgebench.models.base import ImageRef, Response
from forgebench.run.migrate import SchemaError, migrate
from forgebench.run.tasks import Question, Task, canonical_json
from forgebench.util.redact import redact_known, redact_known_json, redact_text

DB_NAME = "run.sqlite"

SUPERSEDING = """``superseded_by``: a task whose question changed (a fixed typo in an event label, a new prompt
version, an edited image) keeps its row and answer, but the newer task of the same model, item,
probe, condition and extra replaces it: the old row names the new key here. Every stage reads
current tasks only (``superseded_by IS NULL``), so a changed question is asked and scored once."""


CURRENT = "superseded_by IS NULL"
"""SQL condition selecting current (not superseded) task rows."""


@dataclass(frozen=True)
class CountRow:
    """Status counts for one model x probe x condition."""

    model: str
    probe: str
    condition: str
    total: int
    done: int
    errors: int

    @property
    def pending(self) -> int:
        """Tasks with neither an answer nor an error."""
        return self.total - self.done - self.errors


@dataclass(frozen=True)
class TokenRow:
    """Token totals of one model's stored answers."""

    model: str
    answers: int
    input_tokens: int
    output_tokens: int


@dataclass(frozen=True)
class Judgement:
    """One judgement of one task by one judge (a grade, an extracted letter, a gate result)."""

    task_key: str
    judge: str
    """The judge's name, e.g. ``builtin/rules``."""
    kind: str
    """What is judged: ``evidence`` (Mandela E0-E4), ``letter`` (Forensics), ``uptake``, ..."""
    status: str
    """``graded``, ``auto`` (decided without a call) or ``unscored``."""
    version: str
    """Rubric, prompt or gate version."""
    judge_spec: str
    """The judge's spec (no secrets)."""
    value: str | None = None
    """The judgement as text (``E3``, ``B``, ``pass``); None when unscored."""
    level: int | None = None
    """Its numeric form where there is one."""
    reason: str | None = None
    detail: dict[str, Any] = field(default_factory=dict)
    """Kind-specific fields (JSON)."""
    raw: str | None = None
    """The judge's raw output."""
    attempts: int = 1


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


def _known(text: str | None) -> str | None:
    """``text`` without the configured keys' values (an answer or a judge's reply)."""
    return redact_known(text) if text else text


class StoreError(Exception):
    """A run directory that cannot be opened as a store; the message is one clear line."""


class Store:
    """A run directory's SQLite store. Use :meth:`open`; close with :meth:`close` or ``with``."""

    def __init__(self, run_dir: Path, connection: sqlite3.Connection) -> None:
        self.run_dir = run_dir
        self.connection = connection
        """The SQLite connection, for readers and other stages' plain SQL."""
        self._invocation = False

    # -- opening -----------------------------------------------------------------------------

    @classmethod
    def open(cls, run_dir: Path | str, *, create: bool = True) -> Store:
        """Open (and with ``create``, make) ``RUN/run.sqlite`` in WAL mode with the schema."""
        run_dir = Path(run_dir)
        path = run_dir / DB_NAME
        if not create and not path.is_file():
            raise StoreError(f"{run_dir}: not a run directory (no {DB_NAME})")
        try:
            run_dir.mkdir(parents=True, exist_ok=True)
            # the loop's worker threads read pending pages on it (SQLite serialises access)
            con = sqlite3.connect(path, timeout=30.0, isolation_level=None, check_same_thread=False)
            con.execute("PRAGMA foreign_keys=ON")
            migrate(con, str(path))
            con.execute("PRAGMA journal_mode=WAL")
            con.execute("PRAGMA synchronous=NORMAL")
        except SchemaError as exc:
            raise StoreError(str(exc)) from None
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{path}: not a forgebench run store ({exc})") from None
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"{path}: cannot open run store ({exc})") from None
        return cls(run_dir, con)

    def close(self) -> None:
        """Close the connection (everything is already committed)."""
        self.connection.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- meta ----------------------------------------------------------------------------------

    def meta_get(self, key: str, default: Any = None) -> Any:
        """The JSON value stored under ``key`` (``default`` when absent)."""
        row = self.connection.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return default if row is None else json.loads(row[0])

    def meta_set(self, key: str, value: Any) -> None:
        """Store a JSON value under ``key`` (replacing it)."""
        self.connection.execute(
            "INSERT INTO meta(key, value) VALUES(?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value=excluded.value",
            (key, canonical_json(value)),
        )

    # -- items and tasks -------------------------------------------------------------------------

    def put_items(self, benchmark: str, items: Iterable[BaseModel | dict[str, Any]]) -> None:
        """Store a benchmark's items as JSON (the latest data wins: a fixed label reaches
        scoring). An item is a pydantic model or a dict with an ``id`` field."""
        rows = []
        for it in items:
            data = it.model_dump(mode="json") if isinstance(it, BaseModel) else dict(it)
            rows.append((benchmark, str(data["id"]), json.dumps(data, ensure_ascii=False)))
        with self._tx():
            self.connection.executemany(
                "INSERT INTO items(benchmark, item_id, data) VALUES(?, ?, ?) "
                "ON CONFLICT(benchmark, item_id) DO UPDATE SET data=excluded.data",
                rows,
            )

    def items(self, benchmark: str) -> dict[str, dict[str, Any]]:
        """A benchmark's stored items: id -> JSON object."""
        return {
            iid: json.loads(data)
            for iid, data in self.connection.execute(
                "SELECT item_id, data FROM items WHERE benchmark=? ORDER BY rowid", (benchmark,)
            )
        }

    def put_tasks(self, tasks: Iterable[Task]) -> int:
        """Store tasks (``INSERT OR IGNORE``: a key is stored once); returns how many were new.

        A stored task is the current one for its model, item, probe, condition and extra: any
        other task of that identity is marked superseded (and one stored earlier that is given
        again becomes current again).
        """
        now = time.time()
        rows = []
        for t in tasks:
            q = t.question
            rows.append(
                (
                    t.key,
                    q.item_id,
                    q.probe,
                    q.condition,
                    t.model,
                    q.prompt,
                    q.prompt_version,
                    q.image.variant_id if q.image else None,
                    canonical_json(dict(t.params)),
                    canonical_json(dict(q.extra)),
                    now,
                    str(q.image.path) if q.image else None,
                    q.image.media_type if q.image else None,
                    q.benchmark,
                    images_json(q),
                )
            )
            if not q.benchmark:
                raise ValueError(f"task {t.key}: question without a benchmark")
        with self._tx():
            current = self._current_keys([r[0] for r in rows])
            before = self.connection.total_changes
            self.connection.executemany(
                "INSERT OR IGNORE INTO tasks(key, item_id, probe, condition, model, prompt, "
                "prompt_version, variant_id, params, extra, created_at, image_path, media_type, "
                "benchmark, images) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                rows,
            )
            added = self.connection.total_changes - before
            # a stored task's images may live elsewhere now (another --cache-dir): point at them
            self.connection.executemany(
                "UPDATE tasks SET image_path=?, media_type=?, images=? WHERE key=? "
                "AND (image_path IS NOT ? OR media_type IS NOT ? OR images IS NOT ?)",
                [(r[11], r[12], r[14], r[0], r[11], r[12], r[14]) for r in rows],
            )
            if self._invocation:
                self.connection.executemany(
                    "INSERT OR IGNORE INTO temp.invocation(key, model) VALUES(?, ?)",
                    [(r[0], r[4]) for r in rows],
                )
            changed = [r for r in rows if r[0] not in current]
            self.connection.executemany(
                "UPDATE tasks SET superseded_by=? WHERE model=? AND item_id=? AND probe=? "
                "AND condition=? AND extra=? AND key<>?",
                [(r[0], r[4], r[1], r[2], r[3], r[9], r[0]) for r in changed],
            )
            self.connection.executemany(
                "UPDATE tasks SET superseded_by=NULL WHERE key=?", [(r[0],) for r in changed]
            )
            return added

    def _current_keys(self, keys: list[str]) -> set[str]:
        """Those of ``keys`` already stored as current tasks."""
        found: set[str] = set()
        for i in range(0, len(keys), 900):
            chunk = keys[i : i + 900]
            marks = ",".join("?" * len(chunk))
            found.update(
                r[0]
                for r in self.connection.execute(
                    f"SELECT key FROM tasks WHERE key IN ({marks}) AND {CURRENT}", chunk
                )
            )
        return found

    def task_row(self, key: str) -> sqlite3.Row | None:
        """One task's row (``sqlite3.Row``), or None."""
        cur = self.connection.cursor()
        cur.row_factory = sqlite3.Row
        row: sqlite3.Row | None = cur.execute("SELECT * FROM tasks WHERE key=?", (key,)).fetchone()
        return row

    def iter_task_rows(self, keys: Iterable[str]) -> Iterator[sqlite3.Row]:
        """Task rows for ``keys`` in the given order (unknown keys skipped)."""
        for key in keys:
            row = self.task_row(key)
            if row is not None:
                yield row

    def models(self) -> list[str]:
        """Model names that have tasks in this run, sorted."""
        return [
            r[0] for r in self.connection.execute("SELECT DISTINCT model FROM tasks ORDER BY 1")
        ]

    # -- resume --------------------------------------------------------------------------------

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

    # -- this invocation's tasks, read back in pages (memory flat in the number of tasks) ------

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
        row = self.connection.execute(
            "SELECT COUNT(*) FROM temp.invocation WHERE model = ?", (model,)
        ).fetchone()
        return int(row[0])

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
        after = -1
        sql = (
            "SELECT t.rowid AS rid, t.* " + self._pending_sql(retry_errors)
            + " AND t.rowid > ? ORDER BY t.rowid LIMIT ?"
        )  # fmt: skip
        while True:
            cur = self.connection.cursor()
            cur.row_factory = sqlite3.Row
            rows = cur.execute(sql, (model, after, page)).fetchall()
            if not rows:
                return
            yield rows
            after = int(rows[-1]["rid"])

    def answered(self, keys: Iterable[str] | None = None) -> set[str]:
        """Keys that have an answer (all, or among ``keys``)."""
        got = {r[0] for r in self.connection.execute("SELECT task_key FROM answers")}
        return got if keys is None else got & set(keys)

    # -- answers and errors ---------------------------------------------------------------------

    def put_answer(
        self,
        key: str,
        response: Response,
        attempts: int,
        latency_s: float | None,
        request_params: dict[str, Any],
    ) -> bool:
        """Store one answer in its own transaction; False if the key already had one."""
        with self._tx():
            cur = self.connection.execute(
                "INSERT OR IGNORE INTO answers(task_key, text, raw, finish_reason, input_tokens, "
                "output_tokens, latency_s, attempts, request, created_at) "
                "VALUES(?,?,?,?,?,?,?,?,?,?)",
                (
                    key,
                    redact_known(response.text) if response.text else response.text,
                    redact_known_json(json.dumps(response.raw, ensure_ascii=False, default=str)),
                    response.finish_reason,
                    response.usage.input_tokens,
                    response.usage.output_tokens,
                    latency_s,
                    attempts,
                    json.dumps(request_params, ensure_ascii=False, default=str),
                    time.time(),
                ),
            )
            inserted = cur.rowcount == 1
            self.connection.execute("DELETE FROM errors WHERE task_key=?", (key,))
        return inserted

    def put_error(self, key: str, reason: str, status: int | None, attempts: int) -> bool:
        """Store (or update) a task's error; ignored (False) when the key already has an answer."""
        with self._tx():
            if self.connection.execute("SELECT 1 FROM answers WHERE task_key=?", (key,)).fetchone():
                return False
            self.connection.execute(
                "INSERT INTO errors(task_key, reason, status, attempts, updated_at) "
                "VALUES(?,?,?,?,?) ON CONFLICT(task_key) DO UPDATE SET reason=excluded.reason, "
                "status=excluded.status, attempts=excluded.attempts, "
                "updated_at=excluded.updated_at",
                (key, redact_text(reason), status, attempts, time.time()),
            )
        return True

    # -- verdicts, judgements and outputs ---------------------------------------------------------

    def put_verdicts(self, rows: Iterable[tuple[str, str, dict[str, Any], str]]) -> int:
        """Store parsed verdicts ``(task_key, verdict, detail, parser_version)``, replacing a
        key's earlier verdict (a new parser version re-parses); one transaction; the count."""
        data = [(k, v, json.dumps(d, ensure_ascii=False), pv) for k, v, d, pv in rows]
        with self._tx():
            self.connection.executemany(
                "INSERT INTO verdicts(task_key, verdict, detail, parser_version) VALUES(?,?,?,?) "
                "ON CONFLICT(task_key) DO UPDATE SET verdict=excluded.verdict, "
                "detail=excluded.detail, parser_version=excluded.parser_version",
                data,
            )
        return len(data)

    def put_judgement(self, j: Judgement, *, replace: bool = False) -> bool:
        """Store one judgement in its own transaction; an existing (task, judge, kind) is kept
        unless ``replace``. True when written."""
        return self.put_judgements([j], replace=replace) == 1

    def put_judgements(self, rows: Iterable[Judgement], *, replace: bool = False) -> int:
        """Store judgements in one transaction (existing ones kept unless ``replace``); the
        number written."""
        verb = "OR REPLACE" if replace else "OR IGNORE"
        now = time.time()
        data = [
            (j.task_key, j.judge, j.kind, j.value, j.level, j.status, _known(j.reason),
             redact_known_json(json.dumps(j.detail, ensure_ascii=False)), j.version,
             j.judge_spec, _known(j.raw), j.attempts, now)
            for j in rows
        ]  # fmt: skip
        with self._tx():
            before = self.connection.total_changes
            self.connection.executemany(
                f"INSERT {verb} INTO judgements(task_key, judge, kind, value, level, status, "
                "reason, detail, version, judge_spec, raw, attempts, created_at) "
                "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)",
                data,
            )
            return self.connection.total_changes - before

    def judgements(self, judge: str, kind: str) -> dict[str, sqlite3.Row]:
        """One judge's judgements of one kind, by task key."""
        cur = self.connection.cursor()
        cur.row_factory = sqlite3.Row
        return {
            r["task_key"]: r
            for r in cur.execute("SELECT * FROM judgements WHERE judge=? AND kind=?", (judge, kind))
        }

    def put_output(self, key: str, name: str, sha256: str, media_type: str, size: int) -> None:
        """Record a file an answer carries (its bytes live in the blob cache by ``sha256``)."""
        with self._tx():
            self.connection.execute(
                "INSERT OR IGNORE INTO outputs(task_key, name, sha256, media_type, size) "
                "VALUES(?,?,?,?,?)",
                (key, name, sha256, media_type, size),
            )

    def outputs(self, key: str) -> list[tuple[str, str, str, int]]:
        """``(name, sha256, media_type, size)`` of a task's output files."""
        return [
            (n, h, m, int(z))
            for n, h, m, z in self.connection.execute(
                "SELECT name, sha256, media_type, size FROM outputs WHERE task_key=? ORDER BY name",
                (key,),
            )
        ]

    def benchmarks(self) -> list[str]:
        """Benchmarks that have tasks in this run, sorted."""
        return [
            r[0] for r in self.connection.execute("SELECT DISTINCT benchmark FROM tasks ORDER BY 1")
        ]

    # -- status ---------------------------------------------------------------------------------

    def counts(self) -> list[CountRow]:
        """Done / error / total per model x probe x condition, sorted."""
        sql = """
            SELECT t.model, t.probe, t.condition, COUNT(*),
                   SUM(a.task_key IS NOT NULL),
                   SUM(a.task_key IS NULL AND e.task_key IS NOT NULL)
            FROM tasks t
            LEFT JOIN answers a ON a.task_key = t.key
            LEFT JOIN errors e ON e.task_key = t.key
            WHERE t.superseded_by IS NULL
            GROUP BY t.model, t.probe, t.condition
            ORDER BY t.model, t.probe, t.condition
        """
        return [
            CountRow(m, p, c, int(n), int(d or 0), int(e or 0))
            for m, p, c, n, d, e in self.connection.execute(sql)
        ]

    def token_totals(self) -> list[TokenRow]:
        """Answers and input/output token totals per model."""
        sql = """
            SELECT t.model, COUNT(*), COALESCE(SUM(a.input_tokens), 0),
                   COALESCE(SUM(a.output_tokens), 0)
            FROM answers a JOIN tasks t ON t.key = a.task_key
            WHERE t.superseded_by IS NULL
            GROUP BY t.model ORDER BY t.model
        """
        return [TokenRow(m, int(n), int(i), int(o)) for m, n, i, o in self.connection.execute(sql)]

    # -- internals -------------------------------------------------------------------------------

    def _tx(self) -> _Transaction:
        return _Transaction(self.connection)


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (rollback on error) on an autocommit connection."""

    def __init__(self, con: sqlite3.Connection) -> None:
        self.con = con

    def __enter__(self) -> None:
        self.con.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, *rest: object) -> None:
        if exc_type is None:
            self.con.execute("COMMIT")
        else:
            self.con.execute("ROLLBACK")
