"""Figures of seed 002 from ``metrics.csv``, every model in one chart where the paper compares
models:

- ``forensics_fig2_overview``: Figure 2, a radar of the five perspective scores per model beside
  the overall leaderboard (probe MCQ, condition full);
- ``forensics_fig<4..8>_<perspective>``: Figures 4-8, accuracy per value of one perspective as
  grouped bars, one bar per model in each group (``acc`` rows with subset
  ``<perspective>=<value>``);
- ``forensics_type_heatmap``: accuracy per type code, models x codes, the codes in the paper's
  order of Tables 15-26 with a separator where the semantic perspective changes (HS / GS), then
  the run's other codes; under three models or three codes the same numbers as grouped bars
  (a one-row heatmap says less than bar lengths);
- ``forensics_robustness_levels``: accuracy against perturbation level (0 = the clean ``full``
  accuracy, then levels 1-5), one panel per kind, one line per model: forgebench's addition
  beside Table 3, not a figure of the paper.

Every figure is laid out in inches from its measured labels by the rules of
:mod:`forgebench.report.figure_layout` (Figures 4-8 keep their grouped bars up to ten models,
then become a heatmap, a row a model, or bars by model where a perspective has two values). Each is written by
:func:`forgebench.report.style.write_figure`: PNG, SVG and the CSV of the
plotted numbers, under ``RUN/report/figures/``; a figure without data is not written.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import cast

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.projections.polar import PolarAxes

from forgebench.report.figure_layout import (
    CELL_H,
    LABEL_SIZE,
    PAD,
    TICK,
    TITLE_SIZE,
    axes_at,
    chart_kind,
    grouped_bars_figure,
    heatmap_figure,
    inches_to_fig,
    legend_grid,
    legend_kwargs,
    text_size,
    widest,
)
from forgebench.report.style import FONT, figure_style, model_colors, write_figure
from forgebench.suites.forensics.ids import LEVELS, TABLE3_KINDS
from forgebench.suites.forensics.paper_codes import PAPER_CODES
from forgebench.suites.forensics.taxonomy import PERSPECTIVES

FIGURE_NUMBER: dict[str, int] = dict(zip(PERSPECTIVES, (4, 5, 6, 7, 8), strict=True))
TITLES = {
    "semantic": "forgery semantics",
    "modality": "forgery modality",
    "task": "forgery task",
    "type": "forgery type",
    "model": "forgery model",
}
KIND_LABELS = {
    "saturation": "Saturation", "contrast": "Contrast", "block": "Block",
    "noise": "Noise", "blur": "Blur", "pixelate": "Pixel",
}  # fmt: skip


def _full(metrics: pd.DataFrame, probe: str = "MCQ") -> pd.DataFrame:
    return metrics[
        (metrics["benchmark"] == "forensics")
        & (metrics["probe"] == probe)
        & (metrics["condition"] == "full")
    ]


def _model_order(metrics: pd.DataFrame) -> list[str]:
    """Models by overall accuracy (MCQ, full), best first: every figure's legend order."""
    acc = _full(metrics)
    acc = acc[(acc["subset"] == "all") & (acc["metric"] == "acc")]
    return [str(x) for x in acc.sort_values(["value", "model"], ascending=[False, True])["model"]]


def _per_value(metrics: pd.DataFrame, perspective: str) -> pd.DataFrame:
    m = _full(metrics)
    m = m[(m["metric"] == "acc") & m["subset"].str.startswith(f"{perspective}=")]
    return m.assign(value_name=m["subset"].str.split("=", n=1).str[1])


