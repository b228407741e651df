"""Figures 4-8 of seed 002: accuracy per value of each perspective (semantic, modality, task,
type, model), one bar panel per model, from ``metrics.csv`` (``acc`` rows with subset
``<perspective>=<value>``, probe ``MCQ``, condition ``full``). PNG (200 dpi) and SVG under
``RUN/report/figures/forensics_fig<N>_<perspective>``; a figure without data is not written.
"""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.figure import Figure

from forgebench.suites.forensics.taxonomy import PERSPECTIVES

FONT = 8.0
FIGURE_NUMBER: dict[str, int] = dict(zip(PERSPECTIVES, (4, 5, 6, 7, 8), strict=True))
TITLES = {
    "semantic": "forgery semantics",
    "modality": "forgery modality",
    "task": "forgery task",
    "type": "forgery type",
    "model": "forgery model",
}


def _per_value(metrics: pd.DataFrame, perspective: str) -> pd.DataFrame:
    m = metrics[
        (metrics["benchmark"] == "forensics")
        & (metrics["probe"] == "MCQ")
        & (metrics["condition"] == "full")
        & (metrics["metric"] == "acc")
        & metrics["subset"].str.startswith(f"{perspective}=")
    ]
    return m.assign(value_name=m["subset"].str.split("=", n=1).str[1])


def perspective_figure(metrics: pd.DataFrame, perspective: str) -> Figure | None:
    """Accuracy (%) per value of ``perspective``, one panel per model (best overall first)."""
    m = _per_value(metrics, perspective)
    if m.empty:
        return None
    values = sorted(set(m["value_name"]))
    models = sorted(set(m["model"]))
    ncol = min(5, len(models))
    nrow = math.ceil(len(models) / ncol)
    width = max(4.2, ncol * max(1.9, 0.22 * len(values) + 0.6))
    fig, axes = plt.subplots(
        nrow, ncol, figsize=(width, 2.0 * nrow + 0.8), sharey=True, squeeze=False
    )
    for ax, model in zip(axes.flat, models, strict=False):
        rows = m[m["model"] == model].set_index("value_name")["value"]
        ax.bar(range(len(values)), [float(rows.get(v, 0.0)) for v in values], color="#1f5fa8")
        ax.set_xticks(
            range(len(values)), values, rotation=90 if len(values) > 4 else 0, fontsize=FONT
        )
        ax.set_title(model, fontsize=FONT)
        ax.set_ylim(0, 100)
        ax.grid(True, axis="y", color="#dddddd", linewidth=0.5)
    for ax in axes.flat[len(models) :]:
        ax.axis("off")
    for ax in axes[:, 0]:
        ax.set_ylabel("Accuracy (%)")
    fig.suptitle(
        f"Figure {FIGURE_NUMBER[perspective]}: accuracy by {TITLES[perspective]}", fontsize=10
    )
    fig.tight_layout()
    return fig


def write_figures(metrics: pd.DataFrame, out_dir: Path) -> list[Path]:
    """Write Figures 4-8 that the metrics support; return the files written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for perspective in PERSPECTIVES:
        fig = perspective_figure(metrics, perspective)
        if fig is None:
            continue
        stem = f"forensics_fig{FIGURE_NUMBER[perspective]}_{perspective}"
        try:
            for ext in ("png", "svg"):
                path = out_dir / f"{stem}.{ext}"
                fig.savefig(path, dpi=200)
                written.append(path)
        finally:
            plt.close(fig)
    return written
