"""Rows for the item viewer, read from the run store (``RUN/run.sqlite``).

The viewer needs, per item, its ground truth and every answer with its verdict, grade and judge
reason. This module reads the items, the judges and the pairs scored from files (a detector's
score maps, kept by ``pixar score --out`` in the store's ``pair_scores``: shown as answers of
their suite, each pair an item); the answers are read column-wise
(:mod:`.site_answers`); ``report/site.py`` turns them into the static page's data files.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from forgebench.report.facets import PairAnswer
from forgebench.report.site_answers import ViewerAnswers, read_answers
from forgebench.run.store import DB_NAME, GRADE_KIND, Store


@dataclass
class ViewerData:
    """Everything the viewer shows: its items in order, and their answers column-wise."""

    items: list[dict[str, Any]]
    answers: ViewerAnswers
    judge: str | None = None
    judges: list[str] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)


def pick_judge(store: Store, judge: str | None) -> tuple[str | None, list[str]]:
    """The judge to show (the one asked for, else the one with most grades) and all judges."""
    judges = [name for name, _n in store.judge_sizes(GRADE_KIND)]
    if judge is not None:
        return judge, judges
    return (judges[0] if judges else None), judges


def scored_pairs(
    store: Store, pair_answers: Mapping[str, PairAnswer], stored: list[tuple[str, dict[str, Any]]]
) -> tuple[list[tuple[str, dict[str, Any]]], list[dict[str, Any]]]:
    """The pairs scored from files (the store's ``pair_scores``: a detector's score maps) of
    each benchmark whose suite shows them: the items among them the run does not store (one
    per pair, after the stored ones) and one answer row per model and pair (its suite's
    :data:`~.facets.PairAnswer`, the detail holding the scores)."""
    have = {(bm, it["id"]) for bm, it in stored}
    items: list[tuple[str, dict[str, Any]]] = []
    rows: list[dict[str, Any]] = []
    for bm, shown in pair_answers.items():
        for score in store.pair_scores(bm):
            if (bm, score.pair) not in have:
                have.add((bm, score.pair))
                items.append((bm, {"id": score.pair, "scored_from": "files"}))
            probe, condition, verdict, detail = shown(score)
            rows.append(
                {
                    "benchmark": bm, "item_id": score.pair, "model": score.model,
                    "probe": probe, "condition": condition, "text": score.pred or "",
                    "answered": 1, "verdict": verdict,
                    "verdict_json": json.dumps(detail, sort_keys=True),
                }
            )  # fmt: skip
    return items, rows


def read_viewer_data(
    run_dir: Path, judge: str | None = None, pair_answers: Mapping[str, PairAnswer] | None = None
) -> ViewerData:
    """Read items and every answer (with verdict, grade and error) from ``RUN/run.sqlite``;
    with ``pair_answers`` (by benchmark), the pairs scored from files as well
    (:func:`scored_pairs`)."""
    db = run_dir / DB_NAME
    if not db.is_file():
        raise FileNotFoundError(f"{db}: not found (is {run_dir} a run directory?)")
    with Store.open(run_dir, create=False) as store:
        chosen, judges = pick_judge(store, judge)
        stored = store.all_items()
        extra_items, extra_rows = scored_pairs(store, pair_answers or {}, stored)
        stored += extra_items
        ids = [it["id"] for _b, it in stored]
        benchmarks = {bm for bm, _it in stored}
        # ids of different benchmarks may collide ("0" in two suites): then every id is prefixed
        qualify = len(benchmarks) > 1 and len(set(ids)) < len(ids)
        view_id = {
            (bm, it["id"]): (f"{bm}/{it['id']}" if qualify else it["id"]) for bm, it in stored
        }
        items = [{**it, "id": view_id[(bm, it["id"])], "benchmark": bm} for bm, it in stored]
        meta = store.meta_all()
        answers = read_answers(store, chosen, [(bm, it["id"]) for bm, it in stored], extra_rows)
    return ViewerData(items=items, answers=answers, judge=chosen, judges=judges, meta=meta)


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
