"""`export RUN --format model-index`: model cards whose model-index the Hub's parser reads back."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forgebench.cli import app
from support.interop_runs import forensics_run, mandela_run


def _metrics(run: Path) -> list[dict[str, str]]:
    with (run / "metrics.csv").open(newline="") as fh:
        return list(csv.DictReader(fh))


def test_every_headline_value_round_trips_through_modelcard(tmp_path: Path) -> None:
    from huggingface_hub import ModelCard

    _ds, run = mandela_run(tmp_path / "m", seeds=2)
    _ds, frun = forensics_run(tmp_path / "f")
    out = tmp_path / "cards"
    for r in (run, frun):
        res = CliRunner().invoke(
            app, ["export", str(r), "--format", "model-index", "--out", str(out)]
        )
        assert res.exit_code == 0, res.output
    card = ModelCard((out / "builtin--artefact.md").read_text(encoding="utf-8"))
    results = card.data.eval_results
    assert card.data.model_name == "builtin/artefact"
    want = {
        (r["metric"], f"{r['probe']}/{r['condition']}/{r['subset']}" + (f"@{r['judge']}" if r["judge"] else "")): float(r["value"])
        for r in _metrics(run)
        if r["subset"] == "all" and r["probe"] == "L0" and r["condition"] == "full"
        and r["metric"] in ("kgr", "det", "bal")
    }  # fmt: skip
    got = {(e.metric_type, e.metric_config): e.metric_value for e in results}
    assert got == want and len(want) == 3
    assert {e.task_type for e in results} == {"visual-question-answering"}
    assert {e.dataset_type for e in results} == {"forgebench/mandela"}
    assert card.data.forgebench["mandela"]["dataset_sha256"]  # provenance beside the results
    fcard = ModelCard((out / "vlm.md").read_text(encoding="utf-8"))
    fgot = {(e.metric_type, e.metric_config): e.metric_value for e in fcard.data.eval_results}
    fwant = {
        (r["metric"], f"MCQ/full/{r['subset']}"): float(r["value"])
        for r in _metrics(frun)
        if r["condition"] == "full"
        and ((r["metric"], r["subset"]) == ("acc", "all") or (r["metric"] == "persp"))
    }
    assert fgot == fwant and len(fwant) == 6


def test_dataset_id_and_judge_filter(tmp_path: Path) -> None:
    from huggingface_hub import ModelCard

    _ds, run = mandela_run(tmp_path, seeds=1)
    out = tmp_path / "cards"
    res = CliRunner().invoke(
        app,
        ["export", str(run), "--format", "model-index", "--out", str(out),
         "--dataset-id", "me/mandela-mini", "--judge", "someone-else"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    results = ModelCard((out / "builtin--artefact.md").read_text()).data.eval_results
    assert {e.dataset_type for e in results} == {"me/mandela-mini"}
    assert {e.metric_type for e in results} == {"det", "bal"}  # kgr is builtin/rules' only


def test_no_metrics_and_missing_extra_are_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _ds, run = forensics_run(tmp_path)
    (run / "metrics.csv").unlink()
    args = ["export", str(run), "--format", "model-index", "--out", str(tmp_path / "o")]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 2 and "forgebench metrics RUN" in res.output
    monkeypatch.setitem(sys.modules, "huggingface_hub", None)
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 2 and "pip install 'forgebench[modelcard]'" in res.output
    assert not (tmp_path / "o").exists()
