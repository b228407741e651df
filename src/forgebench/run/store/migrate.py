"""Store schema versions: upgrade the previous one on open, refuse what this version cannot read.

The rule (DESIGN.md, run directory): a store of the previous schema version is migrated in place,
in one transaction, when it is opened; a store whose version is newer than this forgebench's, or
not a version at all, is refused with one line naming both versions. A store is never downgraded.

Version 1 -> 2 (the benchmark-suite seam): ``items`` gets ``benchmark`` in its primary key and
``tasks`` a ``benchmark`` column. Version-1 stores held Mandela items and tasks, plus the LOC tasks
of ``pixar run`` (which stored no items), so tasks of probe ``LOC`` become ``pixar`` and all others
``mandela``. The ``grades`` rows move into ``judgements`` as kind ``evidence`` (value ``E<level>``,
the two asserted columns in ``detail``) and ``grades`` becomes a view with the old columns. Task
keys, answers, errors and verdicts are untouched, so a migrated run resumes without re-asking.

Version 2 -> 3 (several images per question): ``tasks`` gets the ``images`` column, NULL for
every stored task (a version-2 task has one image at most, already in ``variant_id``). Nothing
else changes, so a migrated run resumes without re-asking.

Version 3 -> 4 (construction steps in the store): the ``construct_steps`` table is created where
it is missing; a construction work folder whose store already has it keeps its rows.

Version 4 -> 5 (Forensics candidate rows as the release sends them): a Forensics task of condition
``full`` whose item is a candidate row (several images that are not a video's frames: a
segmentation or detection question) and which showed one image (the rows tiled into one) becomes
condition ``tiled``. Its key is recomputed as :func:`~forgebench.run.tasks.task_key` makes it for
the same question under ``tiled`` (the tiled image keeps its variant id), and every reference to
the key moves with it: ``answers``, ``errors``, ``outputs``, ``verdicts``, ``judgements``,
``construct_steps`` and ``tasks.superseded_by``. The key hashes the stored generation parameters;
where a model's parameters held a credential (stored redacted), the key cannot be the one a run
makes and that model's ``tiled`` question would be asked again if requested. Nothing is re-asked; the new ``full`` tasks
(the images apart) are pending until a run asks them. The benchmark is named here as data in the
SQL, as the 1 -> 2 step names Mandela and PIXAR; no suite is imported.

Version 5 -> 6 (a new run's tasks stored at the speed of the disk): ``tasks`` is rebuilt with its
key unique through the index ``tasks_key`` instead of the table's primary key (the documented
SQLite table rebuild: a new table, every row copied with its rowid, the old one dropped, the new
one renamed), and its indexes are made again. Columns, rows, rowids and keys are unchanged, so
a migrated run resumes without re-asking. Foreign keys are not enforced while a store migrates
(a table rebuild must not cascade into the tables that name its keys); the steps keep them.

Version 6 -> 7 (every table declared in the schema): ``replica_stats`` is created where it is
missing (a run that never used replicas, or a construction work folder), and gains its
``timeouts`` column (0 for every stored row) where a run made before that column existed
created it without. Its rows are kept as they are.

Version 7 -> 8 (repeats, ``run --epochs N``): ``tasks`` gets the ``epoch`` column (``INTEGER NOT
NULL DEFAULT 1``), so every stored task is epoch 1 under the key it has (the key hashes an epoch
only from 2 on). Nothing else changes: keys, answers and verdicts are untouched and a migrated run
resumes without re-asking; ``run --epochs 2`` on it asks only the second epoch.

Version 8 -> 9 (images that fit each model): ``tasks`` gets the ``resized`` column, NULL for
every stored task (no model had image limits before). Nothing else changes: keys, answers and
every other row are kept, so a migrated run resumes without re-asking.

Version 9 -> 10 (one viewer for all): ``pair_scores`` is created, empty (the per-pair scores of
predictions scored from files were in ``metrics.csv`` only before; ``pixar score --out RUN``
again fills it). Nothing else changes.

A new version adds its step with ``@upgrade(N)`` (from version N to N + 1) and raises
:data:`~forgebench.run.store.schema.SCHEMA_VERSION`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

from forgebench.errors import UserError
from forgebench.models.base import ImageRef
from forgebench.run.store.schema import (
    CONSTRUCT_STEPS,
    JUDGEMENTS,
    PAIR_SCORES,
    REPLICA_STATS,
    SCHEMA,
    SCHEMA_VERSION,
    TASK_INDEXES,
    TASKS,
)  # fmt: skip
from forgebench.run.tasks import Question, task_key
from forgebench.util.registry import Registry


class SchemaError(UserError):
    """A store this version cannot read; the message is one line naming both versions."""


def stored_version(con: sqlite3.Connection) -> int | None:
    """The store's schema version; None for an empty (new) database."""
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if not tables:
        return None
    if "meta" not in tables:
        raise SchemaError(f"not a forgebench run store (tables: {', '.join(sorted(tables))})")
    row = con.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
    if row is None:
        if "tasks" not in tables:
            return None
        cols = {r[1] for r in con.execute("PRAGMA table_info(tasks)")}
        return 3 if "images" in cols else 2 if "benchmark" in cols else 1
    try:
        version = json.loads(row[0])
    except json.JSONDecodeError:
        version = row[0]
    if not isinstance(version, int) or isinstance(version, bool):
        raise SchemaError(
            f"store schema version {version!r} is not one this forgebench knows "
            f"(it reads versions 1..{SCHEMA_VERSION})"
        )
    return version


