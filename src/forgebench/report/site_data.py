"""Rows for the item viewer, read from the run store (``RUN/run.sqlite``).

The viewer needs, per item, its ground truth and every answer with its verdict, grade and judge
reason. This module reads exactly that through the store's typed reads
(:meth:`forgebench.run.store.Store.records`); ``report/site.py`` turns them into the static
page's data files.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from forgebench.models.base import ImageRef
from forgebench.run.store import DB_NAME, GRADE_KIND, Store, TaskRecord


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
    images: tuple[ImageRef, ...] = ()
    """The image variants the task showed, in order."""
    item_id: str = ""
    """The item's id in its benchmark (the viewer's id may carry the benchmark in front)."""


@dataclass
class ViewerData:
    """Everything the viewer shows, by item."""

    items: list[dict[str, Any]]
    answers: dict[str, list[ViewerAnswer]] = field(default_factory=dict)
    judge: str | None = None
    judges: list[str] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)


def parse_detail(raw: str | None) -> dict[str, Any]:
    """A verdict's JSON detail as a dict ({} when absent or not an object)."""
    try:
        value = json.loads(raw) if raw else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def pick_judge(store: Store, judge: str | None) -> tuple[str | None, list[str]]:
    """The judge to show (the one asked for, else the one with most grades) and all judges."""
    judges = [name for name, _n in store.judge_sizes(GRADE_KIND)]
    if judge is not None:
        return judge, judges
    return (judges[0] if judges else None), judges


def read_viewer_data(run_dir: Path, judge: str | None = None) -> ViewerData:
    """Read items and every answer (with verdict, grade and error) from ``RUN/run.sqlite``."""
    db = run_dir / DB_NAME
    if not db.is_file():
        raise FileNotFoundError(f"{db}: not found (is {run_dir} a run directory?)")
    with Store.open(run_dir, create=False) as store:
        chosen, judges = pick_judge(store, judge)
        stored = store.all_items()
        ids = [it["id"] for _b, it in stored]
        benchmarks = {bm for bm, _it in stored}
        # ids of different benchmarks may collide ("0" in two suites): then every id is prefixed
        qualify = len(benchmarks) > 1 and len(set(ids)) < len(ids)
        view_id = {
            (bm, it["id"]): (f"{bm}/{it['id']}" if qualify else it["id"]) for bm, it in stored
        }
        items = [{**it, "id": view_id[(bm, it["id"])], "benchmark": bm} for bm, it in stored]
        meta = store.meta_all()
        answers = _answers(store.records(judged=[(chosen or "", GRADE_KIND)]), view_id)
    return ViewerData(items=items, answers=answers, judge=chosen, judges=judges, meta=meta)


def _answers(
    records: Iterable[TaskRecord], view_id: Mapping[tuple[str, str], str]
) -> dict[str, list[ViewerAnswer]]:
    """Every answer by the viewer's item id, each item's in (model, probe, condition) order;
    read as the store pages them (a large run's tasks are never held twice)."""
    answers: dict[str, list[ViewerAnswer]] = {}
    images: dict[tuple[str | None, ...], tuple[ImageRef, ...]] = {}  # shared by every model
    for r in records:
        where = (r.variant_id, r.image_path, r.media_type, r.images_json)
        shown = images.get(where)
        if shown is None:
            shown = images[where] = r.images
        vid = view_id.get((r.benchmark, r.item_id), r.item_id)
        grade = r.judged[0]
        answers.setdefault(vid, []).append(
            ViewerAnswer(
                model=r.model,
                probe=r.probe,
                condition=r.condition,
                text=r.text,
                verdict=r.verdict if r.text is not None else None,
                level=grade.level if grade else None,
                grade_status=grade.status if grade else None,
                reason=grade.reason if grade else None,
                error=r.error if r.text is None else None,
                benchmark=r.benchmark,
                detail=r.verdict_json if r.text is not None else None,
                images=shown,
                item_id=r.item_id,
            )
        )
    for rows in answers.values():
        rows.sort(key=lambda a: (a.model, a.probe, a.condition))
    return answers


def read_calibration_sample(path: Path) -> list[dict[str, str]]:
    """Rows of a calibration sample CSV (``forgebench calibrate sample``), as strings."""
    import csv

    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def calibration_view(path: Path | None, run_dir: Path, views: Mapping[str, str]) -> dict[str, Any]:
    """The calibration sample for the grading view, each row with its item's picture (``views``:
    item id -> its view in the report; empty when there is none)."""
    if path is None:
        default = run_dir / "calibration_sample.csv"
        path = default if default.is_file() else None
    if path is None:
        return {"rows": [], "columns": [], "file": None}
    rows = read_calibration_sample(path)
    for row in rows:
        row["_view"] = views.get(row.get("item_id", ""), "")
    columns = list(rows[0].keys()) if rows else []
    return {"rows": rows, "columns": [c for c in columns if c != "_view"], "file": path.name}
