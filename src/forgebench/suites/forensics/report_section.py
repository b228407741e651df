"""The Forensics section of the report: tables (md, tex, csv), Figures 4-8, and a page section
with Table 2, the extraction shares (how each model's letters were found) and links.

Files go under ``report/`` with a ``forensics_`` prefix so they never collide with another
suite's (``forensics_table_02.csv``, ``forensics_tables.md``, ``figures/forensics_fig4_...``).
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import pandas as pd

from forgebench.report.table import Skipped, to_csv, to_html, to_latex, to_markdown
from forgebench.suites.forensics.figures import write_figures
from forgebench.suites.forensics.tables import all_tables

SHARES = (
    ("by_letter", "letter"),
    ("by_text", "option text"),
    ("by_extractor", "extractor"),
    ("z", "Z"),
)


def _shares_html(metrics: pd.DataFrame) -> str:
    m = metrics[(metrics["benchmark"] == "forensics") & (metrics["subset"] == "all")]
    m = m[m["metric"].isin([s for s, _ in SHARES])]
    if m.empty:
        return ""
    rows = []
    for (model, probe, cond), g in m.groupby(["model", "probe", "condition"], sort=True):
        vals = {r["metric"]: float(r["value"]) for _, r in g.iterrows()}
        judge = next((j for j in g["judge"] if j), "")
        cells = "".join(f"<td>{vals.get(s, float('nan')):.1f}</td>" for s, _ in SHARES)
        rows.append(
            f"<tr><td>{html.escape(str(model))}</td><td>{html.escape(str(probe))}</td>"
            f"<td>{html.escape(str(cond))}</td>{cells}<td>{html.escape(judge)}</td></tr>"
        )
    head = "".join(f"<th>{label} (%)</th>" for _, label in SHARES)
    return (
        "<table class='fb-table'><caption>How the option letters were found (shares of the "
        "answers; Z counts as wrong, never a random letter).</caption><thead><tr><th>Model</th>"
        f"<th>Probe</th><th>Condition</th>{head}<th>Extractor</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )


def write_report(metrics: pd.DataFrame, out_dir: Path) -> tuple[str, list[Path], list[str]]:
    """Write the tables and figures; return the section's HTML, the files and console notes."""
    out_dir.mkdir(parents=True, exist_ok=True)
    built = all_tables(metrics)
    files: list[Path] = []
    notes: list[str] = []
    md, tex, parts = [], [], []
    for t in built:
        if isinstance(t, Skipped):
            notes.append(f"  forensics table {t.number} skipped: {t.reason}")
            continue
        path = out_dir / f"forensics_table_{t.number:02d}.csv"
        path.write_text(to_csv(t), encoding="utf-8")
        files.append(path)
        md.append(to_markdown(t))
        tex.append(to_latex(t))
        if t.number in (2, 3, 4):
            parts.append(to_html(t))
    for name, chunks in (("forensics_tables.md", md), ("forensics_tables.tex", tex)):
        if chunks:
            (out_dir / name).write_text("\n\n".join(chunks) + "\n", encoding="utf-8")
            files.append(out_dir / name)
    figs = write_figures(metrics, out_dir / "figures")
    files += figs
    links = "".join(
        f"<li><a href='{html.escape(p.relative_to(out_dir).as_posix())}'>{html.escape(p.name)}</a></li>"
        for p in files
        if p.suffix in (".md", ".png", ".csv")
    )
    pictures = "".join(
        f"<figure><img src='{html.escape(p.relative_to(out_dir).as_posix())}' "
        f"alt='{html.escape(p.stem)}' style='max-width:100%'></figure>"
        for p in figs
        if p.suffix == ".png"
    )
    body = (
        "".join(parts) + _shares_html(metrics) + pictures + (f"<ul>{links}</ul>" if links else "")
    )
    return body, files, notes


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
