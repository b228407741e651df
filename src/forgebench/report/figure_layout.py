"""The sizing rules of every report figure, in one place: figures are laid out in inches from
measured text, so they read at 1 model and at 50, at 1 type code and at 112.

The papers' figures were drawn for 25-36 models (seed 000's Figure 4, "Results across all 36
models"; seed 002's Figures 2 and 4-8 and its per-type Tables 15-26). Drawn with fixed fractions
and ``tight_layout``, the same code gave, at one or two models, a heatmap of one row with
vertical labels taller than its cells and a colour bar squeezed to a line, and at 50 models
scatter labels written over each other and cut at the border. Here a figure is built from parts
of known size:

- text never shrinks: every label keeps :data:`~forgebench.report.style.FONT` (8 pt) or more;
  the figure grows instead, by whole cells, bar slots or panels (:data:`CELL_W`,
  :data:`CELL_H`, :data:`BAR_SLOT`);
- margins are the measured extents of the labels they hold (:func:`text_size`, the Agg
  renderer's own metrics), never fractions of the figure;
- a colour bar is :data:`COLORBAR_W` wide and at least :data:`COLORBAR_MIN_H` tall, so a
  heatmap's axes is at least that tall whatever its number of rows;
- legends keep their font; their columns are as many as fit the figure's width
  (:func:`legend_grid`), and the band they need is added to the figure below the axes;
- a heatmap needs at least :data:`HEATMAP_MIN_ROWS` rows and :data:`HEATMAP_MIN_COLS`
  columns (:func:`use_heatmap`): below that a colour strip says less than bar lengths, and the
  same numbers are drawn as grouped bars; grouped bars hold at most
  :data:`GROUPED_BARS_MAX_SERIES` series (past that colours repeat and a legend cannot tell
  them apart), above it the numbers are a heatmap with a row per series;
- scatter labels are placed where they overlap nothing (:func:`~forgebench.report.figure_text.place_labels`), with a leader
  line when moved away from their point; a scatter grows with its number of labelled points
  (:func:`scatter_size`); a label with no free place is named in a note under the axes.

:func:`~forgebench.report.figure_text.text_problems` checks a drawn figure the way the tests do: every text inside the canvas,
no two texts overlapping.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.text import Text

from forgebench.report.style import FONT

CELL_W = 0.13
"""Width (inches) of a heatmap column: one rotated 8 pt label (0.11 in) and a hair of space."""
CELL_H = 0.2
"""Height (inches) of a heatmap row: one 8 pt label and space."""
BAR_SLOT = 0.06
"""Width (inches) of one bar in grouped bars; a group is its bars plus :data:`GROUP_GAP`."""
GROUP_GAP = 0.06
"""Space (inches) between two groups of bars."""
PLOT_H = 1.9
"""Height (inches) of a bar chart's axes."""
MIN_PLOT_W = 2.4
"""Narrowest axes (inches): a title and an axis label fit over it."""
COLORBAR_W = 0.12
"""Width (inches) of a colour bar, whatever the figure's size."""
COLORBAR_MIN_H = 1.4
"""Shortest colour bar (inches): the six ticks 0-100 read apart."""
HEATMAP_MIN_ROWS = 3
"""Fewer rows (models) than this: grouped bars instead of a heatmap."""
HEATMAP_MIN_COLS = 3
"""Fewer columns (type codes, perspective values) than this: grouped bars instead."""
GROUPED_BARS_MAX_SERIES = 10
"""More series (models) than this in grouped bars: a heatmap instead, a row per model."""
SCATTER_LABELS_BASE = 16
"""A scatter keeps its base size up to this many labelled points, then grows as sqrt(n / 16)."""
SCATTER_MAX_GROWTH = 2.0
"""The most a scatter grows (times its base width and height)."""
PAD = 0.06
"""Space (inches) between a label and what it labels."""
LINE = 1.2
"""Line spacing of matplotlib's multi-line text (``Text.linespacing``)."""


_DPI = 288.0
"""Text is measured at 4 x 72 dpi, where hinting moves widths least."""


@lru_cache(maxsize=1)
def _renderer() -> RendererAgg:
    return RendererAgg(8, 8, _DPI)