STEPS: Registry[Callable[[sqlite3.Connection], None]] = Registry("store migration", check=callable)
"""``str(version)`` -> the step that upgrades a store of that version to the next."""


def upgrade(version: int) -> Callable[[Callable[[sqlite3.Connection], None]], Callable[..., None]]:
    """Register the step that upgrades a store of ``version`` to ``version + 1``."""

    def register(step: Callable[[sqlite3.Connection], None]) -> Callable[..., None]:
        STEPS.add(str(version), step, origin="forgebench")
        return step

    return register


@upgrade(1)
def _v1_to_v2(con: sqlite3.Connection) -> None:
    have = {r[1] for r in con.execute("PRAGMA table_info(tasks)")}
    for col, decl in (("image_path", "TEXT"), ("media_type", "TEXT"), ("superseded_by", "TEXT")):
        if col not in have:
            con.execute(f"ALTER TABLE tasks ADD COLUMN {col} {decl}")
    con.execute("ALTER TABLE tasks ADD COLUMN benchmark TEXT NOT NULL DEFAULT 'mandela'")
    con.execute("UPDATE tasks SET benchmark='pixar' WHERE probe='LOC'")
    con.execute("ALTER TABLE items RENAME TO items_v1")
    con.execute(
        "CREATE TABLE items (benchmark TEXT NOT NULL, item_id TEXT NOT NULL, data TEXT NOT NULL, "
        "PRIMARY KEY (benchmark, item_id))"
    )
    con.execute("INSERT INTO items SELECT 'mandela', item_id, data FROM items_v1")
    con.execute("DROP TABLE items_v1")
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    con.execute(JUDGEMENTS.strip().rstrip(";"))
    if "grades" in tables:
        con.execute(
            "INSERT INTO judgements(task_key, judge, kind, value, level, status, reason, detail, "
            "version, judge_spec, raw, attempts, created_at) "
            "SELECT task_key, judge, 'evidence', "
            "CASE WHEN level IS NULL THEN NULL ELSE 'E' || level END, level, status, reason, "
            "json_object('identity_asserted', identity_asserted, "
            "'contradiction_asserted', contradiction_asserted), "
            "rubric_version, judge_spec, raw, attempts, created_at FROM grades"
        )
        con.execute("DROP TABLE grades")


@upgrade(2)
def _v2_to_v3(con: sqlite3.Connection) -> None:
    have = {r[1] for r in con.execute("PRAGMA table_info(tasks)")}
    if "images" not in have:
        con.execute("ALTER TABLE tasks ADD COLUMN images TEXT")


@upgrade(3)
def _v3_to_v4(con: sqlite3.Connection) -> None:
    con.execute(CONSTRUCT_STEPS.strip().rstrip(";"))


KEYED = (
    ("answers", "task_key"),
    ("errors", "task_key"),
    ("outputs", "task_key"),
    ("verdicts", "task_key"),
    ("judgements", "task_key"),
    ("construct_steps", "task_key"),
    ("tasks", "superseded_by"),
)
"""Every column that holds a task key, besides ``tasks.key`` itself."""


def _candidate_row(data: str) -> bool:
    try:
        item = json.loads(data)
    except json.JSONDecodeError:
        return False
    images = item.get("images") if isinstance(item, dict) else None
    return isinstance(images, list) and len(images) > 1 and item.get("modality") != "VID"


