"""Small multiples of bar charts (one panel per model) drawn on one canvas.

A grid of matplotlib subplots makes an Axes per panel, each with its own tick, label and grid
artists, and ``tight_layout`` measures all of them in one more draw: at 36 models that is about
2 s a figure. :func:`bar_panels` draws the same picture (frames, bars, grid lines, ticks and
labels in inches from the figure's corner) as a handful of collections and the texts, with fixed
margins: well under a second at 36 models, in PNG and SVG alike.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import matplotlib.pyplot as plt
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.figure import Figure

from forgebench.report.figure_layout import text_size, widest, wrap_label
from forgebench.report.style import FONT

_LEFT, _RIGHT, _TOP, _BOTTOM = 0.62, 0.08, 0.78, 0.28
"""Margins (inches): y tick labels and label; title of two lines; x tick labels."""
_WGAP, _HGAP = 0.12, 0.5
"""Gaps between panels (inches): side by side; above (a panel's title and the x labels)."""
_TICK = 0.05
"""Tick length (inches)."""


def bar_panels(
    titles: Sequence[str],
    categories: Sequence[str],
    values: Sequence[Sequence[float]],
    colors: Sequence[str],
    *,
    ylabel: str,
    title: str,
    ymax: float = 100.0,
    yticks: Sequence[float] = (0, 20, 40, 60, 80, 100),
    ncol: int = 6,
    panel_width: float = 1.9,
    panel_height: float = 1.75,
) -> Figure:
    """A figure of one bar panel per title, ``ncol`` panels a row: panel ``i`` shows
    ``values[i]`` (one bar per category, coloured by ``colors``) on a shared 0-``ymax`` scale,
    with y tick labels and ``ylabel`` in the first column and the categories under every
    panel. The figure is ``panel_width`` inches a column (plus 0.4), at least 4.2 inches wide so
    ``title`` fits over one panel, and ``panel_height`` a row (plus 0.8), plus what labels
    taller than the default gaps need (a title wider than its panel is broken over two lines,
    :func:`forgebench.report.figure_layout.wrap_label`, and the gap over its row grows)."""
    ncol = max(1, min(ncol, len(titles)))
    nrow = max(1, math.ceil(len(titles) / ncol))
    width = max(4.2, panel_width * ncol + 0.4)
    pw = (width - _LEFT - _RIGHT - (ncol - 1) * _WGAP) / ncol
    # a model name wider than its panel breaks over two lines; the gap above a panel row holds
    # the row above's category labels and this row's names, as measured
    titles = [wrap_label(t, pw + _WGAP - 0.04) for t in titles]
    name_h = widest(titles)[1]
    cat_h = widest(categories)[1]
    hgap = max(_HGAP, _TICK + 0.03 + cat_h + 0.08 + name_h + 0.06)
    top_margin = max(_TOP, text_size(title, 10)[1] + 0.2 + name_h + 0.06)
    ph = (panel_height * nrow + 0.8 - _TOP - _BOTTOM - (nrow - 1) * _HGAP) / nrow
    height = panel_height * nrow + 0.8 + (top_margin - _TOP) + (nrow - 1) * (hgap - _HGAP)
    fig = plt.figure(figsize=(width, height))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(0, height)
    ax.set_axis_off()
    slot = pw / max(1, len(categories))
    bars, bar_colors, frames, grid, ticks = [], [], [], [], []
    for i, (name, row) in enumerate(zip(titles, values, strict=True)):
        r, c = divmod(i, ncol)
        x0, y0 = _LEFT + c * (pw + _WGAP), height - top_margin - (r + 1) * ph - r * hgap
        for k, value in enumerate(row):
            top = y0 + ph * min(max(value, 0.0), ymax) / ymax
            xa, xb = x0 + slot * (k + 0.1), x0 + slot * (k + 0.9)
            bars.append([(xa, y0), (xb, y0), (xb, top), (xa, top)])
            bar_colors.append(colors[k % len(colors)])
        frames.append([(x0, y0), (x0 + pw, y0), (x0 + pw, y0 + ph), (x0, y0 + ph)])
        levels = [y0 + ph * t / ymax for t in yticks]
        grid += [[(x0, y), (x0 + pw, y)] for y in levels]
        ax.text(x0 + pw / 2, y0 + ph + 0.06, name, ha="center", va="bottom", fontsize=FONT)
        for k, cat in enumerate(categories):
            x = x0 + slot * (k + 0.5)
            ticks.append([(x, y0), (x, y0 - _TICK)])
            ax.text(x, y0 - _TICK - 0.03, cat, ha="center", va="top", fontsize=FONT)
        if c == 0:
            for t, y in zip(yticks, levels, strict=True):
                ticks.append([(x0, y), (x0 - _TICK, y)])
                ax.text(x0 - _TICK - 0.03, y, f"{t:g}", ha="right", va="center", fontsize=FONT)
            ax.text(x0 - 0.45, y0 + ph / 2, ylabel, rotation=90, ha="center", va="center")
    ax.add_collection(LineCollection(grid, colors="#dddddd", linewidths=0.5, zorder=1))
    ax.add_collection(PolyCollection(bars, facecolors=bar_colors, edgecolors="none", zorder=2))
    ax.add_collection(
        PolyCollection(frames, facecolors="none", edgecolors="black", linewidths=0.8, zorder=3)
    )
    ax.add_collection(LineCollection(ticks, colors="black", linewidths=0.8, zorder=3))
    fig.text(0.5, 1 - 0.08 / height, title, ha="center", va="top", fontsize=10)
    return fig
