"""Figures of seed 000 from ``metrics.csv``: Figure 4 (three panels) and KGR by family per model.

Written as PNG (200 dpi), SVG and the CSV of the plotted numbers under ``RUN/report/figures/``
in the report's one figure style (:mod:`forgebench.report.style`). Print readability: every text
is at least 8 pt, axes are labelled with their units, points carry model labels placed where
they overlap nothing, and figures grow with their number of models
(:mod:`forgebench.report.figure_layout`).

- ``fig4_prompting`` (a): x = KGR gain, y = detection gain under prompting (L1 - L0, points);
  points above y = x gain more detections than grounded detections.
- ``fig4_penalty`` (b): x = recognition under Full (RECOG, %) of the de-recognition population,
  y = recognition penalty Bal(Crop+Caption) - Bal(Full); the dashed line marks half recognized.
- ``fig4_erase_swap`` (c): x = share of L0 answers naming the erased person (%), y = erase-swap
  gap Det(swap) - Det(erase) on the absent-celebrity triples.
- ``family_kgr_L0`` / ``family_kgr_L1``: one small panel per model, KGR (%) for K0-K6.
A figure without data is not written; :func:`write_figures` returns the files it wrote.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.figure import Figure

from forgebench.report.figure_layout import (
    LABEL_SIZE,
    add_note,
    axes_at,
    scatter_size,
    text_size,
)
from forgebench.report.figure_text import place_labels
from forgebench.report.panels import bar_panels
from forgebench.report.style import figure_style, write_figure
from forgebench.suites.mandela.contract import FAMILIES
from forgebench.suites.mandela.tables.inputs import Metrics, read_metrics

Point = tuple[str, float, float]
Drawn = tuple[Figure, pd.DataFrame]
"""A figure and the numbers it plots (written beside it as CSV)."""


def _diff(
    met: Metrics, m: str, a: tuple[str, str, str, str], b: tuple[str, str, str, str]
) -> float | None:
    x, y = met.get(m, *a), met.get(m, *b)
    return x - y if x is not None and y is not None else None


def _points(
    met: Metrics, fx: Callable[[str], float | None], fy: Callable[[str], float | None]
) -> list[Point]:
    out = []
    for m in met.models:
        x, y = fx(m), fy(m)
        if x is not None and y is not None and math.isfinite(x) and math.isfinite(y):
            out.append((m, x, y))
    return out


def _scatter(
    ax: plt.Axes,
    pts: list[Point],
    xlabel: str,
    ylabel: str,
    title: str,
    xlim: tuple[float, float] | None = None,
) -> None:
    """The points, their axes and their names: each name placed where it overlaps no other
    label, point or the legend (drawn before), with a leader line when moved off its point;
    names with no free place are listed in a note under the plot
    (:func:`forgebench.report.figure_text.place_labels`)."""
    xs, ys = [p[1] for p in pts], [p[2] for p in pts]
    ax.scatter(xs, ys, s=22, color="#1f5fa8", edgecolor="white", linewidth=0.5, zorder=3)
    ax.margins(x=0.15, y=0.1)
    if xlim is not None:
        ax.set_xlim(*xlim)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, loc="left")
    ax.grid(True, color="#dddddd", linewidth=0.5, zorder=0)
    ax.autoscale_view()
    legend = ax.get_legend()
    avoid = [legend.get_window_extent(ax.figure.canvas.get_renderer())] if legend else []  # type: ignore[attr-defined]
    unplaced = place_labels(ax, pts, avoid=avoid)
    if unplaced:
        add_note(ax.figure, "Not labelled (no free place): " + ", ".join(unplaced) + ".")  # type: ignore[arg-type]


def _scatter_figure(n_points: int, ylabel: str) -> tuple[Figure, plt.Axes]:
    """A figure with one axes, its margins fixed in inches (left 0.62 for the y label and
    ticks, bottom 0.5, top 0.32 for the title): 4.2 x 3.6 inches up to 16 labelled points,
    larger past that (:func:`forgebench.report.figure_layout.scatter_size`), and tall enough
    for ``ylabel``."""
    w, h = scatter_size(n_points)
    h = max(h, text_size(ylabel, LABEL_SIZE)[0] + 0.82 + 0.1)
    fig = plt.figure(figsize=(w, h))
    ax = axes_at(fig, 0.62, 0.5, w - 0.74, h - 0.82)
    return fig, ax


def _data(pts: list[Point], x: str, y: str) -> pd.DataFrame:
    return pd.DataFrame(pts, columns=["model", x, y])


def figure_prompting(met: Metrics) -> Drawn | None:
    """Figure 4a: detection gain against KGR gain under prompting (L1 - L0)."""
    pts = _points(
        met,
        lambda m: _diff(met, m, ("L1", "full", "all", "kgr"), ("L0", "full", "all", "kgr")),
        lambda m: _diff(met, m, ("L1", "full", "all", "det"), ("L0", "full", "all", "det")),
    )
    if not pts:
        return None
    ylabel = "Detection gain, L1 - L0 (points)"
    fig, ax = _scatter_figure(len(pts), ylabel)
    lo = min(0.0, *(p[1] for p in pts), *(p[2] for p in pts)) - 2
    hi = max(1.0, *(p[1] for p in pts), *(p[2] for p in pts)) + 2
    ax.plot([lo, hi], [lo, hi], "--", color="#888888", linewidth=0.8, label="y = x")
    ax.legend(loc="lower right")
    _scatter(
        ax, pts, "KGR gain, L1 - L0 (points)", ylabel,
        "(a) Prompting raises detection more than KGR",
    )  # fmt: skip
    return fig, _data(pts, "kgr_gain_l1_l0", "det_gain_l1_l0")


def figure_penalty(met: Metrics) -> Drawn | None:
    """Figure 4b: recognition penalty against recognition under Full."""

    def recog(m: str) -> float | None:
        for subset in ("peripheral_K1", "peripheral", "forged"):
            v = met.get(m, "RECOG", "full", subset, "recog")
            if v is not None:
                return v
        return None

    def pen(m: str) -> float | None:
        v = met.get(m, "L1", "crop_caption", "peripheral_K1", "pen")
        return (
            v
            if v is not None
            else _diff(
                met,
                m,
                ("L1", "crop_caption", "peripheral_K1", "bal"),
                ("L1", "full", "peripheral_K1", "bal"),
            )
        )

    pts = _points(met, recog, pen)
    if not pts:
        return None
    ylabel = "Recognition penalty, Bal(CC) - Bal(F) (points)"
    fig, ax = _scatter_figure(len(pts), ylabel)
    ax.axhline(0, color="#888888", linewidth=0.8)
    ax.axvline(50, color="#888888", linewidth=0.8, linestyle="--")
    _scatter(
        ax, pts, "Recognition under Full (RECOG, %)", ylabel, "(b) Recognition penalty",
        xlim=(-2, 102),
    )  # fmt: skip
    return fig, _data(pts, "recog_full", "pen_crop_caption")


def figure_erase_swap(met: Metrics) -> Drawn | None:
    """Figure 4c: erase-swap detection gap against the named-erased rate."""
    pts = _points(
        met,
        lambda m: met.get(m, "L0", "full", "erase", "named"),
        lambda m: _diff(met, m, ("L0", "full", "swap", "det"), ("L0", "full", "erase", "det")),
    )
    if not pts:
        return None
    ylabel = "Det(swap) - Det(erase) (points)"
    fig, ax = _scatter_figure(len(pts), ylabel)
    ax.axhline(0, color="#888888", linewidth=0.8)
    _scatter(
        ax, pts, "Names the erased person, L0 (%)", ylabel, "(c) Erase-swap gap",
        xlim=(-2, 102),
    )  # fmt: skip
    return fig, _data(pts, "named_erased_l0", "det_swap_minus_erase")


def figure_family(met: Metrics, probe: str) -> Drawn | None:
    """KGR by knowledge family, one panel per model."""
    models = [
        m
        for m in met.models
        if any(met.get(m, probe, "full", k, "kgr") is not None for k in FAMILIES)
    ]
    if not models:
        return None
    fig = bar_panels(
        models,
        FAMILIES,
        [[met.get(m, probe, "full", k, "kgr") or 0.0 for k in FAMILIES] for m in models],
        ["#999999", *(["#1f5fa8"] * 6)],
        ylabel="KGR (%)",
        title=f"KGR by knowledge family ({probe})\nK0 = anchor-free control",
    )
    data = pd.DataFrame(
        [(m, k, met.get(m, probe, "full", k, "kgr")) for m in models for k in FAMILIES],
        columns=["model", "family", "kgr"],
    )
    return fig, data.dropna()


def write_figures(
    run_dir: str | Path,
    out_dir: str | Path | None = None,
    *,
    judge: str | None = None,
    metrics: pd.DataFrame | None = None,
) -> list[Path]:
    """Write every figure the run's metrics support as PNG and SVG; return the files written.

    ``out_dir`` defaults to ``RUN/report/figures``. ``ValueError`` names ``metrics.csv`` when it is
    missing or malformed.
    """
    run_dir = Path(run_dir)
    out = Path(out_dir) if out_dir is not None else run_dir / "report" / "figures"
    if metrics is None:
        path = run_dir / "metrics.csv"
        if not path.is_file():
            raise ValueError(f"{path} not found (score the run first)")
        metrics = read_metrics(path)
    met = Metrics(metrics, judge)
    builders: dict[str, Callable[[], Drawn | None]] = {
        "fig4_prompting": lambda: figure_prompting(met),
        "fig4_penalty": lambda: figure_penalty(met),
        "fig4_erase_swap": lambda: figure_erase_swap(met),
        "family_kgr_L0": lambda: figure_family(met, "L0"),
        "family_kgr_L1": lambda: figure_family(met, "L1"),
    }
    written: list[Path] = []
    for name, build in builders.items():
        with figure_style():  # model names are user text: ``$...$`` prints as written
            drawn = build()
        if drawn is not None:
            written += write_figure(drawn[0], out, name, drawn[1])
    return written
