"""Small multiples drawn on one canvas show what a grid of subplots showed: one panel per title,
bars whose heights are the values on the shared scale, every label kept as SVG text."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

BLUE = (0x1F, 0x5F, 0xA8)
GREY = (0x99, 0x99, 0x99)


def _top(column: np.ndarray, rgb: tuple[int, int, int]) -> int:
    """The highest pixel row of colour ``rgb`` down one pixel column (a bar's top)."""
    return int(np.flatnonzero(np.all(np.abs(column.astype(int) - rgb) <= 2, axis=1))[0])


def test_bar_heights_follow_the_values_on_the_shared_scale(tmp_path: Path) -> None:
    from forgebench.report.panels import bar_panels  # pyplot: not at collection
    from forgebench.report.style import figure_style, write_figure

    with figure_style():
        fig = bar_panels(
            ["model-a", "model-b"], ["K0", "K1", "K2"], [[25.0, 50.0, 100.0], [0.0, 75.0, 130.0]],
            ["#999999", "#1f5fa8", "#1f5fa8"], ylabel="KGR (%)", title="T\nsub",
            ncol=2,
        )  # fmt: skip
        write_figure(fig, tmp_path, "panels")
    img = np.asarray(Image.open(tmp_path / "panels.png").convert("RGB"))
    # find each bar by its colour along a row just above the panels' baseline
    base_row = max(r for r in range(img.shape[0]) if np.any(np.all(img[r] == BLUE, axis=1)))
    blue_cols = np.flatnonzero(np.all(img[base_row] == BLUE, axis=1))
    grey_cols = np.flatnonzero(np.all(img[base_row] == GREY, axis=1))
    groups = np.split(blue_cols, np.flatnonzero(np.diff(blue_cols) > 1) + 1)
    assert len(groups) == 4  # K1, K2 of both panels (K0 of panel b is 0: no grey bar there)
    tops = [_top(img[:, int(g.mean())], BLUE) for g in groups]
    grey = _top(img[:, int(grey_cols.mean())], GREY)  # 25
    unit = (grey - tops[0]) / 25  # pixels a point: from 25 to 50
    assert unit > 1
    assert tops[0] - tops[2] == pytest.approx(25 * unit, abs=1.5)  # 50 -> 75 (panel b)
    assert tops[0] - tops[1] == pytest.approx(50 * unit, abs=4)  # 100: its top under the frame
    assert tops[3] == tops[1]  # 130 is clipped at the scale's top, 100


def test_every_title_category_and_label_is_svg_text(tmp_path: Path) -> None:
    from forgebench.report.panels import bar_panels  # pyplot: not at collection
    from forgebench.report.style import figure_style, write_figure

    titles = [f"model-{i:02d}" for i in range(14)]
    with figure_style():
        fig = bar_panels(
            [*titles[:-1], "$cost$ model"], ["K0", "K1"], [[10.0, 20.0]] * 14, ["#999999"],
            ylabel="KGR (%)", title="KGR by family",
        )  # fmt: skip
        width, height = fig.get_size_inches()
        write_figure(fig, tmp_path, "grid")
    svg = (tmp_path / "grid.svg").read_text()
    for text in [*titles[:-1], "$cost$ model", "KGR by family", "KGR (%)", ">K1<", ">100<"]:
        assert text in svg, text
    assert svg.count(">K0<") == 14  # categories under every panel
    assert svg.count("KGR (%)") == 3  # one y label per row: 6 + 6 + 2 panels
    assert (width, height) == (1.9 * 6 + 0.4, 1.75 * 3 + 0.8)
