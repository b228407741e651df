"""Row-level export (``forgebench export RUN --format csv|parquet``, DESIGN.md "Run directory").

One row per task: item, model, probe, condition, answer text, verdict, grade (level, status,
judge, reason), tokens, latency, and the item attributes of the frame (``frame.py``).
Written atomically (a temporary file renamed into place). The CSV is for people: text cells that
a spreadsheet would run as a formula get a leading ``'`` (:mod:`forgebench.util.csvsafe`); the
Parquet file keeps the raw text.
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from forgebench.suites.mandela.frame import load_frame
from forgebench.util.csvsafe import neutralise_frame

FORMATS = ("csv", "parquet")
EXPORT_COLUMNS = [
    "task_key",
    "item_id",
    "model",
    "probe",
    "condition",
    "status",
    "text",
    "finish_reason",
    "verdict",
    "miss_why",
    "correct",
    "level",
    "grade_status",
    "judge",
    "judge_reason",
    "input_tokens",
    "output_tokens",
    "latency_s",
    "names_erased",
    "names_principal",
    "l2_cannot",
    "recog_year",
    "seed_id",
    "label",
    "family",
    "analysis_family",
    "control_for",
    "k1_type",
    "variant",
    "domain",
    "saliency",
    "peripheral",
    "peripheral_k1",
    "has_principal",
    "named_insertion",
]


def export_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """The export's columns, in order."""
    return frame[[c for c in EXPORT_COLUMNS if c in frame.columns]].copy()


def export_run(
    run_dir: Path, fmt: str = "csv", out: Path | None = None, judge: str | None = None
) -> Path:
    """Write the row-level table; returns the written path (default ``RUN/export.<fmt>``)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")
    run_dir = Path(run_dir)
    table = export_frame(load_frame(run_dir, judge))
    path = Path(out) if out is not None else run_dir / f"export.{fmt}"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        if fmt == "csv":
            neutralise_frame(table).to_csv(tmp, index=False)  # for people: no formulas
        else:
            table.to_parquet(tmp, index=False)
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)
    return path