@lru_cache(maxsize=4096)
def _line_size(line: str, size: float) -> tuple[float, float, float]:
    """(width, height, descent) in inches of one line."""
    w, h, d = _renderer().get_text_width_height_descent(
        line or " ", FontProperties(size=size), ismath=False
    )
    return w / _DPI, h / _DPI, d / _DPI


def text_size(text: str, size: float = FONT, rotation: float = 0.0) -> tuple[float, float]:
    """(width, height) in inches of ``text`` at ``size`` pt, as matplotlib lays it out
    (``Text._get_layout``: a line is at least as tall as "lp", lines ``LINE`` apart);
    ``rotation`` 90 swaps them."""
    lines = text.split("\n")
    _, lp_h, lp_d = _line_size("lp", float(size))
    w = 0.0
    height = 0.0
    for i, line in enumerate(lines):
        lw, lh, ld = _line_size(line, float(size))
        w = max(w, lw)
        h, d = max(lh, lp_h), max(ld, lp_d)
        height += (h - d) if i == 0 else max((lp_h - lp_d) * LINE, (h - d) * LINE)
        if i == len(lines) - 1:
            height += d
    return (height, w) if round(rotation) % 180 == 90 else (w, height)


def widest(texts: Sequence[str], size: float = FONT, rotation: float = 0.0) -> tuple[float, float]:
    """The largest width and height (inches) among ``texts`` (0, 0 for none)."""
    sizes = [text_size(t, size, rotation) for t in texts]
    return (max((s[0] for s in sizes), default=0.0), max((s[1] for s in sizes), default=0.0))


def wrap_label(text: str, width: float, size: float = FONT, max_lines: int = 2) -> str:
    """``text`` broken after ``-``, ``_``, ``/`` or a space into lines at most ``width``
    inches wide (a model name over a small panel); a piece that cannot be broken stays whole
    and the result has at most ``max_lines`` lines (the rest joins the last)."""
    if text_size(text, size)[0] <= width:
        return text
    pieces, cur = [], ""
    for ch in text:
        cur += ch
        if ch in "-_/ ":
            pieces.append(cur)
            cur = ""
    if cur:
        pieces.append(cur)
    lines: list[str] = []
    line = ""
    for piece in pieces:
        if line and text_size((line + piece).rstrip(), size)[0] > width:
            lines.append(line.rstrip())
            line = piece
        else:
            line += piece
    lines.append(line.rstrip())
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], "".join(lines[max_lines - 1 :])]
    return "\n".join(lines)


def use_heatmap(rows: int, cols: int) -> bool:
    """A heatmap of ``rows`` x ``cols`` says something: at least :data:`HEATMAP_MIN_ROWS` rows
    and :data:`HEATMAP_MIN_COLS` columns; else the same numbers are drawn as grouped bars."""
    return rows >= HEATMAP_MIN_ROWS and cols >= HEATMAP_MIN_COLS


@dataclass(frozen=True)
class LegendGrid:
    """How a legend of ``n`` entries is laid out in a band of given width."""

    ncol: int
    nrow: int
    height: float
    """Inches the legend needs (its rows and a little padding)."""


