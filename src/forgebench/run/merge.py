"""Merge run directories made on different machines (``forgebench merge RUN1 RUN2 ... --out RUN``).

Every table of the sources' ``run.sqlite`` is unioned by its primary key, so tables and columns
added later merge the same way. Rows with the same key must agree on what they say; which
columns are compared:

- ``answers``: the answer ``text`` (latency, attempts, raw reply ids and times may differ: the
  first source's row is kept);
- ``items``: the item's JSON; ``verdicts``: verdict, detail and parser version;
- ``judgements`` (key ``task_key, judge, kind``; ``grades`` is a view of them): value, level,
  status and version. Judgements of different judges are different rows, so every judge's
  grades are kept;
- ``outputs``: the content hash, media type and size;
- ``tasks``: nothing (the key hashes the question, the model and its parameters). A task
  superseded in any source stays superseded; two *current* tasks for one model, item, probe,
  condition and extra (the question changed between the runs) are a conflict;
- ``errors``: dropped for tasks answered in any source; otherwise the latest one is kept;
- ``meta``: ``model:NAME`` identities (provider, model id, generation parameters) must agree;
  ``settings`` of each source are kept under ``merged_from``; ``datasets`` (one folder per
  benchmark) is the union, the first source's folder winning; other keys: the first source's;
- ``replica_stats``: counts added;
- any other table: every column except times (``*_at``) and ``raw``/``latency_s``/``attempts``.

Sources are opened once as stores first (an older store schema is upgraded in place, as any
command does). Any disagreement refuses the whole merge (:class:`MergeError` naming the table and up to five
keys) and nothing is written. The merged run is built in a temporary folder beside ``--out`` and
renamed into place. ``config.json`` lists every source's models. ``metrics.csv`` is written by
``run/merge_metrics.py``: each benchmark whose suite scores runs (Mandela) is scored again on the
merged store for every judge, so it equals that of one run that did everything; other rows are
kept when a model's rows come from one source only, and otherwise left out with a note.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from forgebench.errors import UserError
from forgebench.run.merge_metrics import Rescore, merge_metrics
from forgebench.run.rundir import RunDir
from forgebench.run.store import Store, StoreError
from forgebench.run.tasks import canonical_json
from forgebench.util.atomic import clean_stale, write_text

FIRST_TABLES = ("items", "tasks", "answers", "errors", "outputs", "verdicts", "judgements")
"""Merged in this order (foreign keys point backwards); other tables follow, by name."""

COMPARED: dict[str, tuple[str, ...]] = {
    "answers": ("text",),
    "items": ("data",),
    "verdicts": ("verdict", "detail", "parser_version"),
    "judgements": ("value", "level", "status", "version"),
    "outputs": ("sha256", "media_type", "size"),
    "tasks": (),
    "errors": (),
    "replica_stats": (),
}
"""Columns that must agree for rows of one key (other tables: see :func:`_compared`)."""

VOLATILE = frozenset({"raw", "latency_s", "attempts", "request", "image_path", "media_type"})
SHOWN = 5


class MergeError(UserError):
    """Runs that cannot be merged; one clear line."""


@dataclass
class MergeStats:
    """What :func:`merge_runs` did."""

    rows: dict[str, int] = field(default_factory=dict)
    """Rows in the merged run, per table."""
    duplicates: dict[str, int] = field(default_factory=dict)
    """Rows found in more than one source and collapsed, per table."""
    judges: list[str] = field(default_factory=list)
    """Judges whose grades the merged run holds."""
    notes: list[str] = field(default_factory=list)
    """Things the user should know (dropped rows of other benchmarks)."""


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _columns(con: sqlite3.Connection, schema: str, table: str) -> list[tuple[str, str, int]]:
    """``(name, declared type, pk position)`` of a table's columns."""
    rows = con.execute(f"PRAGMA {schema}.table_info({_q(table)})").fetchall()
    return [(r[1], r[2], r[5]) for r in rows]