@upgrade(4)
def _v4_to_v5(con: sqlite3.Connection) -> None:
    rows = con.execute(
        "SELECT t.key, t.item_id, t.probe, t.model, t.prompt, t.prompt_version, t.variant_id, "
        "t.params, t.image_path, t.media_type, i.data FROM tasks t JOIN items i "
        "ON i.benchmark = t.benchmark AND i.item_id = t.item_id "
        "WHERE t.benchmark = 'forensics' AND t.condition = 'full' AND t.images IS NULL"
    ).fetchall()
    moved: dict[str, str] = {}
    for key, item, probe, model, prompt, version, variant, params, path, media, data in rows:
        if not _candidate_row(data):
            continue
        image = ImageRef(variant, Path(path or ""), media or "") if variant else None
        q = Question(item, probe, "tiled", prompt, version, image=image)
        moved[key] = task_key(q, model, json.loads(params))
    if not moved:
        return
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    con.execute("PRAGMA defer_foreign_keys=ON")  # tasks and their references move together
    pairs = [(new, old) for old, new in moved.items()]
    con.executemany("UPDATE tasks SET key = ?, condition = 'tiled' WHERE key = ?", pairs)
    for table, column in KEYED:
        if table in tables:
            con.executemany(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", pairs)


@upgrade(5)
def _v5_to_v6(con: sqlite3.Connection) -> None:
    old = [r[1] for r in con.execute("PRAGMA table_info(tasks)")]
    con.execute(TASKS.replace("IF NOT EXISTS tasks (", "tasks_v6 (", 1))
    new = {r[1] for r in con.execute("PRAGMA table_info(tasks_v6)")}
    cols = ", ".join(f'"{c}"' for c in old if c in new)
    con.execute(
        f"INSERT INTO tasks_v6(rowid, {cols}) SELECT rowid, {cols} FROM tasks ORDER BY rowid"
    )
    con.execute("DROP TABLE tasks")
    con.execute("ALTER TABLE tasks_v6 RENAME TO tasks")
    for sql in TASK_INDEXES.values():
        con.execute(sql)


@upgrade(6)
def _v6_to_v7(con: sqlite3.Connection) -> None:
    con.execute(REPLICA_STATS.strip().rstrip(";"))
    have = {r[1] for r in con.execute("PRAGMA table_info(replica_stats)")}
    if "timeouts" not in have:
        con.execute("ALTER TABLE replica_stats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0")


@upgrade(7)
def _v7_to_v8(con: sqlite3.Connection) -> None:
    have = {r[1] for r in con.execute("PRAGMA table_info(tasks)")}
    if "epoch" not in have:
        con.execute("ALTER TABLE tasks ADD COLUMN epoch INTEGER NOT NULL DEFAULT 1")


@upgrade(8)
def _v8_to_v9(con: sqlite3.Connection) -> None:
    have = {r[1] for r in con.execute("PRAGMA table_info(tasks)")}
    if "resized" not in have:
        con.execute("ALTER TABLE tasks ADD COLUMN resized TEXT")


@upgrade(9)
def _v9_to_v10(con: sqlite3.Connection) -> None:
    con.execute(PAIR_SCORES.strip().rstrip(";"))


def migrate(con: sqlite3.Connection, where: str) -> int | None:
    """Bring an open store to :data:`SCHEMA_VERSION`; returns the version it had (None: new).

    ``where`` names the file in messages. Raises :class:`SchemaError` for a newer or unknown
    version. The connection must be in autocommit mode (``isolation_level=None``).
    """
    try:
        version = stored_version(con)
    except SchemaError as exc:
        raise SchemaError(f"{where}: {exc}") from None
    if version is not None and version > SCHEMA_VERSION:
        raise SchemaError(
            f"{where}: store schema version {version} is newer than this forgebench's "
            f"({SCHEMA_VERSION}); upgrade forgebench to read it"
        )
    if version is not None and version < SCHEMA_VERSION:
        if any(str(v) not in STEPS for v in range(version, SCHEMA_VERSION)):
            raise SchemaError(
                f"{where}: store schema version {version} cannot be upgraded to "
                f"{SCHEMA_VERSION} by this forgebench"
            )
        enforced = con.execute("PRAGMA foreign_keys").fetchone()[0]
        con.execute("PRAGMA foreign_keys=OFF")  # takes effect outside a transaction only
        con.execute("BEGIN IMMEDIATE")
        try:
            v = version
            while v < SCHEMA_VERSION:
                STEPS.get(str(v))(con)
                v += 1
            con.execute(
                "INSERT INTO meta(key, value) VALUES('schema_version', ?) "
                "ON CONFLICT(key) DO UPDATE SET value=excluded.value",
                (json.dumps(SCHEMA_VERSION),),
            )
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
        finally:
            con.execute(f"PRAGMA foreign_keys={'ON' if enforced else 'OFF'}")
    con.executescript(SCHEMA)
    if version is None:
        con.execute(
            "INSERT OR IGNORE INTO meta(key, value) VALUES('schema_version', ?)",
            (json.dumps(SCHEMA_VERSION),),
        )
    return version
