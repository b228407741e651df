"""Every verb through the suite registry on Mandela, Forensics and mixed runs: a verb acts on the
benchmarks that have its stage, prints one "skipped" line per other one, and exits 2 (one line,
no file written) when none has it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from typer.testing import CliRunner

from forgebench import api
from forgebench.cli import app
from support import hand_run
from support.forensics_data import FORENSICS_ROWS, write_forensics_release

SHARED = [
    "task_key", "benchmark", "item_id", "model", "probe", "condition", "status", "text",
    "input_tokens", "output_tokens", "latency_s",
]  # fmt: skip


def cli(*args: Any) -> Any:
    return CliRunner().invoke(app, [str(a) for a in args])


def _mandela_rows(run: Path) -> None:
    items = [hand_run.make_item("F1", family="K2"), hand_run.make_item("R1", label="authentic")]
    rows = [
        ("m1", "F1", "L0", "full", "=cmd|' /C calc'!A0 FAKE. The wristwatch is anachronistic."),
        ("m1", "R1", "L0", "full", "REAL."),
        ("m1", "F1", "L1", "full", ("error", "server said 500")),
    ]
    hand_run.build_run(run, items, rows)


def _forensics_run(root: Path, run: Path) -> Path:
    dataset, replay = write_forensics_release(root)
    api.run(dataset, run, [f"vlm=replay/{replay}"])
    return dataset


@pytest.fixture
def forensics_run(tmp_path: Path) -> Path:
    run = tmp_path / "frun"
    _forensics_run(tmp_path / "fx", run)
    return run


@pytest.fixture
def mixed_run(tmp_path: Path) -> Path:
    run = tmp_path / "mixed"
    _mandela_rows(run)
    _forensics_run(tmp_path / "fx2", run)
    return run


def test_export_writes_one_file_per_benchmark_with_the_shared_columns_first(
    mixed_run: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    r = cli("export", mixed_run, "--format", "csv", "--out", out)
    assert r.exit_code == 0, r.output
    mandela = pd.read_csv(out / "export-mandela.csv", keep_default_na=False)
    forensics = pd.read_csv(out / "export-forensics.csv", keep_default_na=False, dtype=str)
    for table in (mandela, forensics):
        assert list(table.columns[: len(SHARED)]) == SHARED
    assert list(mandela["status"]) == ["answered", "answered", "error"]
    assert {"verdict", "level", "has_principal", "family"} <= set(mandela.columns)
    # a cell a spreadsheet would run as a formula is neutralised in the CSV
    assert mandela.loc[0, "text"].startswith("'=cmd")
    assert set(forensics["benchmark"]) == {"forensics"} and len(forensics) == len(FORENSICS_ROWS)
    own = ["type_code", "persp_semantic", "persp_modality", "persp_task", "persp_type",
           "persp_model", "answer", "letter", "found_by", "extractor", "correct"]  # fmt: skip
    assert list(forensics.columns[len(SHARED) :]) == own
    by_id = forensics.set_index("item_id")
    assert by_id.loc["0", "letter"] == "A" and by_id.loc["0", "found_by"] == "letter"
    assert by_id.loc["1", "found_by"] == "text" and by_id.loc["1", "correct"] == "True"
    assert by_id.loc["2", "letter"] == "Z" and by_id.loc["3", "correct"] == "False"
    # a Z of the rules says why: a refusal; "Either A or B, hard to say." hedges (between two)
    assert (by_id.loc["2", "found_by"], by_id.loc["3", "found_by"]) == ("refusal", "hedge")
    code = by_id.loc["0", "type_code"].split("-")
    assert [
        by_id.loc["0", f"persp_{p}"] for p in ("semantic", "modality", "task", "type", "model")
    ] == code
    # parquet: the same tables, raw text
    r = cli("export", mixed_run, "--format", "parquet", "--out", out)
    assert r.exit_code == 0, r.output
    assert len(pd.read_parquet(out / "export-forensics.parquet")) == len(FORENSICS_ROWS)
    assert pd.read_parquet(out / "export-mandela.parquet")["text"][0].startswith("=cmd")


def test_export_out_file_needs_one_benchmark(mixed_run: Path, tmp_path: Path) -> None:
    target = tmp_path / "rows.csv"
    r = cli("export", mixed_run, "--out", target)
    assert r.exit_code == 2 and not target.exists()
    assert "holds 2 benchmarks (mandela, forensics); give a folder, or --benchmark NAME" in r.stderr
    r = cli("export", mixed_run, "--out", target, "--benchmark", "forensics")
    assert r.exit_code == 0, r.output
    assert set(pd.read_csv(target)["benchmark"]) == {"forensics"}
    r = cli("export", mixed_run, "--benchmark", "pixar")
    assert r.exit_code == 2 and "holds no pixar tasks (benchmarks: mandela, forensics)" in r.stderr
    r = cli("export", mixed_run, "--benchmark", "nope")
    assert r.exit_code == 2 and "unknown benchmark 'nope'" in r.stderr


def test_export_default_on_a_forensics_run(forensics_run: Path) -> None:
    r = cli("export", forensics_run)
    assert r.exit_code == 0, r.output
    assert f"exported: {forensics_run / 'export.csv'}" in r.stdout
    assert len(pd.read_csv(forensics_run / "export.csv")) == len(FORENSICS_ROWS)


def test_a_new_export_format_is_one_registration(forensics_run: Path, tmp_path: Path) -> None:
    from forgebench import exports

    def ids(req: exports.ExportRequest) -> exports.Exported:
        assert req.out is not None
        path = req.out / "ids.txt"
        req.out.mkdir(parents=True, exist_ok=True)
        names = ",".join(s.name for s in req.suites)
        path.write_text(names)
        return exports.Exported(files=[path])

    exports.register_format("ids", ids, "benchmark names")
    try:
        r = cli("export", forensics_run, "--format", "ids", "--out", tmp_path / "o")
        assert r.exit_code == 0, r.output
        assert (tmp_path / "o" / "ids.txt").read_text() == "forensics"
    finally:
        exports.FORMATS.remove("ids")
    r = cli("export", forensics_run, "--format", "ids")
    assert r.exit_code == 2 and "unknown format 'ids'; known: csv, parquet" in r.stderr


def test_calibration_skips_forensics_and_exits_2_when_no_benchmark_has_it(
    mixed_run: Path, forensics_run: Path
) -> None:
    r = cli("calibrate", "sample", forensics_run, "--n", "2")
    assert r.exit_code == 2
    assert r.stderr == (
        f"error: {forensics_run}: no benchmark in it has a calibration stage (forensics)\n"
    )
    assert not (forensics_run / "calibration_sample.csv").exists()
    assert cli("judge", mixed_run, "--judge", "builtin/rules").exit_code == 0
    r = cli("calibrate", "sample", mixed_run, "--n", "1")
    assert r.exit_code == 0, r.output
    assert "forensics: no calibration stage; skipped" in r.stderr
    assert (mixed_run / "calibration_sample.csv").is_file()


def test_rules_judge_skips_forensics_and_artefact_is_refused(
    mixed_run: Path, forensics_run: Path
) -> None:
    r = cli("judge", forensics_run, "--judge", "builtin/rules")
    assert r.exit_code == 2 and r.stderr.count("\n") == 1
    assert "builtin/rules judges only mandela; the run holds forensics" in r.stderr
    r = cli("judge", mixed_run, "--judge", "builtin/rules")
    assert r.exit_code == 0, r.output
    assert "forensics: builtin/rules judges only mandela; skipped" in r.stderr
    assert "graded" in r.stdout
    for run in (forensics_run, mixed_run):
        r = cli("judge", run, "--judge", "builtin/artefact")
        assert r.exit_code == 2 and r.stderr.count("\n") == 1
        assert "cannot read text, so it can be neither a judge nor an option extractor" in r.stderr


def test_run_refuses_a_judge_that_cannot_read_before_sending(
    tmp_path: Path, fake_openai: Callable[..., Any]
) -> None:
    server = fake_openai(reply_text="A")
    dataset, _replay = write_forensics_release(tmp_path / "fx")
    r = cli("run", dataset, "--model", f"m=openai/x@{server.url}", "--out", tmp_path / "r",
            "--judge", "builtin/artefact")  # fmt: skip
    assert (
        r.exit_code == 2
        and "error: --judge builtin/artefact: this model cannot read text" in r.stderr
    )
    assert server.hits == 0 and not (tmp_path / "r").exists()


def test_tables_figures_metrics_on_forensics_and_mixed_runs(
    mixed_run: Path, forensics_run: Path
) -> None:
    r = cli("metrics", forensics_run)
    assert r.exit_code == 0, r.output
    assert "Forensics results" in r.stdout and "Mandela results" not in r.stdout
    r = cli("tables", forensics_run)
    assert r.exit_code == 0, r.output
    assert "forensics tables written: forensics_table_02.csv" in r.stdout
    assert (forensics_run / "report" / "forensics_table_02.csv").is_file()
    r = cli("figures", forensics_run)
    assert r.exit_code == 0, r.output
    assert (forensics_run / "report" / "figures" / "forensics_fig4_semantic.png").is_file()
    r = cli("metrics", mixed_run, "--benchmark", "mandela")
    assert r.exit_code == 0, r.output
    metrics = pd.read_csv(mixed_run / "metrics.csv")
    assert set(metrics["benchmark"]) == {"mandela"}
    assert "Mandela results" in r.stdout and "Forensics results" not in r.stdout
    r = cli("tables", mixed_run, "--benchmark", "forensics")
    assert r.exit_code == 2 and "no Forensics metrics (score the run first)" in r.stderr


def test_verbs_on_a_folder_that_is_not_a_run(tmp_path: Path) -> None:
    for verb in ("export", "metrics", "judge", "calibrate"):
        args = [verb, tmp_path] if verb != "calibrate" else [verb, "sample", tmp_path]
        if verb == "judge":
            args += ["--judge", "builtin/rules"]
        r = cli(*args)
        assert r.exit_code == 2, (verb, r.output)
        assert r.stderr == f"error: {tmp_path}: not a run directory (no run.sqlite)\n"


def test_validate_prompts_and_tasks_pick_the_suite_by_the_registry(tmp_path: Path) -> None:
    dataset, _replay = write_forensics_release(tmp_path / "fx")
    r = cli("validate", dataset)
    assert r.exit_code == 0 and "forensics dataset: 4 items" in r.stdout
    r = cli("tasks", dataset, "--models", "2")
    assert r.exit_code == 0, r.output
    assert "MCQ    full" in r.stdout and "4 items; 4 questions x 2 models = 8 tasks" in r.stdout
    r = cli("prompts", "--dataset", dataset, "--item", "1")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("MCQ / full\nversion: MCQ/v1") and "B. AI-generated" in r.stdout
    r = cli("prompts", "--dataset", dataset, "--item", "99")
    assert r.exit_code == 2 and "no item '99'" in r.stderr
    both = cli("prompts").stdout
    assert "== mandela: Mandela-Bench (seed 000) ==" in both
    assert "== forensics: Forensics-Bench (seed 002) ==" in both
    only = cli("prompts", "--benchmark", "forensics").stdout
    assert only.startswith("MCQ\nversion: MCQ/v1") and "L0" not in only
    assert "== pixar: " in both
    r = cli("prompts", "--benchmark", "pixar")
    assert r.exit_code == 0 and r.stdout.startswith("LOC\nversion: loc-")
    r = cli("prompts", "--benchmark", "nope")
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "nope" in r.stderr
