"""Predictions made elsewhere: VLMEvalKit prediction files as forgebench replay answers.

VLMEvalKit writes one file per model and dataset (``{model}_ForensicsBench.xlsx``, or ``.csv`` /
``.tsv``) holding the dataset's columns plus ``prediction``, the model's raw answer. This module
reads its ``index`` and ``prediction`` columns (other columns are ignored) and writes a replay
JSONL (:mod:`forgebench.models.replay`: ``item_id``, ``probe`` ``MCQ``, condition ``full``,
``text``), so ``forgebench run DATASET --model NAME=replay/FILE.jsonl`` re-scores those answers
with our extraction, metrics and report. An empty prediction is kept as an empty answer (it
extracts to ``Z``); a row without ``index``, or two rows with one index, is an error naming the
row. Reading ``.xlsx`` needs ``openpyxl`` (``pip install 'forgebench[xlsx]'``).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from forgebench.suites.forensics.problems import ForensicsDataError

SUFFIXES = (".xlsx", ".csv", ".tsv")


def _cell(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def read_predictions(path: Path) -> list[tuple[str, str]]:
    """``(index, prediction)`` pairs in file order (see the module docstring)."""
    import pandas as pd

    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise ForensicsDataError(
            f"{path}: expected a VLMEvalKit prediction file ({', '.join(SUFFIXES)})"
        )
    if not path.is_file():
        raise ForensicsDataError(f"{path}: no such file")
    try:
        if suffix == ".xlsx":
            frame = pd.read_excel(path, dtype=object)
        else:
            frame = pd.read_csv(
                path, sep="\t" if suffix == ".tsv" else ",", dtype=object, keep_default_na=False
            )
    except ImportError:
        raise ForensicsDataError(
            f"{path}: reading .xlsx needs openpyxl (pip install 'forgebench[xlsx]')"
        ) from None
    except Exception as exc:  # pandas raises many types for unreadable files
        raise ForensicsDataError(f"{path}: cannot read ({type(exc).__name__}: {exc})") from None
    missing = [c for c in ("index", "prediction") if c not in frame.columns]
    if missing:
        raise ForensicsDataError(f"{path}: missing column(s) {', '.join(missing)}")
    out: list[tuple[str, str]] = []
    seen: dict[str, int] = {}
    for k, (index, pred) in enumerate(zip(frame["index"], frame["prediction"], strict=True)):
        row = k + 2  # the header is row 1
        idx = _cell(index).strip()
        if not idx:
            raise ForensicsDataError(f"{path}:{row}: index: empty")
        if idx in seen:
            raise ForensicsDataError(
                f"{path}:{row}: index: duplicate {idx!r} (first on row {seen[idx]})"
            )
        seen[idx] = row
        out.append((idx, _cell(pred)))
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
