"""Every report figure reads at 1 model and at 50, at 1 type code and at 112: drawn from
synthetic metrics frames, no text leaves the canvas and no two texts overlap, by matplotlib's own
text extents (``fig.canvas.draw()``, ``Text.get_window_extent``).

Figures are drawn at 72 dpi, a pixel a point, and only drawn, never written: the layout is in
inches and points, and at 72 dpi and above the Agg renderer's text is within 2 % of the width
``figure_layout.text_size`` measures (at 50 dpi hinting widens it by up to 13 %, more than any
margin allows for; the report writes 200 dpi). The 1-model figures are drawn by
``fig.canvas.draw()``; the 50-model ones and the 112 type codes are laid out by ``Figure.draw_without_rendering`` (the
same draw with rasterizing switched off: the same text extents, found equal on the 50-model
heatmap, robustness, erase-swap and overview figures, at half the cost). Costly: the 50-model
and 112-code figures (marked ``slow``), each 0.2-0.5 CPU-s here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pandas as pd
import pytest

from support.figure_metrics import forensics_metrics, mandela_metrics


@pytest.fixture
def draw() -> Iterator[Callable[[Callable[[], Any]], Any]]:
    """Build a figure inside the report's style at 72 dpi; returns (problems, figure)."""
    import matplotlib.pyplot as plt

    from forgebench.report.figure_text import text_problems
    from forgebench.report.style import figure_style

    made: list[Any] = []

    def run(build: Callable[[], Any], render: bool = True) -> tuple[list[str], Any]:
        with plt.rc_context({"figure.dpi": 72}), figure_style():
            drawn = build()
            assert drawn is not None
            fig = drawn[0]
            made.append(fig)
            return text_problems(fig, render=render), fig

    yield run
    for fig in made:
        plt.close(fig)


@pytest.fixture(scope="module")
def frames() -> dict[int, tuple[pd.DataFrame, pd.DataFrame]]:
    return {n: (mandela_metrics(n), forensics_metrics(n, 112)) for n in (1, 50)}


MANDELA = ("prompting", "penalty", "erase_swap", "family_L0", "family_L1")
FORENSICS = ("overview", "semantic", "modality", "task", "type", "model", "types", "robustness")


def _mandela(name: str, frame: pd.DataFrame) -> Callable[[], Any]:
    from forgebench.suites.mandela import figures as mf
    from forgebench.suites.mandela.tables.inputs import Metrics

    met = Metrics(frame)
    return {
        "prompting": lambda: mf.figure_prompting(met),
        "penalty": lambda: mf.figure_penalty(met),
        "erase_swap": lambda: mf.figure_erase_swap(met),
        "family_L0": lambda: mf.figure_family(met, "L0"),
        "family_L1": lambda: mf.figure_family(met, "L1"),
    }[name]


def _forensics(name: str, frame: pd.DataFrame) -> Callable[[], Any]:
    from forgebench.suites.forensics import figures as ff

    if name == "overview":
        return lambda: ff.overview_figure(frame)
    if name == "types":
        return lambda: ff.type_heatmap(frame)
    if name == "robustness":
        return lambda: ff.robustness_figure(frame)
    return lambda: ff.perspective_figure(frame, name)


@pytest.mark.parametrize("n", [1, pytest.param(50, marks=pytest.mark.slow)])
@pytest.mark.parametrize("name", MANDELA)
def test_mandela_figures_read(draw, frames, name: str, n: int) -> None:
    problems, fig = draw(_mandela(name, frames[n][0]), render=n == 1)
    assert problems == []
    texts = [t.get_text() for t in fig.axes[0].texts]
    if name.startswith("family"):
        assert sum(t == "K0" for t in texts) == n  # a panel per model, every one labelled
    else:  # every point named beside it or in the note under the plot
        named = set(texts) | {
            x.strip(" .") for t in fig.texts for x in t.get_text().split(":")[-1].split(",")
        }
        assert {f"{m}" for m in frames[n][0]["model"]} <= {x.replace("\n", "") for x in named}


@pytest.mark.parametrize("n", [1, pytest.param(50, marks=pytest.mark.slow)])
@pytest.mark.parametrize("name", FORENSICS)
def test_forensics_figures_read(draw, frames, name: str, n: int) -> None:
    problems, _ = draw(_forensics(name, frames[n][1]), render=n == 1 and name != "types")
    assert problems == []


@pytest.mark.parametrize(("n", "codes", "kind"), [
    (1, 1, "bars"), (2, 12, "bars"), (50, 1, "bars_by_model"), (3, 3, "heatmap"),
])  # fmt: skip
def test_type_chart_kind_and_size(draw, n: int, codes: int, kind: str) -> None:
    """Under three models or three codes the per-type numbers are bars; a heatmap's colour bar
    keeps its width and its axes is never shorter than the colour bar's least height."""
    from forgebench.report import figure_layout as fl
    from forgebench.suites.forensics.figures import type_heatmap

    frame = forensics_metrics(n, codes, robustness=False)
    assert fl.chart_kind(n, codes, "heatmap") == kind
    problems, fig = draw(lambda: type_heatmap(frame))
    assert problems == []
    ax = fig.axes[0]
    if kind == "heatmap":
        assert len(ax.images) == 1 and len(fig.axes) == 2
        bar = fig.axes[1].get_position()
        w, h = fig.get_size_inches()
        assert bar.width * w == pytest.approx(fl.COLORBAR_W)
        assert bar.height * h >= fl.COLORBAR_MIN_H - 1e-9
        assert ax.get_position().height * h >= fl.COLORBAR_MIN_H - 1e-9
    else:
        assert not ax.images and len(fig.axes) == 1
        groups = codes if kind == "bars" else n
        assert len(ax.containers) == (n if kind == "bars" else codes)
        assert len(ax.get_xticklabels()) == groups


def test_the_check_finds_overlaps_and_cut_labels(draw) -> None:
    """The check itself: a label over another and one past the border are both reported."""

    def build() -> tuple[Any, None]:
        import matplotlib.pyplot as plt

        fig = plt.figure(figsize=(2, 1))
        fig.text(0.1, 0.5, "first label")
        fig.text(0.15, 0.5, "second label")
        fig.text(0.9, 0.1, "cut at the border")
        return fig, None

    problems, _ = draw(build)
    assert "'first label' overlaps 'second label'" in problems
    assert "'cut at the border' leaves the canvas" in problems


def test_wrap_and_legend_rules() -> None:
    from forgebench.report.figure_layout import legend_grid, text_size, wrap_label

    long = "Qwen3.5-122B-A10B-Thinking-2507"
    wrapped = wrap_label(long, 1.2)
    assert wrapped.replace("\n", "") == long and wrapped.count("\n") == 1
    assert all(text_size(line)[0] <= 1.2 for line in wrapped.split("\n")[:-1])
    assert wrap_label("m1", 1.0) == "m1"
    one, many = legend_grid(["a"], 6.4), legend_grid([f"model-{i}" for i in range(50)], 6.4)
    assert (one.ncol, one.nrow) == (1, 1)
    assert many.ncol > 1 and many.nrow == -(-50 // many.ncol) and many.height > one.height
