"""The leaderboard site of ``forgebench leaderboard``: ``SITE/index.html`` (one sortable table per
benchmark), ``leaderboard.csv`` and ``leaderboard.json`` (the same rows), in the report's style.

The site opens from disk and works offline: plain HTML tables drawn with the page (the first
shows as soon as the HTML is read), sorted by a small script of its own (``leaderboard.js``,
no library, no network) when a column's heading is clicked; each cell carries its raw value in
``data-v`` so that numbers sort as numbers. One row is one model of one benchmark in one run:
the same model name in two runs is two rows, each naming its run and its item count, never
pooled or averaged.
"""

from __future__ import annotations

import html
import json
import math
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from forgebench.util.atomic import atomic_open, write_text
from forgebench.util.csvsafe import writer as csv_writer

__all__ = ["BoardRow", "write_leaderboard"]

CSV_NAME = "leaderboard.csv"
JSON_NAME = "leaderboard.json"


@dataclass
class BoardRow:
    """One model of one benchmark in one run."""

    benchmark: str
    title: str
    model: str
    run: str
    """The run's name on the site (its folder's name; a second run of that name gets ``-2``)."""
    items: int
    """The run's items of the benchmark."""
    item_set: str
    """A short digest of those items' ids: rows with the same digest ran the same items."""
    n: int | None = None
    """The ``n`` of the model's first headline number in ``metrics.csv`` (what it was computed
    on: the model's questions, pairs or items of that metric's population)."""
    metrics: dict[str, tuple[float | None, float | None, float | None]] = field(
        default_factory=dict
    )
    """Headline label -> (value, lo, hi) in percent (None where missing)."""
    spec: str = ""
    """The model's spec, without secrets."""
    temperature: float | None = None
    max_tokens: int | None = None
    report: str | None = None
    """The run's report, relative to the site (None: the run has none)."""

    def record(self, labels: Sequence[str]) -> dict[str, Any]:
        """The row as the CSV and JSON hold it (``labels``: every metric column)."""
        out: dict[str, Any] = {
            "benchmark": self.benchmark, "model": self.model, "run": self.run,
            "items": self.items, "item_set": self.item_set, "n": self.n,
        }  # fmt: skip
        for name in labels:
            value, lo, hi = self.metrics.get(name, (None, None, None))
            out[name], out[f"{name} lo"], out[f"{name} hi"] = value, lo, hi
        out.update(
            spec=self.spec, temperature=self.temperature, max_tokens=self.max_tokens,
            report=self.report,
        )  # fmt: skip
        return out


_JS = """// Sorts each table by the column whose heading is clicked (again: the other way).
(function () {
  function key(td) {
    var v = td ? td.getAttribute("data-v") : null;
    if (v === null || v === "") return null;
    var n = Number(v);
    return isNaN(n) ? v.toLowerCase() : n;
  }
  function sortBy(table, col, th) {
    var desc = th.getAttribute("aria-sort") !== "descending";
    table.querySelectorAll("th").forEach(function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", desc ? "descending" : "ascending");
    var body = table.tBodies[0];
    var keyed = Array.prototype.map.call(body.rows, function (r, i) {
      return [key(r.cells[col]), i, r];  // each key read once; the position keeps ties stable
    });
    keyed.sort(function (a, b) {
      var x = a[0], y = b[0];
      if (x === null || y === null) return x === y ? a[1] - b[1] : (x === null ? 1 : -1);  // missing last
      var c = (typeof x === typeof y) ? (x < y ? -1 : x > y ? 1 : 0) : (typeof x === "number" ? -1 : 1);
      return (desc ? -c : c) || a[1] - b[1];
    });
    var fresh = document.createElement("tbody");  // one swap: the table is laid out once
    keyed.forEach(function (k) { fresh.appendChild(k[2]); });
    table.replaceChild(fresh, body);
  }
  document.querySelectorAll("table.board").forEach(function (table) {
    table.querySelectorAll("thead th").forEach(function (th, col) {
      var b = th.querySelector("button");
      if (b) b.addEventListener("click", function () { sortBy(table, col, th); });
    });
  });
})();
"""

_CSS = """
table.board th button { font: inherit; font-weight: 600; background: none; border: 0; padding: 0; cursor: pointer; }
table.board th[aria-sort=ascending] button::after { content: " ▲"; }
table.board th[aria-sort=descending] button::after { content: " ▼"; }
table.board td.t, table.board th.t, table.board td.spec { text-align: left; }
section.later { content-visibility: auto; contain-intrinsic-size: auto 1200px; }
table.board td.spec { font-family: monospace; font-size: .8rem; max-width: 28em; overflow-wrap: anywhere; }
"""


_TEXT = frozenset({"Model", "Run", "Item set", "Spec", "Report"})
"""Columns of text (left-aligned)."""


def _esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def _num(value: float | None) -> str:
    return "" if value is None or not math.isfinite(value) else repr(float(value))


def _cell(raw: object, text: str, cls: str = "") -> str:
    klass = f' class="{cls}"' if cls else ""
    return f'<td{klass} data-v="{_esc(raw)}">{text}</td>'


