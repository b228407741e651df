"""``export RUN --format vlmevalkit``: a run's Forensics answers as VLMEvalKit prediction files.

VLMEvalKit keeps one prediction file per model and dataset, ``{model}_ForensicsBench.xlsx``: the
dataset's TSV columns without the base64 ``image`` column, plus ``prediction``, the model's raw
answer (``infer_data_job`` in VLMEvalKit's ``vlmeval/inference.py`` sets ``prediction`` on the
dataset frame, pops ``image`` and dumps the frame to the prediction file). This writes the same for every model
of the run: the release's columns ``index, question, [hint,] A.., answer, category,
[image_path,] prediction`` (option columns up to the largest option count; ``hint`` and
``image_path`` when some item has one), one row per ``MCQ`` / ``full`` task (the release's
questions as asked), in the run's order. A task without an answer (pending, or ended as an error)
gets an empty prediction, which extracts to ``Z`` as the missing answer did, so ``vlmevalkit/FILE``
replayed on the same dataset gives the same metrics. ``--tsv`` writes ``.tsv`` instead of ``.xlsx``
(no ``openpyxl`` needed; a cell holding a CR or LF is quoted, as pandas' ``read_csv`` reads it
back whole). A cell with characters ``.xlsx`` cannot hold (NUL, ESC and the other control
characters XML forbids) is written with U+FFFD in their place, and the export says how many
cells it changed. The file's name uses the model's name with ``/`` as ``--``. Beside each
file, ``{model}_ForensicsBench.forgebench.json`` holds the export's provenance (VLMEvalKit reads
only the prediction file).

Streaming: rows go out as they are read (xlsx through openpyxl's write-only workbook), items are
looked up a shard at a time; each file is written to a temporary name and renamed into place.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from forgebench.interop.extras import need
from forgebench.interop.model_index import model_stem
from forgebench.interop.provenance import provenance
from forgebench.interop.run_formats import RunExport
from forgebench.run.export_source import ExportTask, items_of, iter_tasks, models_of, run_facts
from forgebench.run.store import Store
from forgebench.suites.forensics.contract import LETTERS
from forgebench.suites.forensics.ids import MCQ
from forgebench.suites.forensics.taxonomy import TypeCode
from forgebench.util.atomic import atomic_path, write_text
from forgebench.util.csvsafe import writer as csv_writer
from forgebench.util.text import xlsx_safe

DATASET = "ForensicsBench"
SHARD = 5000
BENCHMARK = "forensics"


def _asked(store: Store, model: str) -> Iterator[ExportTask]:
    return (
        t for t in iter_tasks(store, BENCHMARK, model) if t.probe == MCQ and t.condition == "full"
    )


def _header(store: Store, model: str) -> tuple[list[str], int]:
    n_opts, hint, paths, n = 2, False, False, 0
    shard: list[ExportTask] = []

    def scan(tasks: list[ExportTask]) -> None:
        nonlocal n_opts, hint, paths
        items = items_of(store, BENCHMARK, [t.item_id for t in tasks])
        for t in tasks:
            item = items.get(t.item_id, {})
            n_opts = max(n_opts, len(t.extra.get("options") or item.get("options") or {}))
            hint = hint or bool(item.get("hint"))
            paths = paths or bool(item.get("image_path"))

    for t in _asked(store, model):
        shard.append(t)
        n += 1
        if len(shard) >= SHARD:
            scan(shard)
            shard = []
    scan(shard)
    header = [
        "index",
        "question",
        *(["hint"] if hint else []),
        *LETTERS[:n_opts],
        "answer",
        "category",
        *(["image_path"] if paths else []),
        "prediction",
    ]
    return header, n


def _cells(task: ExportTask, item: dict[str, Any]) -> dict[str, str]:
    options = dict(task.extra.get("options") or item.get("options") or {})
    image_path = item.get("image_path") or []
    category = item.get("category")
    if not category:
        category = TypeCode(*(item[p] for p in ("semantic", "modality", "task", "type", "model")))
        category = category.category()
    return {
        "index": task.item_id,
        "question": str(item.get("question", "")),
        "hint": str(item.get("hint") or ""),
        "answer": str(task.extra.get("answer") or item.get("answer") or ""),
        "category": str(category),
        "image_path": image_path[0]
        if len(image_path) == 1
        else repr(image_path)
        if image_path
        else "",
        "prediction": task.text or "",
        **{k: str(v) for k, v in options.items()},
    }


def _rows(store: Store, model: str, header: list[str]) -> Iterator[list[str]]:
    shard: list[ExportTask] = []

    def flush(tasks: list[ExportTask]) -> Iterator[list[str]]:
        items = items_of(store, BENCHMARK, [t.item_id for t in tasks])
        for t in tasks:
            cells = _cells(t, items.get(t.item_id, {}))
            yield [cells.get(c, "") for c in header]

    for t in _asked(store, model):
        shard.append(t)
        if len(shard) >= SHARD:
            yield from flush(shard)
            shard = []
    yield from flush(shard)


def _write_xlsx(path: Path, header: list[str], rows: Iterator[list[str]]) -> int:
    """Write the rows; the number of cells whose characters ``.xlsx`` forbids were replaced."""
    openpyxl = need("openpyxl", "xlsx", "--format vlmevalkit (.xlsx; or give --tsv)")
    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet()
    sheet.append(header)
    changed = 0
    for row in rows:
        safe = [xlsx_safe(cell) for cell in row]
        changed += sum(a is not b for a, b in zip(row, safe, strict=True))
        sheet.append(safe)
    with atomic_path(path) as tmp:
        book.save(tmp)
    return changed


def _write_tsv(path: Path, header: list[str], rows: Iterator[list[str]]) -> int:
    with atomic_path(path) as tmp, tmp.open("w", encoding="utf-8", newline="") as fh:
        writer = csv_writer(fh, delimiter="\t")  # a CR or LF in a cell is quoted, not a row end
        writer.writerow(header)
        writer.writerows(rows)
    return 0


def write_vlmevalkit(request: RunExport, benchmark: str) -> list[Path]:
    """One prediction file per model of the run's Forensics part; the paths written."""
    written: list[Path] = []
    with Store.open(request.run_dir, create=False) as store:
        facts = run_facts(store, benchmark)
        for model in models_of(store, benchmark):
            header, n = _header(store, model)
            if n == 0:  # the model answered no release question (MCQ / full)
                continue
            suffix = ".tsv" if request.tsv else ".xlsx"
            path = Path(request.out_dir) / f"{model_stem(model)}_{DATASET}{suffix}"
            rows = _rows(store, model, header)
            changed = (_write_tsv if request.tsv else _write_xlsx)(path, header, rows)
            if changed:
                request.notes.append(
                    f"{path}: {changed} cell(s) held characters .xlsx cannot hold (NUL, ESC, "
                    "other control characters); written as U+FFFD (--tsv keeps them)"
                )
            record = {"model": model, "rows": n, **provenance(facts, request.judge)}
            side = path.with_name(f"{model_stem(model)}_{DATASET}.forgebench.json")
            write_text(side, json.dumps(record, indent=2) + "\n")
            written += [path, side]
    return written
