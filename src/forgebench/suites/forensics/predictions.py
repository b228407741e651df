"""Predictions made elsewhere: VLMEvalKit prediction files as forgebench replay answers.

VLMEvalKit writes one file per model and dataset (``{model}_ForensicsBench.xlsx``, or ``.csv`` /
``.tsv``) holding the dataset's columns plus ``prediction``, the model's raw answer. This module
reads its ``index`` and ``prediction`` columns (other columns are ignored) and writes a replay
JSONL (:mod:`forgebench.models.replay`: ``item_id``, ``probe`` ``MCQ``, condition ``full``,
``text``), so ``forgebench run DATASET --model NAME=replay/FILE.jsonl`` re-scores those answers
with our extraction, metrics and report. An empty prediction is kept as an empty answer (it
extracts to ``Z``); a row without ``index``, or two rows with one index, is an error naming the
row. The file is read within the bounds of :mod:`forgebench.util.input_limits` by
:func:`forgebench.util.sheets.read_table` (``.xlsx`` with the standard library alone, streamed).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from forgebench.suites.forensics.problems import ForensicsDataError
from forgebench.util.sheets import TableError, read_table

SUFFIXES = (".xlsx", ".csv", ".tsv")


def read_predictions(path: Path, **limits: int) -> list[tuple[str, str]]:
    """``(index, prediction)`` pairs in file order (see the module docstring). The file is read
    within :mod:`forgebench.util.input_limits` (rows, cell size, file and member sizes; ``limits``
    overrides them, for tests): a file over one is an error naming it."""
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise ForensicsDataError(
            f"{path}: expected a VLMEvalKit prediction file ({', '.join(SUFFIXES)})"
        )
    try:
        columns, frame = read_table(path, ("index", "prediction"), **limits)
    except TableError as exc:
        raise ForensicsDataError(str(exc)) from None
    missing = [c for c in ("index", "prediction") if c not in columns]
    if missing:
        raise ForensicsDataError(f"{path}: missing column(s) {', '.join(missing)}")
    out: list[tuple[str, str]] = []
    seen: dict[str, int] = {}
    for k, cells in enumerate(frame):
        row = k + 2  # the header is row 1
        idx = cells["index"].strip()
        if not idx:
            raise ForensicsDataError(f"{path}:{row}: index: empty")
        if idx in seen:
            raise ForensicsDataError(
                f"{path}:{row}: index: duplicate {idx!r} (first on row {seen[idx]})"
            )
        seen[idx] = row
        out.append((idx, cells["prediction"]))
    return out


def write_replay(path: Path, dest: Path, *, model: str | None = None) -> int:
    """Convert ``path`` into a replay JSONL at ``dest``; returns the number of answers."""
    rows = read_predictions(path)
    tmp = dest.with_name(dest.name + ".part")
    with tmp.open("w", encoding="utf-8") as fh:
        for index, text in rows:
            rec: dict[str, Any] = {
                "item_id": index,
                "probe": "MCQ",
                "condition": "full",
                "text": text,
            }
            if model:
                rec["model"] = model
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    tmp.replace(dest)
    return len(rows)
