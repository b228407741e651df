"""Figures of seed 002 from ``metrics.csv``, every model in one chart where the paper compares
models:

- ``forensics_fig2_overview``: Figure 2, a radar of the five perspective scores per model beside
  the overall leaderboard (probe MCQ, condition full);
- ``forensics_fig<4..8>_<perspective>``: Figures 4-8, accuracy per value of one perspective as
  grouped bars, one bar per model in each group (``acc`` rows with subset
  ``<perspective>=<value>``);
- ``forensics_type_heatmap``: accuracy per type code, models x codes, the codes in the paper's
  order of Tables 15-26 with a separator where the semantic perspective changes (HS / GS), then
  the run's other codes;
- ``forensics_robustness_levels``: accuracy against perturbation level (0 = the clean ``full``
  accuracy, then levels 1-5), one panel per kind, one line per model: forgebench's addition
  beside Table 3, not a figure of the paper.

Each is written by :func:`forgebench.report.style.write_figure`: PNG, SVG and the CSV of the
plotted numbers, under ``RUN/report/figures/``; a figure without data is not written.
"""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from forgebench.report.style import (
    FONT,
    HEIGHT,
    WIDTH,
    figure_style,
    model_colors,
    write_figure,
)
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


def perspective_figure(
    metrics: pd.DataFrame, perspective: str
) -> tuple[Figure, pd.DataFrame] | None:
    """Figures 4-8: accuracy (%) per value of ``perspective``, grouped bars, a bar per model."""
    m = _per_value(metrics, perspective)
    if m.empty:
        return None
    values = sorted(set(m["value_name"]))
    order = [x for x in _model_order(metrics) if x in set(m["model"])]
    models = order + sorted(set(m["model"]) - set(order))
    colors = model_colors(models)
    width = min(0.8 / len(models), 0.35)
    with figure_style():
        fig, ax = plt.subplots(figsize=(max(WIDTH, 0.5 + len(values) * len(models) * 0.12), HEIGHT))
        x = np.arange(len(values))
        for i, model in enumerate(models):
            got = m[m["model"] == model].set_index("value_name")["value"]
            heights = [float(got[v]) if v in got.index else np.nan for v in values]
            offset = (i - (len(models) - 1) / 2) * width
            ax.bar(x + offset, heights, width, color=colors[model], label=model)
        ax.set_xticks(x, values, rotation=90 if len(values) > 6 else 0)
        ax.set_ylim(0, 100)
        ax.set_ylabel("Accuracy (%)")
        ax.set_title(f"Figure {FIGURE_NUMBER[perspective]}: accuracy by {TITLES[perspective]}")
        ax.legend(
            ncol=min(4, len(models)), loc="upper left", bbox_to_anchor=(0, -0.25), frameon=False
        )
        fig.tight_layout()
    data = m[["model", "value_name", "value", "n"]].rename(
        columns={"value_name": "perspective_value", "value": "acc"}
    )
    data.insert(1, "perspective", perspective)
    return fig, data.sort_values(["model", "perspective_value"]).reset_index(drop=True)


