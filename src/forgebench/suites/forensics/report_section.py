"""The Forensics section of the report, laid out as seed 002 shows its results: Table 2 beside
the extraction table, the free-form and constrained accuracy side by side (where a run holds
``MCQ_CHOICE``), Figure 2 (radar and leaderboard), Table 3 with its per-level table and
curves, Table 4, Figures 4-8, the per-type heatmap beside Tables 15-26, and the prompt studies.

Every table is written as CSV, Markdown and LaTeX (and all of them together in
``forensics_tables.md`` / ``.tex``); every figure as PNG, SVG and the CSV of its numbers. Files go
under ``report/`` with a ``forensics_`` prefix so they never collide with another suite's.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from forgebench.report.table import Skipped, Table, to_csv, to_html, to_latex, to_markdown
from forgebench.results.metrics_csv import read_metrics
from forgebench.suites.base import SuiteError
from forgebench.suites.forensics.tables import SHARES, all_tables

__all__ = ["SHARES", "summary_table", "write_report"]

_INLINE = {
    "forensics_table_02", "forensics_extraction", "forensics_choice", "forensics_table_03",
    "forensics_table_03_levels", "forensics_table_04", "forensics_table_11",
    "forensics_table_12", "forensics_table_13", "forensics_table_14",
}  # fmt: skip
"""Tables shown on the page; the per-type tables are a download each (the heatmap shows them)."""


def _stem(t: Table) -> str:
    return t.name if t.slug else f"forensics_{t.name}"


def _link(out_dir: Path, path: Path, label: str) -> str:
    href = html.escape(path.relative_to(out_dir).as_posix())
    return f"<a href='{href}'>{html.escape(label)}</a>"


def _figure(out_dir: Path, files: list[Path], stem: str, caption: str, wide: bool = False) -> str:
    got = {p.suffix: p for p in files if p.stem == stem}
    if ".png" not in got:
        return ""
    src = html.escape(got[".png"].relative_to(out_dir).as_posix())
    extra = " · ".join(
        _link(out_dir, got[s], n) for s, n in ((".svg", "svg"), (".csv", "data (csv)")) if s in got
    )
    cls = " class='wide'" if wide else ""
    return (
        f"<figure{cls}><img src='{src}' alt='{html.escape(stem)}' loading='lazy'>"
        f"<figcaption>{html.escape(caption)} {extra}</figcaption></figure>"
    )


def write_tables(
    metrics: pd.DataFrame, out_dir: Path, groups: Mapping[str, str] | None = None
) -> tuple[list[Path], list[str], dict[str, str], list[str]]:
    """Write every table the metrics support (csv, md and tex each, and all of them in
    ``forensics_tables.md`` / ``.tex``); return the files, the console notes of the skipped
    ones, the HTML blocks of the tables shown inline (by file stem) and the download lines of
    the others. ``groups``: each model's ``proprietary`` / ``open`` block (default: open)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    notes: list[str] = []
    md, tex = [], []
    shown: dict[str, str] = {}
    downloads: list[str] = []
    for t in all_tables(metrics, groups):
        if isinstance(t, Skipped):
            if t.number:
                notes.append(f"  forensics table {t.number} skipped: {t.reason}")
            continue
        stem = _stem(t)
        links = []
        for ext, render in (("csv", to_csv), ("md", to_markdown), ("tex", to_latex)):
            path = out_dir / f"{stem}.{ext}"
            path.write_text(render(t), encoding="utf-8")
            files.append(path)
            links.append(_link(out_dir, path, ext))
        md.append(to_markdown(t))
        tex.append(to_latex(t))
        if stem in _INLINE:
            shown[stem] = (
                f"<div class='table-block'>{to_html(t)}"
                f"<p class='downloads'>Download: {' · '.join(links)}</p></div>"
            )
        else:
            downloads.append(f"<li>{html.escape(t.title)}: {' · '.join(links)}</li>")
    for name, chunks in (("forensics_tables.md", md), ("forensics_tables.tex", tex)):
        if chunks:
            (out_dir / name).write_text("\n\n".join(chunks) + "\n", encoding="utf-8")
            files.append(out_dir / name)
    return files, notes, shown, downloads