def _models_by_categories(
    table: np.ndarray,
    models: list[str],
    categories: list[str],
    *,
    title: str,
    prefer: str,
    separators: list[int] | None = None,
) -> Figure:
    """Accuracy (%) of ``models`` (rows of ``table``) per category (columns) drawn as
    :func:`forgebench.report.figure_layout.chart_kind` says: grouped bars (a bar per model,
    coloured as in every figure), grouped bars by model (a bar per category), or a heatmap."""
    kind = chart_kind(len(models), len(categories), prefer)
    if kind == "heatmap":
        fig, _ = heatmap_figure(
            table, models, categories, title=title, bar_label="Accuracy (%)",
            separators=separators or (),
        )  # fmt: skip
    elif kind == "bars":
        colors = model_colors(models)
        fig, _ = grouped_bars_figure(
            categories, models, table, [colors[x] for x in models], title=title,
            ylabel="Accuracy (%)", separators=separators or (),
        )  # fmt: skip
    else:
        colors = model_colors(categories)
        fig, _ = grouped_bars_figure(
            models, categories, table.T, [colors[x] for x in categories], title=title,
            ylabel="Accuracy (%)",
        )  # fmt: skip
    return fig


def perspective_figure(
    metrics: pd.DataFrame, perspective: str
) -> tuple[Figure, pd.DataFrame] | None:
    """Figures 4-8: accuracy (%) per value of ``perspective``, grouped bars, a bar per model
    (past :data:`~forgebench.report.figure_layout.GROUPED_BARS_MAX_SERIES` models a heatmap, a
    row per model, or bars by model where the perspective has under three values)."""
    m = _per_value(metrics, perspective)
    if m.empty:
        return None
    values = sorted(set(m["value_name"]))
    order = [x for x in _model_order(metrics) if x in set(m["model"])]
    models = order + sorted(set(m["model"]) - set(order))
    table = (
        m.pivot_table(index="model", columns="value_name", values="value", aggfunc="first")
        .reindex(index=models, columns=values)
        .to_numpy(dtype=float)
    )
    title = f"Figure {FIGURE_NUMBER[perspective]}: accuracy by {TITLES[perspective]}"
    with figure_style():
        fig = _models_by_categories(table, models, values, title=title, prefer="bars")
    data = m[["model", "value_name", "value", "n"]].rename(
        columns={"value_name": "perspective_value", "value": "acc"}
    )
    data.insert(1, "perspective", perspective)
    return fig, data.sort_values(["model", "perspective_value"]).reset_index(drop=True)


def _overview(data: pd.DataFrame, models: list[str], colors: dict[str, str]) -> Figure:
    """Figure 2's picture in inches: a 2.6-inch radar (room for its axis names around it) and
    the leaderboard, a row of :data:`~forgebench.report.figure_layout.CELL_H` a model, its
    labels and values measured."""
    radar_side, board_w = 2.6, 2.4
    names = [p.capitalize() for p in PERSPECTIVES]
    around = widest(names)[0] + 0.15  # theta labels left and right of the circle
    label_w = widest(models)[0] + TICK + PAD + 0.04
    value_w = widest(["100.0"])[0] + 0.12
    board_h = max(len(models) * CELL_H, radar_side)
    # the radar's title sits over its top axis name ("Modality"), 14 pt above the circle
    title_band = text_size("Leaderboard", TITLE_SIZE)[1] + widest(names)[1] + 0.36
    sup_band = text_size("Figure 2", TITLE_SIZE)[1] + 0.2
    bottom = widest(["100"])[1] + TICK + PAD + text_size("Overall", LABEL_SIZE)[1] + 0.12
    width = 0.1 + around + radar_side + around + label_w + board_w + value_w
    height = bottom + board_h + title_band + sup_band
    fig = plt.figure(figsize=(width, height))
    top = bottom + board_h  # the panels' tops
    radar = axes_at(fig, 0.1 + around, top - radar_side, radar_side, radar_side, projection="polar")
    angles = np.linspace(0, 2 * math.pi, len(PERSPECTIVES), endpoint=False).tolist()
    for model in models:
        vals = (
            data.loc[data["model"] == model, [f"{p}_score" for p in PERSPECTIVES]]
            .iloc[0]
            .astype(float)
            .tolist()
        )
        if all(np.isnan(v) for v in vals):
            continue
        radar.plot([*angles, angles[0]], [*vals, vals[0]], color=colors[model], linewidth=1.0)
    radar.set_xticks(angles, names)
    radar.set_ylim(0, 100)
    radar.set_axisbelow(False)  # the scale's numbers over the models' lines, not under them
    cast(PolarAxes, radar).set_rlabel_position(
        90 - 360 / len(PERSPECTIVES) / 2
    )  # between two axis names
    radar.set_title("Perspective scores (%)", pad=widest(names)[1] * 72 + 10)
    board = axes_at(fig, 0.1 + 2 * around + radar_side + label_w, bottom, board_w, board_h)
    y = np.arange(len(models))[::-1]
    board.barh(y, data["overall"], color=[colors[x] for x in models])
    board.set_yticks(y, models)
    board.set_ylim(-0.5, len(models) - 0.5)
    board.set_xlim(0, 100)
    board.set_xlabel("Overall accuracy (%)")
    board.set_title("Leaderboard")
    for yy, v in zip(y, data["overall"], strict=True):
        board.text(v + 1, yy, f"{v:.1f}", va="center", fontsize=FONT)
    fig.text(0.5, 1 - 0.08 / height, "Figure 2: Forensics-Bench results", ha="center",
             va="top", fontsize=TITLE_SIZE)  # fmt: skip
    return fig


