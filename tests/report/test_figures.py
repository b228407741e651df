"""Figure 4 and the per-family charts are written as non-empty PNG and SVG files."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from PIL import Image
from typer.testing import CliRunner

from forgebench.cli import app
from support.modules import file_module


@pytest.fixture(scope="module")
def metrics() -> pd.DataFrame:
    path = Path(__file__).parents[1] / "analysis" / "_synth_run.py"
    synth = file_module("forgebench_tests_synth_run", path)
    frame = synth.build_frame(
        [synth.ModelParams(f"model-{i}", recog_p=0.2 + 0.2 * i) for i in range(3)],
        n_seeds=40,
        seed=4,
    )
    return synth.metrics_from_frame(frame)


def test_figures_written(tmp_path: Path, metrics: pd.DataFrame) -> None:
    from forgebench.suites.mandela.figures import write_figures  # matplotlib: not at collection

    paths = write_figures(tmp_path, metrics=metrics)
    names = {p.name for p in paths}
    for stem in (
        "fig4_prompting",
        "fig4_penalty",
        "fig4_erase_swap",
        "family_kgr_L0",
        "family_kgr_L1",
    ):
        assert {f"{stem}.png", f"{stem}.svg", f"{stem}.csv"} <= names
    for p in paths:
        assert p.parent == tmp_path / "report" / "figures"
        assert p.stat().st_size > (50 if p.suffix == ".csv" else 2000)
    # each figure's CSV holds the numbers it plots, from metrics.csv
    family = pd.read_csv(tmp_path / "report" / "figures" / "family_kgr_L0.csv")
    want = metrics[
        (metrics["model"] == "model-1") & (metrics["probe"] == "L0")
        & (metrics["condition"] == "full") & (metrics["subset"] == "K2")
        & (metrics["metric"] == "kgr")
    ]  # fmt: skip
    got = family[(family["model"] == "model-1") & (family["family"] == "K2")]
    assert float(got["kgr"].iloc[0]) == pytest.approx(float(want["value"].iloc[0]))
    with Image.open(tmp_path / "report" / "figures" / "fig4_penalty.png") as im:
        assert im.width >= 700  # 4.2 in at 200 dpi
    svg = (tmp_path / "report" / "figures" / "fig4_erase_swap.svg").read_text()
    assert "model-2" in svg and "Names the erased person" in svg  # labels kept as text


def test_only_supported_figures(tmp_path: Path, metrics: pd.DataFrame) -> None:
    from forgebench.suites.mandela.figures import write_figures

    only_l0 = metrics[(metrics["probe"] == "L0") & (metrics["condition"] == "full")]
    names = {p.name for p in write_figures(tmp_path, metrics=only_l0)}
    assert names == {
        "fig4_erase_swap.png",
        "fig4_erase_swap.svg",
        "fig4_erase_swap.csv",
        "family_kgr_L0.png",
        "family_kgr_L0.svg",
        "family_kgr_L0.csv",
    }


def test_cli_figures_errors(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["figures", str(tmp_path)])
    assert res.exit_code == 2 and "holds no benchmark yet" in res.output