def _key_columns(con: sqlite3.Connection, schema: str, table: str) -> list[str]:
    """A table's key: its primary key, else the columns of its first unique index (``tasks``
    keeps its key unique through an index, schema 6)."""
    info = _columns(con, schema, table)
    pk = [c for c, _, p in sorted(info, key=lambda x: x[2]) if p > 0]
    if pk:
        return pk
    for _seq, name, unique, origin, partial in con.execute(
        f"PRAGMA {schema}.index_list({_q(table)})"
    ):
        if unique and not partial and origin == "c":
            return [r[2] for r in con.execute(f"PRAGMA {schema}.index_info({_q(name)})")]
    return []


def _tables(con: sqlite3.Connection, schema: str) -> list[str]:
    sql = f"SELECT name FROM {schema}.sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'"
    return [r[0] for r in con.execute(sql)]


def _compared(table: str, cols: list[str], pk: list[str]) -> list[str]:
    if table in COMPARED:
        return [c for c in COMPARED[table] if c in cols]
    return [c for c in cols if c not in pk and not c.endswith("_at") and c not in VOLATILE]


def _ensure_table(con: sqlite3.Connection, table: str) -> None:
    """Create ``table`` in main like the source's, or add the source's missing columns."""
    if table not in _tables(con, "main"):
        sql = con.execute(
            "SELECT sql FROM src.sqlite_master WHERE type='table' AND name=?", (table,)
        ).fetchone()[0]
        con.execute(sql)
        return
    have = {c for c, _, _ in _columns(con, "main", table)}
    for name, decl, _ in _columns(con, "src", table):
        if name not in have:
            con.execute(f"ALTER TABLE main.{_q(table)} ADD COLUMN {_q(name)} {decl}")


def _conflicts(con: sqlite3.Connection, table: str, pk: list[str], cmp: list[str]) -> list[str]:
    if not pk or not cmp:
        return []
    on = " AND ".join(f"m.{_q(c)} = s.{_q(c)}" for c in pk)
    same = " AND ".join(f"m.{_q(c)} IS s.{_q(c)}" for c in cmp)
    keys = ", ".join(f"m.{_q(c)}" for c in pk)
    sql = f"SELECT {keys} FROM main.{_q(table)} m JOIN src.{_q(table)} s ON {on} WHERE NOT ({same}) ORDER BY {keys}"
    return ["/".join(str(v) for v in row) for row in con.execute(sql)]


def _count_shared(con: sqlite3.Connection, table: str, pk: list[str]) -> int:
    if not pk:
        return 0
    on = " AND ".join(f"m.{_q(c)} = s.{_q(c)}" for c in pk)
    sql = f"SELECT COUNT(*) FROM main.{_q(table)} m JOIN src.{_q(table)} s ON {on}"
    return int(con.execute(sql).fetchone()[0])


def _insert(con: sqlite3.Connection, table: str, cols: list[str], pk: list[str]) -> None:
    names = ", ".join(_q(c) for c in cols)
    if pk:
        con.execute(
            f"INSERT OR IGNORE INTO main.{_q(table)} ({names}) SELECT {names} FROM src.{_q(table)}"
        )
    else:
        con.execute(
            f"INSERT INTO main.{_q(table)} ({names}) SELECT {names} FROM src.{_q(table)} "
            f"EXCEPT SELECT {names} FROM main.{_q(table)}"
        )


def _merge_errors(con: sqlite3.Connection, cols: list[str]) -> None:
    names = ", ".join(_q(c) for c in cols)
    con.execute(
        f"INSERT INTO main.errors ({names}) SELECT {names} FROM src.errors s WHERE true "
        "ON CONFLICT(task_key) DO UPDATE SET reason=excluded.reason, status=excluded.status, "
        "attempts=excluded.attempts, updated_at=excluded.updated_at "
        "WHERE excluded.updated_at > errors.updated_at"
    )


def _merge_replica_stats(con: sqlite3.Connection, cols: list[str]) -> None:
    names = ", ".join(_q(c) for c in cols)
    added = ("sent", "answered", "errors", "rests", "latency_sum_s")
    sets = ", ".join(f"{c}={c}+excluded.{c}" for c in added)
    con.execute(
        f"INSERT INTO main.replica_stats ({names}) SELECT {names} FROM src.replica_stats s "
        f"WHERE true ON CONFLICT(model, url) DO UPDATE SET {sets}"
    )