def overview_figure(metrics: pd.DataFrame) -> tuple[Figure, pd.DataFrame] | None:
    """Figure 2: the five perspective scores per model on a radar, and the leaderboard."""
    m = _full(metrics)
    models = _model_order(metrics)
    if not models:
        return None
    # the first row of each (model, subset, metric), looked up rather than filtered per model
    first = m.drop_duplicates(["model", "subset", "metric"]).set_index(
        ["model", "subset", "metric"]
    )["value"]
    rows = []
    for model in models:
        row: dict[str, object] = {"model": model}
        row["overall"] = float(first[(model, "all", "acc")])
        for p in PERSPECTIVES:
            key = (model, p, "persp")
            row[f"{p}_score"] = float(first[key]) if key in first.index else np.nan
        rows.append(row)
    data = pd.DataFrame(rows)
    colors = model_colors(models)
    with figure_style():
        fig = _overview(data, models, colors)
    return fig, data


def type_heatmap(metrics: pd.DataFrame) -> tuple[Figure, pd.DataFrame] | None:
    """Accuracy per type code, models x codes (paper order, then the run's other codes): a
    heatmap from three models and three codes, grouped bars below that
    (:func:`forgebench.report.figure_layout.chart_kind`)."""
    m = _full(metrics)
    m = m[
        (m["metric"] == "acc") & (m["subset"].str.count("-") == 4) & ~m["subset"].str.contains("=")
    ]
    if m.empty:
        return None
    present = set(m["subset"])
    codes = [c for c in PAPER_CODES if c in present] + sorted(present - set(PAPER_CODES))
    models = [x for x in _model_order(metrics) if x in set(m["model"])]
    models += sorted(set(m["model"]) - set(models))
    grid = m.pivot_table(index="model", columns="subset", values="value", aggfunc="first")
    grid = grid.reindex(index=models, columns=codes)
    separators = [
        j for j in range(1, len(codes)) if codes[j].split("-")[0] != codes[j - 1].split("-")[0]
    ]
    with figure_style():
        fig = _models_by_categories(
            grid.to_numpy(dtype=float),
            models,
            codes,
            title="Accuracy per forgery detection type (Tables 15-26)",
            prefer="heatmap",
            separators=separators,
        )
    data = grid.reset_index().melt(id_vars="model", var_name="type_code", value_name="acc")
    return fig, data.dropna()


