"""CSVs meant for people never carry a live spreadsheet formula; numbers and
machine-readable files stay raw."""

from __future__ import annotations

import csv
import sqlite3
from pathlib import Path
from typing import Any

import pandas as pd

from forgebench.report.table import Cell, Column, Table, to_csv
from forgebench.util.csvsafe import neutralise
from support.mandela_data import write_mandela_dataset

from .conftest import cli, run_args

ANSWER = '=HYPERLINK("http://evil.example","FAKE") the watch'


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _hostile_run(tmp_path: Path, fake_openai: Any) -> Path:
    server = fake_openai(reply_text=ANSWER)
    run_dir = tmp_path / "run"
    ds = write_mandela_dataset(tmp_path / "ds", seeds=2)
    res = cli(*run_args(ds, run_dir, f"-evil=openai/fake@{server.url}"))
    assert res.exit_code == 0, res.output
    assert cli("judge", str(run_dir), "--judge", "builtin/rules").exit_code == 0
    return run_dir


def test_export_csv_and_calibration_sample_neutralise_formulas(
    tmp_path: Path, fake_openai: Any
) -> None:
    run_dir = _hostile_run(tmp_path, fake_openai)
    assert cli("export", str(run_dir), "--format", "csv").exit_code == 0
    rows = _rows(run_dir / "export.csv")
    assert rows and all(r["text"].startswith("'=HYPERLINK(") for r in rows)
    assert {r["model"] for r in rows} == {"'-evil"}
    assert cli("export", str(run_dir), "--format", "parquet").exit_code == 0
    raw = pd.read_parquet(run_dir / "export.parquet")
    assert set(raw["text"].str[:11]) == {ANSWER[:11]} and set(raw["model"]) == {"-evil"}
    with sqlite3.connect(run_dir / "run.sqlite") as con:
        texts = [r[0] for r in con.execute("SELECT text FROM answers")]
    assert texts and all(t.startswith(ANSWER) for t in texts)  # the store keeps raw text
    res = cli("calibrate", "sample", str(run_dir), "--n", "2")
    assert res.exit_code == 0, res.output
    sample = _rows(run_dir / "calibration_sample.csv")
    assert sample and all(r["answer"].startswith("'=HYPERLINK(") for r in sample)
    assert all(r["model"] == "'-evil" for r in sample)
    assert cli("metrics", str(run_dir)).exit_code == 0
    metrics = _rows(run_dir / "metrics.csv")  # machine-readable: raw
    assert metrics and {r["model"] for r in metrics} == {"-evil"}


def test_report_table_csv_neutralises_text_but_never_numbers() -> None:
    table = Table(
        number=2,
        caption="c",
        columns=[Column("Model"), Column("ΔKGR")],
        sections=[
            ("=cmd", [[Cell("@SUM(A1)", "x"), Cell("+4.8", "+4.8")]]),
            (None, [[Cell("-evil", "-evil"), Cell(-2.5, "-2.5")]]),
            (None, [[Cell("gpt", "gpt"), Cell("-0.3", "-0.3")]]),
        ],
    )
    rows = list(csv.reader(to_csv(table).splitlines()))
    assert rows[1] == ["'=cmd", "'@SUM(A1)", "+4.8"]
    assert rows[2] == ["", "'-evil", "-2.5"]
    assert rows[3] == ["", "gpt", "-0.3"]


def test_neutralise_rules() -> None:
    for text in ("=1+1", "+A1", "-A1", "@x", "\t=1", "\r=1", "-", "-inf text"):
        assert neutralise(text) == "'" + text
    for value in ("+4.8", "-0.25", "-1e-3", "plain", "", 5, -3.0, None):
        assert neutralise(value) == value