def legend_grid(labels: Sequence[str], width: float, size: float = FONT) -> LegendGrid:
    """Columns for a frameless legend of ``labels`` in ``width`` inches: each column is the
    widest label plus the handle (matplotlib's 2 em handle, 0.8 em between handle and text,
    2 em between columns), as many as fit, at least one."""
    em = size / 72.0
    col = widest(labels, size)[0] + (2.0 + 0.8 + 2.0) * em
    ncol = max(1, min(len(labels), int((width - 0.1) // col)))
    nrow = math.ceil(len(labels) / ncol) if labels else 0
    return LegendGrid(ncol, nrow, nrow * (em * 1.7) + 0.12)


def legend_kwargs(grid: LegendGrid) -> dict[str, Any]:
    """The matplotlib legend arguments that go with :func:`legend_grid`'s measure."""
    return {
        "ncol": grid.ncol,
        "frameon": False,
        "fontsize": FONT,
        "handlelength": 2.0,
        "handletextpad": 0.8,
        "columnspacing": 2.0,
        "labelspacing": 0.5,
        "borderaxespad": 0.0,
        "borderpad": 0.2,
    }


def axes_at(
    fig: Figure, left: float, bottom: float, width: float, height: float, **kw: Any
) -> Axes:
    """An axes placed in inches from the figure's lower-left corner."""
    fw, fh = fig.get_size_inches()
    return fig.add_axes((left / fw, bottom / fh, width / fw, height / fh), **kw)


def inches_to_fig(fig: Figure, x: float, y: float) -> tuple[float, float]:
    """A point in inches from the lower-left corner, in figure fractions."""
    fw, fh = fig.get_size_inches()
    return x / fw, y / fh


def scatter_size(n_points: int, base: tuple[float, float] = (4.2, 3.6)) -> tuple[float, float]:
    """The figure size (inches) of a labelled scatter: ``base`` up to
    :data:`SCATTER_LABELS_BASE` points, then grown as sqrt(n / base count) (the plot's area
    per label stays the same), at most :data:`SCATTER_MAX_GROWTH` times."""
    g = min(SCATTER_MAX_GROWTH, max(1.0, math.sqrt(n_points / SCATTER_LABELS_BASE)))
    return base[0] * g, base[1] * g


TITLE_SIZE = 10.0
"""Font size (pt) of a figure's title (``axes.titlesize`` of the report's style)."""
LABEL_SIZE = 9.0
"""Font size (pt) of an axis label (``axes.labelsize``)."""
TICK = 0.05
"""Tick length (inches, matplotlib's 3.5 pt)."""


def _title_band(title: str) -> float:
    return text_size(title, TITLE_SIZE)[1] + 0.16


def heatmap_figure(
    grid: np.ndarray,
    rows: Sequence[str],
    cols: Sequence[str],
    *,
    title: str,
    bar_label: str,
    separators: Sequence[int] = (),
    vmax: float = 100.0,
) -> tuple[Figure, Axes]:
    """A rows x cols heatmap of ``grid`` (0-``vmax``, viridis) laid out in inches: cells of
    :data:`CELL_W` x :data:`CELL_H` (wider or taller when the axes would be under
    :data:`MIN_PLOT_W` or :data:`COLORBAR_MIN_H`), row labels left, column labels rotated
    under it, a colour bar :data:`COLORBAR_W` wide beside it (at most 3 inches tall), and a
    white line before each column index of ``separators``."""
    import matplotlib.pyplot as plt

    title_w = text_size(title, TITLE_SIZE)[0]
    aw = max(len(cols) * CELL_W, MIN_PLOT_W, title_w)
    ah = max(len(rows) * CELL_H, COLORBAR_MIN_H)
    left = widest(rows)[0] + TICK + PAD + 0.08
    bottom = widest(cols, rotation=90)[1] + TICK + PAD + 0.08
    top = _title_band(title)
    bar_h = min(ah, 3.0)
    right = (
        0.1 + COLORBAR_W + TICK + PAD + widest(["100"])[0] + PAD
        + text_size(bar_label, LABEL_SIZE)[1] + 0.1
    )  # fmt: skip
    fig = plt.figure(figsize=(left + aw + right, bottom + ah + top))
    ax = axes_at(fig, left, bottom, aw, ah)
    img = ax.imshow(grid, aspect="auto", cmap="viridis", vmin=0, vmax=vmax, interpolation="none")
    ax.set_xticks(range(len(cols)), cols, rotation=90)
    ax.set_yticks(range(len(rows)), rows)
    ax.grid(False)
    for j in separators:
        ax.axvline(j - 0.5, color="white", linewidth=1.5)
    cax = axes_at(fig, left + aw + 0.1, bottom + ah - bar_h, COLORBAR_W, bar_h)
    fig.colorbar(img, cax=cax, label=bar_label)
    ax.set_title(title)
    return fig, ax


def grouped_bars_figure(
    groups: Sequence[str],
    series: Sequence[str],
    values: np.ndarray,
    colors: Sequence[str],
    *,
    title: str,
    ylabel: str,
    separators: Sequence[int] = (),
    ymax: float = 100.0,
) -> tuple[Figure, Axes]:
    """Grouped bars: a group per ``groups`` entry on x, in it one bar per ``series`` entry
    (``values[s, g]``, NaN for none) coloured ``colors[s]``, laid out in inches: a group is
    :data:`BAR_SLOT` a bar plus :data:`GROUP_GAP`, the axes :data:`PLOT_H` tall and at least
    :data:`MIN_PLOT_W` wide; group labels horizontal when they fit their group, rotated else;
    the legend (series) under the axes in as many columns as fit; a grey line before each
    group index of ``separators``."""
    import matplotlib.pyplot as plt

    ng, ns = len(groups), len(series)
    title_w = text_size(title, TITLE_SIZE)[0]
    aw = max(ng * max(ns * BAR_SLOT + GROUP_GAP, CELL_W), MIN_PLOT_W, title_w)
    slot = aw / max(ng, 1)
    flat = widest(groups)[0] <= slot - 0.04
    label_h = widest(groups)[1] if flat else widest(groups, rotation=90)[1]
    left = widest(["100"])[0] + TICK + PAD + text_size(ylabel, LABEL_SIZE)[1] + PAD + 0.06
    right = 0.15
    fw = left + aw + right
    legend = legend_grid(series, fw - 0.1)
    bottom = label_h + TICK + PAD + 0.06 + legend.height
    top = _title_band(title)
    fig = plt.figure(figsize=(fw, bottom + PLOT_H + top))
    ax = axes_at(fig, left, bottom, aw, PLOT_H)
    x = np.arange(ng)
    width = min(0.8 / max(ns, 1), 0.35)
    for i, name in enumerate(series):
        offset = (i - (ns - 1) / 2) * width
        ax.bar(x + offset, values[i], width, color=colors[i], label=name)
    ax.set_xlim(-0.5, ng - 0.5)
    ax.set_xticks(x, groups, rotation=0 if flat else 90)
    ax.set_ylim(0, ymax)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(False, axis="x")
    for j in separators:
        ax.axvline(j - 0.5, color="#888888", linewidth=0.8)
    ax.legend(
        loc="upper left",
        bbox_to_anchor=inches_to_fig(fig, 0.05, legend.height),
        bbox_transform=fig.transFigure,
        **legend_kwargs(legend),
    )
    return fig, ax


def chart_kind(models: int, categories: int, prefer: str) -> str:
    """How a models x categories table of numbers is drawn: ``"bars"`` (a group per category,
    a bar per model), ``"bars_by_model"`` (a group per model, a bar per category) or
    ``"heatmap"`` (a row per model). ``prefer="heatmap"`` (the per-type-code figure) draws a
    heatmap whenever :func:`use_heatmap` allows, else bars with the fewer side as series;
    ``prefer="bars"`` (the paper's grouped bars, Figures 4-8) keeps bars up to
    :data:`GROUPED_BARS_MAX_SERIES` models, then a heatmap, or bars by model where a heatmap
    would have under :data:`HEATMAP_MIN_COLS` columns."""
    if prefer == "heatmap":
        if use_heatmap(models, categories):
            return "heatmap"
        return "bars" if models < HEATMAP_MIN_ROWS else "bars_by_model"
    if models <= GROUPED_BARS_MAX_SERIES:
        return "bars"
    return "heatmap" if use_heatmap(models, categories) else "bars_by_model"


def add_note(fig: Figure, note: str, size: float = FONT) -> Text:
    """Write ``note`` (wrapped to the figure's width) under everything: the figure grows at
    the bottom by the note's height and every axes keeps its size and place in inches (figure
    texts and figure legends placed in fractions are not moved: a figure of axes alone)."""
    fw, fh = fig.get_size_inches()
    words, lines, line = note.split(" "), [], ""
    for w in words:
        if line and text_size(f"{line} {w}", size)[0] > fw - 0.2:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    lines.append(line)
    text = "\n".join(lines)
    extra = text_size(text, size)[1] + 0.12
    boxes = [(ax, ax.get_position()) for ax in fig.axes]
    fig.set_size_inches(fw, fh + extra)
    for ax, b in boxes:
        ax.set_position(
            (b.x0, (b.y0 * fh + extra) / (fh + extra), b.width, b.height * fh / (fh + extra))
        )
    return fig.text(0.1 / fw, 0.06 / (fh + extra), text, ha="left", va="bottom", fontsize=size)
