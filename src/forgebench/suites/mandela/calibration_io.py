"""Judge calibration files (Appendix F): the blinded, stratified sample and the human grades.

:func:`draw_sample` stratifies the graded answers (forged items, REAL/FAKE probes, a grade of
status ``graded`` or ``auto`` from the judge) by model, probe, verdict and judge level, as the
paper did ("stratified by model, protocol, verdict, and evidence level"). Allocation is
proportional with at least one answer per stratum when ``n`` allows it (largest remainders),
sampling within a stratum is uniform with a fixed seed, and the rows are shuffled so their order
reveals no stratum. The judge's level and reason are not written (blinded); the human fills
``human_level`` (``E0``..``E4`` or ``0``..``4``).

:func:`read_levels` reads such a file back; :func:`pair_levels` joins it (or a second judge)
with a judge's levels.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from forgebench.errors import UserError
from forgebench.suites.mandela.frame import connect
from forgebench.suites.mandela.parse_run import GRADE_KIND, load_items
from forgebench.suites.mandela.verdict import REAL_FAKE_PROBES, final_answer

SAMPLE_COLUMNS = [
    "sample_id",
    "task_key",
    "model",
    "probe",
    "condition",
    "item_id",
    "image",
    "verdict",
    "answer",
    "family",
    "entity",
    "entity_role",
    "edit_region",
    "edit_instruction",
    "contradiction",
    "event",
    "event_date",
    "human_level",
]


class CalibrationError(UserError, ValueError):
    """A calibration request or file a user got wrong; one clear line."""


def gradable(frame: pd.DataFrame) -> pd.DataFrame:
    """Rows a calibration sample may draw: forged, REAL/FAKE probe, answered, graded or auto."""
    keep = (
        frame["probe"].isin(REAL_FAKE_PROBES)
        & (frame["label"] == "forged")
        & (frame["status"] == "answered")
        & frame["grade_status"].isin(["graded", "auto"])
    )
    return frame[keep]


def _allocate(sizes: pd.Series, n: int) -> pd.Series:
    total = int(sizes.sum())
    if n >= total:
        return sizes.copy()
    base = pd.Series(0, index=sizes.index)
    if n >= len(sizes):
        base = pd.Series(1, index=sizes.index)
    rest = n - int(base.sum())
    quota = (sizes - base).clip(lower=0) * rest / max(1, int((sizes - base).sum()))
    alloc = base + np.floor(quota).astype(int)
    order = (quota - np.floor(quota)).sort_values(ascending=False, kind="stable").index
    for key in order:
        if int(alloc.sum()) >= n:
            break
        if alloc[key] < sizes[key]:
            alloc[key] += 1
    return alloc


def draw_sample(run_dir: Path, frame: pd.DataFrame, n: int, seed: int = 0) -> pd.DataFrame:
    """A blinded stratified sample of ``n`` graded answers (columns :data:`SAMPLE_COLUMNS`)."""
    if n < 1:
        raise CalibrationError("--n must be at least 1")
    pool = gradable(frame).copy()
    if pool.empty:
        raise CalibrationError("no graded forged answers in this run: run forgebench judge first")
    pool["_level"] = pool["level"].astype("Int64").astype(str)
    strata = ["model", "probe", "verdict", "_level"]
    groups = pool.groupby(strata, sort=True)
    alloc = _allocate(groups.size(), n).to_dict()
    rng = np.random.default_rng(seed)
    picked = []
    for key, group in groups:
        k = int(alloc[key])
        if k:
            picked.append(group.iloc[np.sort(rng.choice(len(group), size=k, replace=False))])
    sample = pd.concat(picked).sample(frac=1.0, random_state=seed).reset_index(drop=True)
    store = connect(run_dir)
    try:
        items = load_items(store)
    finally:
        store.close()
    width = max(3, len(str(len(sample))))
    rows: list[dict[str, Any]] = []
    for i, r in enumerate(sample.itertuples(index=False)):
        it = items.get(str(r.item_id), {})
        entity, edit, event = it.get("entity") or {}, it.get("edit") or {}, it.get("event") or {}
        rows.append(
            {
                "sample_id": f"S{i + 1:0{width}d}",
                "task_key": r.task_key,
                "model": r.model,
                "probe": r.probe,
                "condition": r.condition,
                "item_id": r.item_id,
                "image": it.get("image", ""),
                "verdict": r.verdict,
                "answer": final_answer(r.text if isinstance(r.text, str) else None),
                "family": it.get("family") or "",
                "entity": entity.get("name", ""),
                "entity_role": entity.get("role") or "",
                "edit_region": json.dumps(edit.get("region")) if edit.get("region") else "",
                "edit_instruction": edit.get("instruction", ""),
                "contradiction": it.get("contradiction") or "",
                "event": event.get("label", ""),
                "event_date": event.get("date", ""),
                "human_level": "",
            }
        )
    return pd.DataFrame(rows, columns=SAMPLE_COLUMNS)


def parse_level(value: str) -> int | None:
    """``E3`` / ``e3`` / ``3`` -> 3; empty -> None; anything else raises ``ValueError``."""
    v = value.strip().upper().removeprefix("E")
    if not v:
        return None
    if v in {"0", "1", "2", "3", "4"}:
        return int(v)
    raise ValueError(f"level {value!r} is not E0-E4")


def read_levels(path: Path, column: str = "human_level") -> tuple[dict[str, int], int]:
    """``{task_key: level}`` from a graded sample CSV, and how many rows had no level yet."""
    if not path.is_file():
        raise CalibrationError(f"{path}: not found")
    out: dict[str, int] = {}
    blank = 0
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        missing = {"task_key", column} - set(reader.fieldnames or [])
        if missing:
            raise CalibrationError(f"{path}: missing column(s) {', '.join(sorted(missing))}")
        for line, row in enumerate(reader, start=2):
            try:
                level = parse_level(row.get(column) or "")
            except ValueError as exc:
                raise CalibrationError(f"{path}:{line}: {column}: {exc}") from None
            if level is None:
                blank += 1
            else:
                out[row["task_key"]] = level
    return out, blank


def judge_levels(run_dir: Path, judge: str) -> dict[str, int]:
    """``{task_key: level}`` of one judge's scored grades (unscored rows have no level)."""
    store = connect(run_dir)
    try:
        have = store.judges(GRADE_KIND)
        if judge not in have:
            known = ", ".join(have) or "none"
            raise CalibrationError(f"judge {judge!r} has no grades in this run (judges: {known})")
        return store.judged_levels(judge, GRADE_KIND)
    finally:
        store.close()


def pair_levels(reference: dict[str, int], judge: dict[str, int]) -> list[tuple[int, int]]:
    """``(reference, judge)`` level pairs over the keys both have."""
    return [(lvl, judge[k]) for k, lvl in reference.items() if k in judge]
