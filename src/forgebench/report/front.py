"""The report's front page: where each model stands on every benchmark of the run.

One table, a row per model, a column group per benchmark with its headline numbers (each suite's
``headline``: DESIGN.md's list), each cell the value of ``metrics.csv`` with its 95% interval in
brackets where the suite gives one (its report facet's ``intervals``; how each resamples is its
``interval_note``, named in the caption). A model that did not run a benchmark has dashes there.
The same numbers, with ``lo`` and ``hi``, are written to ``report/overview.csv``; each group's
heading links to its benchmark's section (``#suite-<name>``).

A run with repeats (``run --epochs``) also shows, in each cell whose metric has spread rows
(``<metric>_epoch_mean`` and ``<metric>_epoch_sd``, :mod:`forgebench.results.epochs`), the mean
and standard deviation over the epochs after the epoch-1 value; overview.csv gains the columns
``epoch_mean``, ``epoch_sd`` and ``epochs`` then (a run without repeats: the page as before).
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import pandas as pd

from forgebench.interop.headline import Headline
from forgebench.report.table import Cell, Column, Table, dash, mark_best, to_html
from forgebench.results.metrics_csv import read_metrics
from forgebench.util.atomic import atomic_path
from forgebench.util.csvsafe import write_frame

__all__ = ["FILENAME", "front_page"]

FILENAME = "overview.csv"


class _Suite(Protocol):
    """What the front page needs of a suite (``suites.base.Suite`` has it)."""

    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def headline(self) -> Sequence[Headline]: ...


class _Intervals(Protocol):
    """What the front page needs of a suite's report facet (``suites.facets.Report`` has it)."""

    @property
    def interval_note(self) -> str: ...

    def intervals(self, run_dir: Path, out_dir: Path, judge: str | None) -> Any: ...


def _select(frame: pd.DataFrame, h: Headline) -> pd.DataFrame:
    """The rows of ``frame`` that are the headline number ``h``."""
    return frame[
        (frame["probe"] == h.probe)
        & (frame["condition"] == h.condition)
        & (frame["metric"] == h.metric)
        & (frame["subset"] == h.subset)
    ]


def _spread(rows: pd.DataFrame, h: Headline, model: str, judge: Any) -> dict[str, float]:
    """The spread of headline ``h`` for ``model`` over a run's epochs (empty without repeats)."""
    out: dict[str, float] = {}
    for name in ("mean", "sd"):
        hit = rows[
            (rows["probe"] == h.probe) & (rows["condition"] == h.condition)
            & (rows["subset"] == h.subset) & (rows["metric"] == f"{h.metric}_epoch_{name}")
            & (rows["model"] == model) & (rows["judge"].fillna("") == (judge if judge == judge else ""))
        ]  # fmt: skip
        if hit.empty:
            return {}
        out[f"epoch_{name}"] = float(hit["value"].iloc[0])
        out["epochs"] = float(hit["n"].iloc[0])
    return out


def front_page(
    run_dir: Path,
    out_dir: Path,
    suites: Sequence[_Suite],
    judge: str | None = None,
    intervals: Mapping[str, _Intervals] | None = None,
) -> str:
    """The front page's HTML ('' when no suite of the run has a headline number yet); writes
    ``out_dir/overview.csv``. ``intervals``: benchmark -> what gives its headline intervals and
    says how they resample (a suite left out shows none)."""
    path = run_dir / "metrics.csv"
    if not path.is_file():
        return ""
    metrics = read_metrics(path, judge=judge)
    records: list[dict[str, Any]] = []
    shown: list[tuple[_Suite, list[Headline]]] = []
    for suite in suites:
        rows = metrics[metrics["benchmark"] == suite.name]
        heads = [h for h in suite.headline if len(_select(rows, h))]
        if not heads:
            continue
        shown.append((suite, heads))
        given = (intervals or {}).get(suite.name)
        ci = given.intervals(run_dir, out_dir, judge) if given is not None else None
        for h in heads:
            cis = _select(ci, h) if ci is not None and len(ci) else None
            for _, r in _select(rows, h).iterrows():
                lo = hi = float("nan")
                if cis is not None:
                    c = cis[cis["model"] == r["model"]]
                    if len(c):
                        lo, hi = float(c["lo"].iloc[0]), float(c["hi"].iloc[0])
                records.append(
                    {
                        "benchmark": suite.name, "model": str(r["model"]), "probe": h.probe,
                        "condition": h.condition, "subset": h.subset, "metric": h.metric,
                        "value": float(r["value"]), "lo": lo, "hi": hi, "n": r["n"],
                        "judge": r["judge"],
                        **_spread(rows, h, str(r["model"]), r["judge"]),
                    }
                )  # fmt: skip
    if not records:
        return ""
    data = pd.DataFrame(records)
    with atomic_path(out_dir / FILENAME) as tmp:
        write_frame(data, tmp)
    models = sorted(set(data["model"]))
    columns = [Column("Model")]
    for suite, heads in shown:
        columns += [Column(h.label, suite.name) for h in heads]
    body: list[list[Cell]] = []
    for model in models:
        row = [Cell(model, model)]
        for suite, heads in shown:
            for h in heads:
                hit = data[
                    (data["benchmark"] == suite.name)
                    & (data["model"] == model)
                    & (data["metric"] == h.metric)
                    & (data["subset"] == h.subset)
                ]
                if hit.empty:
                    row.append(dash())
                    continue
                v, lo, hi = (float(hit[c].iloc[0]) for c in ("value", "lo", "hi"))
                interval = f" [{lo:.1f}, {hi:.1f}]" if lo == lo and hi == hi else ""
                if "epoch_mean" in hit and hit["epoch_mean"].iloc[0] == hit["epoch_mean"].iloc[0]:
                    mean, sd, k = (
                        float(hit[c].iloc[0]) for c in ("epoch_mean", "epoch_sd", "epochs")
                    )
                    interval += f"; {mean:.1f} ± {sd:.1f} over {k:.0f} epochs"
                row.append(Cell(v, f"{v:.1f}{interval}"))
        body.append(row)
    notes = "; ".join(
        f"{s.name}: {note}"
        for s, _ in shown
        if (note := getattr((intervals or {}).get(s.name), "interval_note", ""))
    )
    table = Table(
        0,
        "Headline numbers of every model on every benchmark of the run (%), with 95% bootstrap "
        "intervals over items in brackets where the benchmark gives them"
        + (f" ({notes})" if notes else "")
        + (
            "; a run asked more than once shows epoch 1's value, then the mean ± standard "
            "deviation over its epochs"
            if "epoch_mean" in data
            else ""
        )
        + "; the best value of each column is bold.",
        columns,
        mark_best([(None, body)]),
        slug="overview",
        heading="Overview",
    )
    links = " · ".join(
        f"<a href='#suite-{html.escape(s.name)}'>{html.escape(s.title or s.name)}</a>"
        for s, _ in shown
    )
    return (
        "<section id='overview'><h2>Overview</h2>"
        f"<div class='table-block'>{to_html(table)}"
        f"<p class='downloads'>Download: <a href='{FILENAME}'>csv</a> · Sections: {links}</p>"
        "</div></section>"
    )
