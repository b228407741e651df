"""The store's side of repeats (``run --epochs N``): epoch views and what comes back from them.

An *epoch view* is a copy of a run's store (SQLite's backup API) in which a later epoch and
epoch 1 swap labels, so that every stage that reads the current tasks (epoch 1's) reads that
epoch's instead (:mod:`forgebench.results.epochs` scores and judges the later epochs on such
copies, through the suites' own stages). The keys are the run's own in the copy, so what a stage
stores there for a task (its verdict, its judgements) can be kept in the run under that key.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from forgebench.run.rundir import DB_NAME
from forgebench.run.store.core import Store

KEPT_TABLES = ("verdicts", "judgements")
"""What a stage run on an epoch view stores that the run keeps (by task key)."""


def copy_as_epoch(run_dir: Path, epoch: int, into: Path) -> Path:
    """Copy the run's store to ``into/run.sqlite`` with epoch ``epoch`` relabelled 1 and epoch 1
    relabelled ``epoch`` (the store is read, never written); the copy's path."""
    target = into / DB_NAME
    src = sqlite3.connect(f"file:{run_dir / DB_NAME}?mode=ro", uri=True)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst)
        dst.execute(
            "UPDATE tasks SET epoch = CASE epoch WHEN ? THEN 1 WHEN 1 THEN ? ELSE epoch END",
            (epoch, epoch),
        )
        dst.commit()
    finally:
        src.close()
        dst.close()
    return target


def keep_epoch_rows(run_dir: Path, view: Path, epoch: int, table: str) -> int:
    """Store in the run the rows of ``table`` (one of :data:`KEPT_TABLES`) that a stage wrote in
    the epoch view ``view`` for the run's epoch-``epoch`` tasks, replacing older ones; how many."""
    if table not in KEPT_TABLES:
        raise ValueError(f"not a table kept from an epoch view: {table!r}")
    with Store.open(run_dir, create=False) as store:
        con = store.connection
        con.execute("ATTACH DATABASE ? AS view", (str(view / DB_NAME),))
        try:
            cols = ", ".join(f'"{r[1]}"' for r in con.execute(f"PRAGMA main.table_info({table})"))
            with con:
                cur = con.execute(
                    f"INSERT OR REPLACE INTO main.{table} ({cols}) SELECT {cols} FROM view.{table} "
                    "WHERE task_key IN (SELECT key FROM main.tasks WHERE epoch = ?)",
                    (epoch,),
                )
            return int(cur.rowcount)
        finally:
            con.execute("DETACH DATABASE view")


def current_verdicts(
    run_dir: Path, benchmark: str
) -> list[tuple[str, str, str, str, str, str, dict[str, Any]]]:
    """``(model, probe, condition, item_id, extra, verdict, detail)`` of every current
    (epoch-1) task of ``benchmark`` that has a verdict (read-only)."""
    con = sqlite3.connect(f"file:{run_dir / DB_NAME}?mode=ro", uri=True)
    try:
        rows = con.execute(
            "SELECT t.model, t.probe, t.condition, t.item_id, t.extra, v.verdict, v.detail "
            "FROM tasks t JOIN verdicts v ON v.task_key = t.key "
            "WHERE t.superseded_by IS NULL AND t.epoch = 1 AND t.benchmark = ?",
            (benchmark,),
        ).fetchall()
    finally:
        con.close()
    return [(*map(str, r[:6]), json.loads(r[6] or "{}")) for r in rows]