def _metric_cell(found: tuple[float | None, float | None, float | None] | None) -> str:
    value, lo, hi = found or (None, None, None)
    if value is None:
        return _cell("", "—")
    interval = f" [{lo:.1f}, {hi:.1f}]" if lo is not None and hi is not None else ""
    return _cell(_num(value), f"{value:.1f}<small class='muted'>{interval}</small>")


def _table(benchmark: str, title: str, labels: list[str], rows: list[BoardRow], first: bool) -> str:
    later = "" if first else ' class="later"'  # laid out when scrolled to: the first shows sooner
    heads = ["Model", "Run", "Items", "Item set", "n", *labels, "Temperature", "Max tokens",
             "Spec", "Report"]  # fmt: skip
    out = [
        f'<section id="bench-{_esc(benchmark)}"{later}><h2>{_esc(title)}</h2>',
        f'<div class="table-block"><table class="num board" id="board-{_esc(benchmark)}">',
        f"<caption>{_esc(title)}: headline numbers (%) with 95% intervals in brackets where the "
        "run's report computed them or the benchmark gives them; one row per model and run (a "
        "model in several runs has a row for each, never pooled); rows with the same item set "
        "ran the same items; n: what the first headline number was computed on. Click a heading "
        "to sort.</caption>",
        "<thead><tr>",
        *(
            f"<th{' class=t' if h in _TEXT else ''}><button type='button'>{_esc(h)}</button></th>"
            for h in heads
        ),
        "</tr></thead><tbody>",
    ]
    for r in rows:
        link = (
            f"<a href='{_esc(r.report)}'>report</a>" if r.report is not None else "—"
        )  # a relative path: the site works wherever it is opened from
        out.append(
            "<tr>"
            + _cell(r.model, _esc(r.model), "t")
            + _cell(r.run, _esc(r.run), "t")
            + _cell(r.items, str(r.items))
            + _cell(r.item_set, f"<code>{_esc(r.item_set)}</code>", "t")
            + _cell("" if r.n is None else r.n, "—" if r.n is None else str(r.n))
            + "".join(_metric_cell(r.metrics.get(label)) for label in labels)
            + _cell(_num(r.temperature), "—" if r.temperature is None else f"{r.temperature:g}")
            + _cell(
                r.max_tokens if r.max_tokens is not None else "",
                "—" if r.max_tokens is None else str(r.max_tokens),
            )
            + _cell(r.spec, _esc(r.spec), "spec")
            + _cell(r.report or "", link, "t")
            + "</tr>"
        )
    out.append("</tbody></table></div></section>")
    return "".join(out)


def write_leaderboard(
    out: Path, rows: Sequence[BoardRow], labels: dict[str, list[str]], runs: Sequence[str]
) -> list[Path]:
    """Write the site under ``out``: ``index.html`` (a table per benchmark, ``labels``: its
    metric columns in order), its style and script, ``leaderboard.csv`` and ``leaderboard.json``
    (every row, with every metric column); the files written."""
    out.mkdir(parents=True, exist_ok=True)
    every = list(dict.fromkeys(label for group in labels.values() for label in group))
    records = [r.record(every) for r in rows]
    columns = list(records[0]) if records else []
    files = []
    with atomic_open(out / CSV_NAME, "w", newline="") as fh:
        w = csv_writer(fh)
        w.writerow(columns)
        for rec in records:
            w.writerow(["" if rec[c] is None else rec[c] for c in columns])
    files.append(out / CSV_NAME)
    write_text(out / JSON_NAME, json.dumps({"columns": columns, "rows": records}, indent=1) + "\n")
    files.append(out / JSON_NAME)
    with resources.as_file(resources.files("forgebench.report") / "html" / "viewer.css") as css:
        shutil.copyfile(css, out / "viewer.css")
    write_text(out / "leaderboard.js", _JS)
    files += [out / "viewer.css", out / "leaderboard.js"]
    sections: list[str] = []
    titles = {r.benchmark: r.title for r in rows}
    for benchmark, group in labels.items():
        mine = [r for r in rows if r.benchmark == benchmark]
        title = titles.get(benchmark, benchmark)
        sections.append(_table(benchmark, title, group, mine, first=not sections))
    nav = " · ".join(f"<a href='#bench-{_esc(b)}'>{_esc(titles.get(b, b))}</a>" for b in labels)
    title = f"forgebench leaderboard: {len(runs)} run{'s' if len(runs) != 1 else ''}"
    page = (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{_esc(title)}</title><link rel='stylesheet' href='viewer.css'>"
        f"<style>{_CSS}</style></head><body><header><h1>{_esc(title)}</h1>"
        f"<nav>{nav}</nav></header><section><p class='downloads'>Download: "
        f"<a href='{CSV_NAME}'>csv</a> · <a href='{JSON_NAME}'>json</a> · Runs: "
        f"{_esc(', '.join(runs))}</p></section>{''.join(sections)}"
        "<footer class='muted'>Generated by forgebench. Opens from disk; no network.</footer>"
        "<script src='leaderboard.js'></script></body></html>"
    )
    write_text(out / "index.html", page)
    files.append(out / "index.html")
    return files
