"""Rows for the item viewer, read from the run store (``RUN/run.sqlite``).

The viewer needs, per item, its ground truth and every answer with its verdict, grade and judge
reason. This module reads exactly that with plain SQL over the schema of ``run/schema.py`` and
returns plain dicts; ``report/site.py`` turns them into the static page's data files.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from forgebench.run.store import meta_value


@dataclass
class ViewerAnswer:
    """One answer as the viewer shows it."""

    model: str
    probe: str
    condition: str
    text: str | None
    verdict: str | None
    level: int | None
    grade_status: str | None
    reason: str | None
    error: str | None
    benchmark: str = ""
    """The suite the task belongs to."""
    detail: str | None = None
    """The verdict row's JSON detail (the suite parser's fields: names asserted, extraction
    step...), parsed only for the suites that show it (:func:`parse_detail`)."""


@dataclass
class ViewerData:
    """Everything the viewer shows, by item."""

    items: list[dict[str, Any]]
    answers: dict[str, list[ViewerAnswer]] = field(default_factory=dict)
    judge: str | None = None
    judges: list[str] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)


def _connect(db: Path) -> sqlite3.Connection:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    con.row_factory = sqlite3.Row
    return con


def parse_detail(raw: str | None) -> dict[str, Any]:
    """A verdict's JSON detail as a dict ({} when absent or not an object)."""
    try:
        value = json.loads(raw) if raw else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def pick_judge(con: sqlite3.Connection, judge: str | None) -> tuple[str | None, list[str]]:
    """The judge to show (the one asked for, else the one with most grades) and all judges."""
    rows = con.execute(
        "SELECT judge, COUNT(*) AS n FROM grades GROUP BY judge ORDER BY n DESC, judge"
    ).fetchall()
    judges = [r["judge"] for r in rows]
    if judge is not None:
        return judge, judges
    return (judges[0] if judges else None), judges


def read_viewer_data(run_dir: Path, judge: str | None = None) -> ViewerData:
    """Read items and every answer (with verdict, grade and error) from ``RUN/run.sqlite``."""
    db = run_dir / "run.sqlite"
    if not db.is_file():
        raise FileNotFoundError(f"{db}: not found (is {run_dir} a run directory?)")
    con = _connect(db)
    try:
        chosen, judges = pick_judge(con, judge)
        stored = [
            (r["benchmark"], json.loads(r["data"]))
            for r in con.execute("SELECT benchmark, item_id, data FROM items ORDER BY rowid")
        ]
        ids = [it["id"] for _b, it in stored]
        benchmarks = {bm for bm, _it in stored}
        # ids of different benchmarks may collide ("0" in two suites): then every id is prefixed
        qualify = len(benchmarks) > 1 and len(set(ids)) < len(ids)
        view_id = {
            (bm, it["id"]): (f"{bm}/{it['id']}" if qualify else it["id"]) for bm, it in stored
        }
        items = [{**it, "id": view_id[(bm, it["id"])], "benchmark": bm} for bm, it in stored]
        meta = {
            r["key"]: meta_value(run_dir, r["key"], r["value"])
            for r in con.execute("SELECT key, value FROM meta")
        }
        sql = """
            SELECT t.benchmark, t.item_id, t.model, t.probe, t.condition,
                   a.text, v.verdict, v.detail AS verdict_detail, g.level, g.status AS grade_status, g.reason,
                   e.reason AS error
            FROM tasks t
            LEFT JOIN answers a ON a.task_key = t.key
            LEFT JOIN verdicts v ON v.task_key = t.key
            LEFT JOIN grades g ON g.task_key = t.key AND g.judge = ?
            LEFT JOIN errors e ON e.task_key = t.key
            WHERE t.superseded_by IS NULL
            ORDER BY t.item_id, t.model, t.probe, t.condition
        """
        answers: dict[str, list[ViewerAnswer]] = {}
        for r in con.execute(sql, (chosen or "",)):
            vid = view_id.get((r["benchmark"], r["item_id"]), r["item_id"])
            answers.setdefault(vid, []).append(
                ViewerAnswer(
                    model=r["model"],
                    probe=r["probe"],
                    condition=r["condition"],
                    text=r["text"],
                    verdict=r["verdict"] if r["text"] is not None else None,
                    level=r["level"],
                    grade_status=r["grade_status"],
                    reason=r["reason"],
                    error=r["error"] if r["text"] is None else None,
                    benchmark=r["benchmark"],
                    detail=r["verdict_detail"] if r["text"] is not None else None,
                )
            )
    finally:
        con.close()
    return ViewerData(items=items, answers=answers, judge=chosen, judges=judges, meta=meta)


def read_calibration_sample(path: Path) -> list[dict[str, str]]:
    """Rows of a calibration sample CSV (``forgebench calibrate sample``), as strings."""
    import csv

    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))
