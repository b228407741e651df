"""Text in the report's figures after layout: scatter labels placed where they overlap nothing
(:func:`place_labels`, with leader lines), and the check the tests and ``benchmarks/figure_sizes.py``
run on a drawn figure (:func:`text_problems`: every text inside the canvas, no two overlapping).
The sizing rules themselves are :mod:`forgebench.report.figure_layout`."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.text import Text
from matplotlib.transforms import Bbox

from forgebench.report.figure_layout import text_size
from forgebench.report.style import FONT

_LEADER = {"arrowstyle": "-", "color": "#aaaaaa", "linewidth": 0.5, "shrinkA": 0, "shrinkB": 2}
"""A leader line from a moved label to its point."""


def _free(box: np.ndarray, taken: np.ndarray) -> bool:
    """``box`` (x0, y0, x1, y1) overlaps none of ``taken`` (rows of the same)."""
    if not len(taken):
        return True
    return not bool(
        np.any(
            (box[0] < taken[:, 2])
            & (box[2] > taken[:, 0])
            & (box[1] < taken[:, 3])
            & (box[3] > taken[:, 1])
        )
    )


def place_labels(
    ax: Axes,
    points: Sequence[tuple[str, float, float]],
    *,
    size: float = FONT,
    color: str = "#333333",
    avoid: Sequence[Bbox] = (),
    marker_pt: float = 3.0,
) -> list[str]:
    """Write each point's name next to it where it overlaps no other label, no point, nothing
    of ``avoid`` (display boxes, e.g. a legend's) and stays inside the axes; a label that
    cannot sit beside its point is moved away along one of 16 directions with a leader line.
    Returns the names that found no free place (the caller says so in a note). The axes'
    limits must be final (they are read here)."""
    fig = ax.figure
    dpi = fig.dpi
    px = dpi / 72.0
    frame = ax.get_window_extent()
    lim = np.array([frame.x0 + 1, frame.y0 + 1, frame.x1 - 1, frame.y1 - 1])
    xy = ax.transData.transform([(p[1], p[2]) for p in points]) if points else np.zeros((0, 2))
    r = marker_pt * px
    gap = 1.0 * px  # a point of white around every label
    marks = np.column_stack([xy[:, 0] - r, xy[:, 1] - r, xy[:, 0] + r, xy[:, 1] + r])
    taken = np.vstack([marks, *(np.array([[b.x0, b.y0, b.x1, b.y1]]) for b in avoid)])
    # most crowded points first: they have the fewest free places
    if len(xy):
        d = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
        crowd = (d < 40 * px).sum(axis=1)
        order = sorted(range(len(points)), key=lambda i: (-int(crowd[i]), i))
    else:
        order = []
    near = [(3, 3), (3, -3), (-3, 3), (-3, -3), (0, 4), (0, -4), (4, 0), (-4, 0)]
    angles = [k * math.pi / 8 for k in range(16)]
    far = [(rad * math.cos(a), rad * math.sin(a)) for rad in (14, 22, 32, 44, 58) for a in angles]
    unplaced: list[str] = []
    for i in order:
        name = points[i][0]
        w, h = text_size(name, size)
        w, h = w * dpi * 1.03, h * dpi  # 3%: hinting at the drawing dpi widens text a little
        x, y = xy[i]
        spot = None
        for k, (dx, dy) in enumerate(near + far):
            ox, oy = dx * px, dy * px
            x0 = x + ox if dx > 0 else (x + ox - w if dx < 0 else x - w / 2)
            y0 = y + oy if dy > 0 else (y + oy - h if dy < 0 else y - h / 2)
            box = np.array([x0 - gap, y0 - gap, x0 + w + gap, y0 + h + gap])
            if box[0] < lim[0] or box[1] < lim[1] or box[2] > lim[2] or box[3] > lim[3]:
                continue
            if _free(box, taken):
                spot = (k, dx, dy, box)
                break
        if spot is None:
            unplaced.append(name)
            continue
        k, dx, dy, box = spot
        taken = np.vstack([taken, box])
        ha = "left" if dx > 0 else ("right" if dx < 0 else "center")
        va = "bottom" if dy > 0 else ("top" if dy < 0 else "center")
        ax.annotate(
            name, (points[i][1], points[i][2]), xytext=(dx, dy), textcoords="offset points",
            ha=ha, va=va, fontsize=size, color=color,
            arrowprops=dict(_LEADER) if k >= len(near) else None,
        )  # fmt: skip
    return unplaced


def _tick_texts(ax: Axes) -> list[Text]:
    out: list[Text] = []
    for axis in (ax.xaxis, ax.yaxis):
        lo, hi = sorted(axis.get_view_interval())
        span = (hi - lo) or 1.0
        for tick in axis.get_major_ticks() + axis.get_minor_ticks():
            loc = tick.get_loc()
            if loc is None or not (lo - 1e-9 * span <= loc <= hi + 1e-9 * span):
                continue
            out += [t for t in (tick.label1, tick.label2) if t.get_visible()]
    return out


def figure_texts(fig: Figure) -> list[Text]:
    """Every text a drawn figure shows: titles, axis and tick labels, annotations, legends."""
    texts: list[Text] = list(fig.texts)
    sup = getattr(fig, "_suptitle", None)  # matplotlib has no public getter of the artist
    if sup is not None:
        texts.append(sup)
    for leg in fig.legends:
        texts += leg.get_texts()
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        texts += [
            ax.title,
            getattr(ax, "_left_title", ax.title),
            getattr(ax, "_right_title", ax.title),
        ]
        if ax.axison:
            texts += [ax.xaxis.label, ax.yaxis.label, *_tick_texts(ax)]
        texts += list(ax.texts)
        ax_legend = ax.get_legend()
        if ax_legend is not None:
            texts += ax_legend.get_texts()
    return [t for t in texts if t.get_visible() and t.get_text().strip()]


def text_problems(fig: Figure, tolerance: float = 0.5, *, render: bool = True) -> list[str]:
    """Draw ``fig`` and name each text that leaves the canvas and each pair that overlaps
    (their extents, as the renderer measures them, intersect by more than ``tolerance``
    pixels); an empty list is a figure whose every label reads. ``render=False`` lays the
    figure out as a draw does (ticks, legends, annotations placed) without rasterizing it
    (``Figure.draw_without_rendering``): the same extents at a fraction of the cost."""
    if render:
        fig.canvas.draw()
    else:
        fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    texts = figure_texts(fig)
    # Text's own extent: an Annotation's would include its leader line
    boxes = np.array([list(Text.get_window_extent(t, renderer).extents) for t in texts])
    boxes = boxes.reshape(-1, 4)
    problems = []
    canvas = fig.bbox
    for t, b in zip(texts, boxes, strict=True):
        if (
            b[0] < canvas.x0 - tolerance
            or b[1] < canvas.y0 - tolerance
            or b[2] > canvas.x1 + tolerance
            or b[3] > canvas.y1 + tolerance
        ):
            problems.append(f"{t.get_text()!r} leaves the canvas")
    tol = tolerance
    over = (
        (boxes[:, None, 0] < boxes[None, :, 2] - tol)
        & (boxes[:, None, 2] > boxes[None, :, 0] + tol)
        & (boxes[:, None, 1] < boxes[None, :, 3] - tol)
        & (boxes[:, None, 3] > boxes[None, :, 1] + tol)
    )
    for i, j in zip(*np.nonzero(np.triu(over, k=1)), strict=True):
        problems.append(f"{texts[i].get_text()!r} overlaps {texts[j].get_text()!r}")
    return problems
