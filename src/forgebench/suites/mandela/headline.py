"""The headline part of the report page: main numbers, figures and links to the full tables.

Reads ``RUN/metrics.csv`` (long format, DESIGN.md) and shows, per model and probe under ``full``
on all items, KGR, Det, Auth, Bal, E4 and Miss (the columns of Table 2), then L0 KGR by family,
then every figure found under ``report/figures/`` and links to the table files.
"""

from __future__ import annotations

import html
from pathlib import Path

from forgebench.results.metrics_csv import read_rows
from forgebench.suites.mandela.contract import FAMILIES

HEAD_METRICS = ("kgr", "det", "auth", "bal", "e4", "miss")


def _read_metrics(path: Path) -> list[dict[str, str]]:
    return read_rows(path)


def _fmt(value: str | None) -> str:
    if value is None or value == "":
        return "—"
    try:
        return f"{float(value):.1f}"
    except ValueError:
        return html.escape(value)


def _table(header: list[str], rows: list[list[str]], caption: str) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    return (
        f'<table class="num"><caption>{html.escape(caption)}</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    )


def headline_html(run_dir: Path, out_dir: Path, judge: str | None) -> str:
    """HTML of the headline section (tables, figures, links); explains what is missing."""
    parts: list[str] = []
    metrics_path = run_dir / "metrics.csv"
    if metrics_path.is_file():
        rows = _read_metrics(metrics_path)
        judged = {r["judge"] for r in rows if r.get("judge")}
        if judge is None and judged:
            judge = sorted(judged)[0]

        def keep(r: dict[str, str]) -> bool:
            return r.get("benchmark", "mandela") == "mandela" and r.get("judge") in ("", judge)

        cell: dict[tuple[str, str, str, str, str], str] = {}
        for r in rows:
            if keep(r):
                cell[(r["model"], r["probe"], r["condition"], r["subset"], r["metric"])] = r[
                    "value"
                ]
        models = sorted({k[0] for k in cell})
        probes = [p for p in ("L0", "L1", "L-adv") if any(k[1] == p for k in cell)]
        body = []
        for m in models:
            for p in probes:
                vals = [cell.get((m, p, "full", "all", x)) for x in HEAD_METRICS]
                if any(v is not None for v in vals):
                    body.append([html.escape(m), p, *(_fmt(v) for v in vals)])
        if body:
            parts.append(
                _table(
                    ["Model", "Probe", "KGR", "Det", "Auth", "Bal", "E4", "Miss"],
                    body,
                    f"Main results under Full, all items (strict scoring; judge: {judge or 'none'})",
                )
            )
        fam = [
            [html.escape(m), *(_fmt(cell.get((m, "L0", "full", f, "kgr"))) for f in FAMILIES)]
            for m in models
            if any((m, "L0", "full", f, "kgr") in cell for f in FAMILIES)
        ]
        if fam:
            parts.append(_table(["Model", *FAMILIES], fam, "L0 KGR by knowledge family"))
    else:
        parts.append(
            '<p class="note">No metrics.csv yet: run <code>forgebench metrics RUN</code> '
            "to see the headline numbers here.</p>"
        )
    figures = sorted((out_dir / "figures").glob("*.png")) if (out_dir / "figures").is_dir() else []
    if figures:
        parts.append('<div class="figures">')
        for f in figures:
            rel = f"figures/{f.name}"
            parts.append(
                f'<figure><a href="{html.escape(rel)}"><img src="{html.escape(rel)}" '
                f'alt="{html.escape(f.stem)}" loading="lazy"></a>'
                f"<figcaption>{html.escape(f.stem)}</figcaption></figure>"
            )
        parts.append("</div>")
    links = [n for n in ("tables.md", "tables.tex") if (out_dir / n).is_file()]
    links += sorted(p.name for p in out_dir.glob("table_*.csv"))
    if links:
        parts.append(
            '<p class="links">All tables: '
            + ", ".join(f'<a href="{html.escape(n)}">{html.escape(n)}</a>' for n in links)
            + "</p>"
        )
    return "\n".join(parts)