def _json(text: str | None, where: str) -> Any:
    """A stored JSON value; :class:`MergeError` naming ``where`` when it is not JSON."""
    try:
        return json.loads(text) if text is not None else None
    except (TypeError, ValueError, RecursionError):
        raise MergeError(f"{where}: not JSON (a damaged or foreign run?)") from None


def _identity(value: Any) -> Any:
    return value.get("identity") if isinstance(value, dict) else value


def _merge_meta(con: sqlite3.Connection, source: Path, merged_from: list[dict[str, Any]]) -> None:
    rows = dict(con.execute("SELECT key, value FROM src.meta"))
    mine = dict(con.execute("SELECT key, value FROM main.meta"))
    for key, value in rows.items():
        if key.startswith("model:") and key in mine:
            a, b = (
                _identity(_json(mine[key], f"an earlier run's meta entry {key!r}")),
                _identity(_json(value, f"{source}: meta entry {key!r}")),
            )
            if a != b:
                raise MergeError(
                    f"model {key[6:]!r} ran with other settings in {source} ({b}) than in an "
                    f"earlier run ({a}); merge runs of one model only when they asked the same"
                )
        if key == "schema_version" and key in mine and mine[key] != value:
            raise MergeError(f"{source}: store schema version {value}, others have {mine[key]}")
    settings = rows.get("settings")
    merged_from.append(
        {"run": str(source), "settings": _json(settings, f"{source}: meta entry 'settings'")}
    )
    con.executemany(
        "INSERT OR IGNORE INTO main.meta(key, value) VALUES(?, ?)",
        [(k, v) for k, v in rows.items() if k not in ("settings", "merged_from", "datasets")],
    )
    if "datasets" in rows:  # one folder per benchmark: the union (the first run's folder wins)
        theirs = _json(rows["datasets"], f"{source}: meta entry 'datasets'")
        ours = _json(mine.get("datasets", "{}"), "meta entry 'datasets'")
        if not isinstance(theirs, dict) or not isinstance(ours, dict):
            raise MergeError(f"{source}: meta entry 'datasets' is not a JSON object")
        folders = {**theirs, **ours}
        con.execute(
            "INSERT OR REPLACE INTO main.meta(key, value) VALUES('datasets', ?)",
            (canonical_json(folders),),
        )


def _check_current(con: sqlite3.Connection) -> None:
    sql = (
        "SELECT model, item_id, probe, condition, group_concat(key, ' ') FROM main.tasks "
        "WHERE superseded_by IS NULL GROUP BY model, item_id, probe, condition, extra "
        "HAVING COUNT(*) > 1"
    )
    rows = con.execute(sql).fetchall()
    if rows:
        m, item, probe, cond, keys = rows[0]
        raise MergeError(
            f"tasks: {len(rows)} questions differ between the runs (e.g. model {m}, item {item}, "
            f"{probe}/{cond}: current tasks {keys}); rerun the older run with the current "
            "dataset and prompts, then merge"
        )


def _refuse(table: str, keys: list[str], source: Path) -> MergeError:
    shown = ", ".join(keys[:SHOWN]) + (f", ... ({len(keys)} in all)" if len(keys) > SHOWN else "")
    what = {"answers": "answers differ", "judgements": "grades differ"}.get(table, "rows differ")
    return MergeError(f"{table}: {what} for the same key in {source} and an earlier run: {shown}")


