"""One look for every suite's figures: sizes, fonts, palette, and how a figure is written.

Every figure of the report is drawn inside :func:`figure_style` (fonts at least 8 pt, SVG text
kept as text, ``$`` in model names printed as written rather than read as TeX) and written by
:func:`write_figure`: PNG (200 dpi) and SVG, plus the CSV of the numbers it plots, each written
atomically, so a reader can always get the data behind a picture.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.figure import Figure

from forgebench.util.atomic import atomic_path
from forgebench.util.csvsafe import write_frame

__all__ = [
    "ACCENT",
    "FONT",
    "HEIGHT",
    "WIDTH",
    "figure_style",
    "model_colors",
    "write_figure",
]

FONT = 8.0
"""Smallest font size (pt) on any figure."""
ACCENT = "#1f5fa8"
"""The colour of a single series."""
MUTED = "#999999"
"""The colour of a reference series (controls, the clean condition)."""
WIDTH = 6.4
"""Width (inches) of a full-width figure; a panel is half of it."""
HEIGHT = 3.6
"""Height (inches) of one row of panels."""
_QUALITATIVE = (  # Okabe-Ito, readable by colour-blind readers, then matplotlib's tab20
    "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000",
)  # fmt: skip
_RC: dict[str, Any] = {
    "font.size": 9,
    "axes.labelsize": 9,
    "axes.titlesize": 10,
    "xtick.labelsize": FONT,
    "ytick.labelsize": FONT,
    "legend.fontsize": FONT,
    "svg.fonttype": "none",
    "text.parse_math": False,
    "axes.grid": True,
    "grid.color": "#dddddd",
    "grid.linewidth": 0.5,
    "axes.axisbelow": True,
}


@contextmanager
def figure_style() -> Iterator[None]:
    """Draw figures inside this: the report's fonts and grid, user text never read as TeX."""
    with plt.rc_context(_RC):  # type: ignore[arg-type]
        yield


def model_colors(models: list[str]) -> dict[str, str]:
    """A stable colour per model, in the given order (the same model keeps its colour across a
    report's figures when the order is the same)."""
    if len(models) <= len(_QUALITATIVE):
        palette = list(_QUALITATIVE)
    else:
        cmap = plt.get_cmap("tab20")
        palette = [matplotlib.colors.to_hex(cmap(i % 20)) for i in range(len(models))]
    return {m: palette[i % len(palette)] for i, m in enumerate(models)}


def write_figure(
    fig: Figure, out_dir: Path, stem: str, data: pd.DataFrame | None = None
) -> list[Path]:
    """Write ``stem.png`` and ``stem.svg`` (and ``stem.csv``, the plotted numbers, when ``data``
    is given) under ``out_dir``, close the figure, and return the files written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    try:
        with figure_style():
            for ext in ("png", "svg"):
                path = out_dir / f"{stem}.{ext}"
                with atomic_path(path) as tmp:
                    fig.savefig(tmp, format=ext, dpi=200)
                written.append(path)
        if data is not None:
            path = out_dir / f"{stem}.csv"
            with atomic_path(path) as tmp:
                write_frame(data, tmp)
            written.append(path)
    finally:
        plt.close(fig)
    return written