def write_report(
    metrics: pd.DataFrame, out_dir: Path, groups: Mapping[str, str] | None = None
) -> tuple[str, list[Path], list[str]]:
    """Write the tables and figures; return the section's HTML, the files and console notes.
    ``groups``: each model's ``proprietary`` / ``open`` block (default: open)."""
    files, notes, shown, downloads = write_tables(metrics, out_dir, groups)
    # lazy: `forgebench tables` loads this module and draws nothing (matplotlib: 0.5-0.9 CPU-s)
    from forgebench.suites.forensics.figures import write_figures

    figs = write_figures(metrics, out_dir / "figures")
    files += figs

    def fig(stem: str, caption: str, wide: bool = False) -> str:
        return _figure(out_dir, figs, stem, caption, wide)

    perspectives = "".join(
        fig(f"forensics_fig{n}_{p}", f"Figure {n}: accuracy by forgery {p}.")
        for n, p in ((4, "semantic"), (5, "modality"), (6, "task"), (7, "type"), (8, "model"))
    )
    parts = [
        "<div class='pair'>"
        + shown.get("forensics_table_02", "")
        + shown.get("forensics_extraction", "")
        + "</div>",
        shown.get("forensics_choice", ""),
        "<div class='figures'>"
        + fig("forensics_fig2_overview", "Figure 2: perspective scores and leaderboard.", True)
        + "</div>",
        shown.get("forensics_table_03", ""),
        shown.get("forensics_table_03_levels", ""),
        "<div class='figures'>"
        + fig(
            "forensics_robustness_levels",
            "Accuracy by perturbation level, 0 = clean (forgebench's addition, not the paper's).",
            True,
        )
        + "</div>",
        shown.get("forensics_table_04", ""),
        f"<div class='figures'>{perspectives}</div>",
        "<div class='figures'>"
        + fig("forensics_type_heatmap", "Accuracy per type code (Tables 15-26).", True)
        + "</div>",
        *(shown.get(f"forensics_table_{n}", "") for n in (11, 12, 13, 14)),
    ]
    if downloads:
        parts.append(
            "<p>Accuracy per type code:</p><ul class='downloads-list'>"
            + "".join(downloads)
            + "</ul>"
        )
    return "".join(parts), files, notes


def run_metrics(run_dir: Path, judge: str | None) -> pd.DataFrame | None:
    """The Forensics rows of ``RUN/metrics.csv`` (of ``judge``); None without any."""
    path = run_dir / "metrics.csv"
    if not path.is_file():
        return None
    m = read_metrics(path, benchmark="forensics", judge=judge)
    return None if m.empty else m


def need_metrics(run_dir: Path, judge: str | None) -> pd.DataFrame:
    """:func:`run_metrics`, or one line saying the run is not scored yet (tables, figures)."""
    m = run_metrics(run_dir, judge)
    if m is None:
        raise SuiteError(f"{run_dir / 'metrics.csv'}: no Forensics metrics (score the run first)")
    return m


def summary_table(metrics: pd.DataFrame) -> Any:
    """A console table (rich) of Table 2 plus the Z share, probe MCQ, condition full."""
    from rich.table import Table as RichTable

    t2 = all_tables(metrics)[0]
    out = RichTable(title="Forensics results (accuracy %, Z counts as wrong)")
    if isinstance(t2, Skipped):
        return None
    for c in t2.columns:
        out.add_column(c.key, justify="left" if c.key == "Model" else "right")
    out.add_column("Z", justify="right")
    z = metrics[
        (metrics["metric"] == "z") & (metrics["probe"] == "MCQ") & (metrics["condition"] == "full")
    ].set_index("model")["value"]
    for row in t2.rows:
        model = row[0].text
        share = f"{float(z[model]):.1f}" if model in z.index else "—"
        out.add_row(*(c.text for c in row), share)
    return out