def _robustness(
    data: pd.DataFrame, kinds: list[str], models: list[str], colors: dict[str, str]
) -> Figure:
    """The robustness panels in inches: three 1.9 x 1.6-inch panels a row, the y scale on the
    first column, the legend (every model) under them in as many columns as fit."""
    pw, ph = 1.9, 1.6
    ncol = min(3, len(kinds))
    nrow = math.ceil(len(kinds) / ncol)
    tick_h = widest(["0"])[1] + TICK + PAD
    xlabel_h = text_size("Level (0 = clean)", LABEL_SIZE)[1] + PAD
    title_h = text_size("Saturation", TITLE_SIZE)[1] + 0.12
    left = widest(["100"])[0] + TICK + PAD + text_size("Accuracy (%)", LABEL_SIZE)[1] + 0.14
    wgap, hgap = 0.15, tick_h + xlabel_h + title_h + 0.08
    sup = "Accuracy by perturbation level (forgebench's addition to Table 3)"
    width = max(left + ncol * pw + (ncol - 1) * wgap + 0.15, text_size(sup, TITLE_SIZE)[0] + 0.3)
    legend = legend_grid(models, width - 0.1)
    sup_h = text_size(sup, TITLE_SIZE)[1] + 0.2
    bottom = legend.height + tick_h + xlabel_h + 0.06
    height = bottom + nrow * ph + (nrow - 1) * hgap + title_h + sup_h
    fig = plt.figure(figsize=(width, height))
    first = None
    for i, k in enumerate(kinds):
        r, c = divmod(i, ncol)
        y0 = bottom + (nrow - 1 - r) * (ph + hgap)
        ax = axes_at(fig, left + c * (pw + wgap), y0, pw, ph, sharey=first)
        first = first or ax
        curves = dict(iter(data[data["kind"] == k].groupby("model", sort=False)))
        for model in models:
            d = curves.get(model, data.iloc[:0])
            ax.plot(
                d["level"], d["acc"], marker="o", markersize=3, color=colors[model], label=model
            )
        ax.set_title(KIND_LABELS[k])
        ax.set_xticks([0, *LEVELS])
        ax.set_ylim(0, 100)
        ax.set_xlabel("Level (0 = clean)")
        if c == 0:
            ax.set_ylabel("Accuracy (%)")
        else:
            ax.tick_params(labelleft=False)
    assert first is not None
    handles, labels = first.get_legend_handles_labels()
    fig.legend(
        handles, labels, loc="upper left", bbox_to_anchor=inches_to_fig(fig, 0.05, legend.height),
        **legend_kwargs(legend),
    )  # fmt: skip
    fig.text(0.5, 1 - 0.08 / height, sup, ha="center", va="top", fontsize=TITLE_SIZE)
    return fig


def robustness_figure(metrics: pd.DataFrame) -> tuple[Figure, pd.DataFrame] | None:
    """Accuracy against perturbation level, a panel per kind, a line per model (0 = clean)."""
    m = metrics[(metrics["benchmark"] == "forensics") & (metrics["probe"] == "MCQ")]
    m = m[(m["subset"] == "all") & (m["metric"] == "acc")]
    conds = set(m["condition"])
    kinds = [k for k in TABLE3_KINDS if any(f"{k}_{n}" in conds for n in LEVELS)]
    if not kinds:
        return None
    models = [x for x in _model_order(metrics) if x in set(m["model"])]
    models += sorted(set(m["model"]) - set(models))
    colors = model_colors(models)
    # the first row of each (model, condition), looked up rather than filtered 36 times a model
    first = m.drop_duplicates(["model", "condition"]).set_index(["model", "condition"])["value"]
    rows = []
    for k in kinds:
        for model in models:
            for level, cond in ((0, "full"), *((n, f"{k}_{n}") for n in LEVELS)):
                if (model, cond) in first.index:
                    rows.append(
                        {
                            "kind": k,
                            "model": model,
                            "level": level,
                            "acc": float(first[(model, cond)]),
                        }
                    )
    data = pd.DataFrame(rows)
    with figure_style():
        fig = _robustness(data, kinds, models, colors)
    return fig, data


def write_figures(metrics: pd.DataFrame, out_dir: Path) -> list[Path]:
    """Write every figure the metrics support (PNG, SVG, CSV); return the files written."""
    builders = [("forensics_fig2_overview", lambda: overview_figure(metrics))]
    for p in PERSPECTIVES:
        builders.append(
            (f"forensics_fig{FIGURE_NUMBER[p]}_{p}", lambda p=p: perspective_figure(metrics, p))  # type: ignore[misc]
        )
    builders += [
        ("forensics_type_heatmap", lambda: type_heatmap(metrics)),
        ("forensics_robustness_levels", lambda: robustness_figure(metrics)),
    ]
    written: list[Path] = []
    for stem, build in builders:
        made = build()
        if made is not None:
            fig, data = made
            written += write_figure(fig, out_dir, stem, data)
    return written
