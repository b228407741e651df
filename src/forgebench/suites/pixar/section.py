"""PIXAR's part of the report: Tables 2 and 3 and the edit-size table of every model with PIXAR
rows in ``RUN/metrics.csv`` (LOC answers scored by ``metrics``, ``pixar score --out`` and the
demo's detector alike), written as ``report/pixar_*.md`` / ``.csv``, with the share of pairs
each model missed (no usable answer)."""

from __future__ import annotations

import html
from pathlib import Path

from forgebench.report.table import to_html
from forgebench.results.metrics_csv import read_rows
from forgebench.run.rundir import RunDir
from forgebench.run.store import DB_NAME, Store
from forgebench.suites.pixar.intervals import AUC_NOTE
from forgebench.suites.pixar.results import BENCHMARK, tables_from_rows, write_tables


def pixar_section(
    run_dir: Path, out_dir: Path, dataset: Path | None = None
) -> tuple[str, list[Path]] | None:
    """The section's HTML and the table files written (None: the run has no PIXAR rows);
    ``dataset``: the PIXAR folder given to ``report --dataset`` (the viewer's pictures; the
    section links to the viewer, where each pair is shown with its truth and predicted masks)."""
    rows = [r for r in read_rows(run_dir / "metrics.csv") if r["benchmark"] == BENCHMARK]
    if not rows:
        return None
    tables = tables_from_rows(rows)
    files = write_tables(tables, out_dir)
    parts = [to_html(t) for t in tables.values()]
    misses = [
        f"{html.escape(r['model'])} {float(r['value']):.1f}% of {r['n']} pairs"
        for r in rows
        if r["metric"] == "miss" and r["subset"] == "all"
    ]
    if misses:
        parts.append(
            "<p>Pairs without a usable LOC answer (scored as empty predictions): "
            + "; ".join(misses)
            + ".</p>"
        )
    if any(r["metric"] in ("giou", "f1") and r["probe"] == "LOC" for r in rows):
        parts.append(
            "<p class='note'>The overview's intervals of gIoU and F1 resample the pairs. "
            f"{html.escape(AUC_NOTE)}</p>"
        )
    if RunDir(run_dir).is_run() and _has_pairs(run_dir):
        parts.append(
            "<p><a href='#items'>Every pair in the item viewer: the edited image, its truth and "
            "predicted masks, with IoU and F1 per model</a></p>"
        )
    return "\n".join(parts), files


def _has_pairs(run_dir: Path) -> bool:
    """Whether the run stores PIXAR items or pairs scored from files (the viewer shows them)."""
    if not (run_dir / DB_NAME).is_file():
        return False
    with Store.open(run_dir, create=False) as store:
        return store.item_count(BENCHMARK) > 0 or store.pair_score_count(BENCHMARK) > 0
