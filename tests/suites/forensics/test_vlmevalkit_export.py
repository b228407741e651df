"""`export RUN --format vlmevalkit`: VLMEvalKit prediction files that replay to the same numbers."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from forgebench import api
from forgebench.cli import app
from forgebench.run.generate import GenerationSettings
from support.interop_runs import forensics_run, mandela_run


def _rows(run: Path, model: str) -> dict[tuple[str, str, str], str]:
    with (run / "metrics.csv").open(newline="") as fh:
        return {
            (r["probe"], r["subset"], r["metric"]): r["value"]
            for r in csv.DictReader(fh)
            if r["benchmark"] == "forensics" and r["model"] == model and r["condition"] == "full"
        }


@pytest.mark.parametrize("tsv", [False, True])
def test_export_replay_metrics_round_trip(tmp_path: Path, tsv: bool) -> None:
    dataset, run = forensics_run(tmp_path)
    out = tmp_path / "vlmevalkit"
    args = ["export", str(run), "--format", "vlmevalkit", "--out", str(out)]
    res = CliRunner().invoke(app, [*args, "--tsv"] if tsv else args)
    assert res.exit_code == 0, res.output
    path = out / ("vlm_ForensicsBench.tsv" if tsv else "vlm_ForensicsBench.xlsx")
    frame = (
        pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
        if tsv
        else pd.read_excel(path, dtype=str).fillna("")
    )
    assert list(frame.columns) == [
        "index",
        "question",
        "A",
        "B",
        "answer",
        "category",
        "prediction",
    ]
    assert "image" not in frame.columns and len(frame) == 4
    assert frame.loc[frame["index"] == "2", "prediction"].item().startswith("I'm sorry")
    prov = json.loads((out / "vlm_ForensicsBench.forgebench.json").read_text())
    assert prov["rows"] == 4 and prov["dataset_sha256"] and prov["forgebench_version"]
    # replayed through vlmevalkit/FILE on the same dataset: the same numbers, row for row
    again = tmp_path / "again"
    api.run(
        dataset, again, [f"vlm=vlmevalkit/{path}"], GenerationSettings(cache_dir=tmp_path / "c")
    )
    api.metrics(again)
    assert _rows(again, "vlm") == _rows(run, "vlm") and len(_rows(run, "vlm")) > 10


def test_other_benchmarks_are_skipped_with_a_line(tmp_path: Path) -> None:
    _ds, run = mandela_run(tmp_path, seeds=1)
    res = CliRunner().invoke(
        app, ["export", str(run), "--format", "vlmevalkit", "--out", str(tmp_path / "o")]
    )
    assert res.exit_code == 2
    assert "mandela: no vlmevalkit format; skipped" in res.output
    assert "nothing to export as vlmevalkit (mandela)" in res.output
    assert not (tmp_path / "o").exists()
