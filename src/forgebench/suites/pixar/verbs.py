"""PIXAR's part of the shared verbs: ``validate`` (every pair decodes and pairs up), ``prompts``
(the LOC prompt, verbatim, and what one pair is asked), ``tables`` (Table 2, Table 3 and the
size table from ``metrics.csv``) and the console summary of ``metrics``. PIXAR has no figures of
its own and no calibration stage: those verbs skip it with a line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from forgebench.run.source import Selection
from forgebench.suites.base import SuiteError
from forgebench.suites.outputs import Output, Validation


def validate(path: Path) -> Validation:
    """Every pair of the folder (or CSV) decodes and has its original and edited image."""
    from forgebench.suites.pixar.loc_items import load_items

    try:
        loaded = load_items(path, Selection())
    except SuiteError as exc:
        return Validation(errors=[str(exc)])
    taus = sorted({float(it["tau"]) for it in loaded.items})
    return Validation(
        summary=[f"pixar pairs: {len(loaded.items)} pairs (tau {', '.join(map(str, taus))})"],
        items=len(loaded.items),
    )


def prompt_templates() -> list[str]:
    """The LOC prompt with its placeholders."""
    from forgebench.suites.pixar.probe import PROBE_ID, PROMPT_TEMPLATE, PROMPT_VERSION

    title = "title: localization (boxes or polygons, up to five classes, one sentence)"
    text = PROMPT_TEMPLATE.format(width="{width}", height="{height}", classes="{classes}")
    return [f"{PROBE_ID}\nversion: {PROMPT_VERSION}\n{title}\n{text}"]


def prompts(dataset: Path, item_id: str) -> list[str]:
    """The exact prompt one pair is asked (its edited image's size filled in)."""
    from forgebench.suites.pixar.loc_items import load_items
    from forgebench.suites.pixar.probe import PROBE_ID, PROMPT_VERSION, render_prompt

    items = [it for it in load_items(dataset, Selection()).items if it["id"] == item_id]
    if not items:
        raise SuiteError(f"{dataset}: no pair {item_id!r}")
    it = items[0]
    prompt = render_prompt(int(it["width"]), int(it["height"]))
    return [f"{PROBE_ID} / full\nversion: {PROMPT_VERSION}\nimages: 1\n---\n{prompt}"]


def _rows(run_dir: Path) -> list[dict[str, str]]:
    from forgebench.results.metrics_csv import read_rows
    from forgebench.suites.pixar.results import BENCHMARK

    return [r for r in read_rows(run_dir / "metrics.csv") if r["benchmark"] == BENCHMARK]


def tables(run_dir: Path, out_dir: Path | None) -> Output:
    """PIXAR's tables as Markdown, LaTeX and CSV under ``out_dir`` (default ``RUN/report``)."""
    from forgebench.suites.pixar.results import tables_from_rows, write_tables

    rows = _rows(run_dir)
    if not rows:
        return Output(notes=[f"pixar: {run_dir / 'metrics.csv'}: no pixar rows (run metrics)"])
    files = write_tables(tables_from_rows(rows), out_dir or run_dir / "report")
    written = ", ".join(p.name for p in files if p.suffix == ".csv")
    return Output(files=files, lines=[f"pixar tables written: {written}"])


def summary(run_dir: Path) -> list[Any]:
    """Table 2's layout for the console: every model's localization numbers on all images."""
    from forgebench.report.table import to_markdown
    from forgebench.suites.pixar.results import tables_from_rows

    rows = _rows(run_dir)
    return [to_markdown(tables_from_rows(rows)["pixar_table2"])] if rows else []