def _merge_source(
    con: sqlite3.Connection, source: Path, stats: MergeStats, merged_from: list[dict[str, Any]]
) -> None:
    con.execute("ATTACH DATABASE ? AS src", (str(RunDir(source).db),))
    try:
        con.execute("BEGIN IMMEDIATE")
        _merge_meta(con, source, merged_from)
        src_tables = set(_tables(con, "src")) - {"meta"}
        order = [t for t in FIRST_TABLES if t in src_tables]
        order += sorted(src_tables - set(FIRST_TABLES))
        for table in order:
            _ensure_table(con, table)
            info = _columns(con, "src", table)
            cols = [c for c, _, _ in info]
            pk = _key_columns(con, "src", table)
            bad = _conflicts(con, table, pk, _compared(table, cols, pk))
            if bad:
                raise _refuse(table, bad, source)
            stats.duplicates[table] = stats.duplicates.get(table, 0) + _count_shared(con, table, pk)
            if table == "errors":
                _merge_errors(con, cols)
            elif table == "replica_stats":
                _merge_replica_stats(con, cols)
            else:
                _insert(con, table, cols, pk)
            if table == "tasks":
                con.execute(
                    "UPDATE main.tasks SET superseded_by = (SELECT s.superseded_by FROM src.tasks s "
                    "WHERE s.key = tasks.key) WHERE superseded_by IS NULL AND EXISTS (SELECT 1 "
                    "FROM src.tasks s WHERE s.key = tasks.key AND s.superseded_by IS NOT NULL)"
                )
        con.execute("COMMIT")
    except BaseException:
        if con.in_transaction:
            con.execute("ROLLBACK")
        raise
    finally:
        con.execute("DETACH DATABASE src")


def _write_config(out: Path, sources: Sequence[Path]) -> None:
    configs = []
    for s in sources:
        path = s / "config.json"
        if path.is_file():
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise MergeError(f"{path}: cannot read ({exc})") from None
            config = _json(text, str(path))
            if not isinstance(config, dict):
                raise MergeError(f"{path}: not a JSON object")
            configs.append(config)
    if not configs:
        return
    merged = dict(configs[0])
    models: dict[str, Any] = {}
    for c in configs:
        for m in c.get("models", []):
            models.setdefault(str(m.get("spec")), m)
    merged["models"] = list(models.values())
    merged["merged_from"] = [str(s) for s in sources]
    write_text(out / "config.json", json.dumps(merged, indent=2) + "\n")


def merge_runs(sources: Sequence[Path], out: Path, rescore: Rescore | None = None) -> MergeStats:
    """Merge ``sources`` into the new run directory ``out``; :class:`MergeError` on a conflict
    (and then nothing is written). ``rescore`` scores a benchmark on the merged run
    (``run/merge_metrics.py``; the CLI passes the suites' ``score``)."""
    sources = [Path(s) for s in sources]
    if len(sources) < 2:
        raise MergeError("give at least two run directories to merge")
    for s in sources:
        if not RunDir(s).is_run():
            raise MergeError(RunDir(s).not_a_run())
    if len({s.resolve() for s in sources}) != len(sources):
        raise MergeError("a run directory is given twice")
    for s in sources:
        try:
            Store.open(s, create=False).close()  # upgrades an older store schema
        except StoreError as exc:
            raise MergeError(str(exc)) from None
    if out.is_symlink():
        raise MergeError(f"{out}: is a link; give a new folder for --out")
    if out.exists() and not out.is_dir():
        raise MergeError(f"{out}: is a file; give a new folder for --out")
    if out.exists() and any(out.iterdir()):
        raise MergeError(f"{out}: already exists and is not empty (choose a new --out)")
    out.parent.mkdir(parents=True, exist_ok=True)
    clean_stale(out.parent, out.name)  # a merge killed earlier left its folder
    tmp = out.parent / f".{out.name}.merging-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    stats = MergeStats()
    try:
        store = Store.open(tmp)
        try:
            con = store.connection
            merged_from: list[dict[str, Any]] = []
            for s in sources:
                _merge_source(con, s, stats, merged_from)
            _check_current(con)
            con.execute("DELETE FROM errors WHERE task_key IN (SELECT task_key FROM answers)")
            store.meta_set("merged_from", merged_from)
            if merged_from and merged_from[0]["settings"] is not None:
                store.meta_set("settings", merged_from[0]["settings"])
            for table in _tables(con, "main"):
                stats.rows[table] = int(
                    con.execute(f"SELECT COUNT(*) FROM {_q(table)}").fetchone()[0]
                )
            stats.judges = [
                r[0] for r in con.execute("SELECT DISTINCT judge FROM judgements ORDER BY 1")
            ]
        finally:
            store.close()
        _write_config(tmp, sources)
        stats.notes += merge_metrics(tmp, sources, rescore)
        if out.exists():
            out.rmdir()
        tmp.rename(out)
    except (sqlite3.Error, StoreError) as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise MergeError(f"cannot merge: {exc}") from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return stats