def overview_figure(metrics: pd.DataFrame) -> tuple[Figure, pd.DataFrame] | None:
    """Figure 2: the five perspective scores per model on a radar, and the leaderboard."""
    m = _full(metrics)
    models = _model_order(metrics)
    if not models:
        return None
    rows = []
    for model in models:
        got = m[m["model"] == model]
        row: dict[str, object] = {"model": model}
        row["overall"] = float(
            got[(got["subset"] == "all") & (got["metric"] == "acc")]["value"].iloc[0]
        )
        for p in PERSPECTIVES:
            hit = got[(got["subset"] == p) & (got["metric"] == "persp")]
            row[f"{p}_score"] = float(hit["value"].iloc[0]) if len(hit) else np.nan
        rows.append(row)
    data = pd.DataFrame(rows)
    colors = model_colors(models)
    with figure_style():
        fig = plt.figure(figsize=(WIDTH * 1.6, max(HEIGHT * 1.3, 0.22 * len(models) + 1.2)))
        radar = fig.add_subplot(1, 2, 1, projection="polar")
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
        radar.set_xticks(angles, [p.capitalize() for p in PERSPECTIVES])
        radar.set_ylim(0, 100)
        radar.set_title("Perspective scores (%)")
        board = fig.add_subplot(1, 2, 2)
        y = np.arange(len(models))[::-1]
        board.barh(y, data["overall"], color=[colors[x] for x in models])
        board.set_yticks(y, models)
        board.set_xlim(0, 100)
        board.set_xlabel("Overall accuracy (%)")
        board.set_title("Leaderboard")
        for yy, v in zip(y, data["overall"], strict=True):
            board.text(v + 1, yy, f"{v:.1f}", va="center", fontsize=FONT)
        fig.suptitle("Figure 2: Forensics-Bench results", fontsize=10)
        fig.tight_layout()
    return fig, data


def type_heatmap(metrics: pd.DataFrame) -> tuple[Figure, pd.DataFrame] | None:
    """Accuracy per type code, models x codes (paper order, then the run's other codes)."""
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
    with figure_style():
        fig, ax = plt.subplots(
            figsize=(max(WIDTH, 1.5 + 0.13 * len(codes)), max(2.0, 0.9 + 0.2 * len(models)))
        )
        img = ax.imshow(grid.to_numpy(dtype=float), aspect="auto", cmap="viridis", vmin=0, vmax=100)
        ax.set_xticks(range(len(codes)), codes, rotation=90)
        ax.set_yticks(range(len(models)), models)
        ax.grid(False)
        for j in range(1, len(codes)):
            if codes[j].split("-")[0] != codes[j - 1].split("-")[0]:
                ax.axvline(j - 0.5, color="white", linewidth=1.5)
        fig.colorbar(img, ax=ax, label="Accuracy (%)", fraction=0.02, pad=0.01)
        ax.set_title("Accuracy per forgery detection type (Tables 15-26)")
        fig.tight_layout()
    data = grid.reset_index().melt(id_vars="model", var_name="type_code", value_name="acc")
    return fig, data.dropna()


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
    rows = []
    for k in kinds:
        for model in models:
            for level, cond in ((0, "full"), *((n, f"{k}_{n}") for n in LEVELS)):
                hit = m[(m["model"] == model) & (m["condition"] == cond)]
                if len(hit):
                    rows.append(
                        {
                            "kind": k,
                            "model": model,
                            "level": level,
                            "acc": float(hit["value"].iloc[0]),
                        }
                    )
    data = pd.DataFrame(rows)
    ncol = min(3, len(kinds))
    nrow = math.ceil(len(kinds) / ncol)
    with figure_style():
        fig, axes = plt.subplots(
            nrow, ncol, figsize=(WIDTH * 1.3, 2.4 * nrow + 0.9), sharey=True, squeeze=False
        )
        for ax, k in zip(axes.flat, kinds, strict=False):
            for model in models:
                d = data[(data["kind"] == k) & (data["model"] == model)]
                ax.plot(
                    d["level"], d["acc"], marker="o", markersize=3, color=colors[model], label=model
                )
            ax.set_title(KIND_LABELS[k])
            ax.set_xticks([0, *LEVELS])
            ax.set_ylim(0, 100)
            ax.set_xlabel("Level (0 = clean)")
        for ax in axes.flat[len(kinds) :]:
            ax.axis("off")
        for ax in axes[:, 0]:
            ax.set_ylabel("Accuracy (%)")
        handles, labels = axes.flat[0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="lower center", ncol=min(4, len(models)), frameon=False)
        fig.suptitle(
            "Accuracy by perturbation level (forgebench's addition to Table 3)", fontsize=10
        )
        fig.tight_layout(rect=(0, 0.08, 1, 1))
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
