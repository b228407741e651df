"""Answers holding a carriage return, a line feed, a formula after leading whitespace, a NUL or an
escape character: the CSV for people keeps one row per task with formulas neutralised, the
VLMEvalKit TSV reads back whole (pandas, as VLMEvalKit reads it) and replays to the same answers,
and the ``.xlsx`` is written with the forbidden characters replaced and counted."""

from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path

import pandas as pd
import pytest

from forgebench import api
from forgebench.run.generate import GenerationSettings
from forgebench.util.csvsafe import neutralise
from support.forensics_data import write_forensics_release

from .conftest import cli

ANSWERS = {
    "0": "\r=cmd|' /C calc'!A0",
    "1": "line one\nline two\r\nthree\rfour",
    "2": "A\x00 then \x1b[2J",
    "3": " =1+1\t=2+2",
}
"""Item id -> the model's answer."""


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("cr")
    dataset, replay = write_forensics_release(root)
    replay.write_text(
        "".join(
            json.dumps({"item_id": k, "probe": "MCQ", "condition": "full", "text": v}) + "\n"
            for k, v in ANSWERS.items()
        )
    )
    run = root / "run"
    api.run(dataset, run, [f"vlm=replay/{replay}"], GenerationSettings(cache_dir=root / "cache"))
    return dataset, run


def _stored(run: Path) -> dict[str, str]:
    with sqlite3.connect(run / "run.sqlite") as con:
        rows = con.execute(
            "SELECT t.item_id, a.text FROM tasks t JOIN answers a ON a.task_key = t.key"
        ).fetchall()
    return dict(rows)


def test_the_csv_export_keeps_one_row_per_task(hostile_run: tuple[Path, Path]) -> None:
    _dataset, run = hostile_run
    res = cli("export", str(run), "--format", "csv")
    assert res.exit_code == 0, res.output
    with (run / "export.csv").open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == len(ANSWERS)  # a bare CR no longer ends a row
    got = {r["item_id"]: r["text"] for r in rows}
    assert got["0"] == "'" + ANSWERS["0"]  # a formula after a CR is neutralised
    assert got["3"] == "'" + ANSWERS["3"]  # ... and after a space
    assert got["1"] == ANSWERS["1"] and got["2"] == ANSWERS["2"]
    assert len(pd.read_csv(run / "export.csv", dtype=str)) == len(ANSWERS)


def test_the_vlmevalkit_tsv_reads_back_and_replays(
    hostile_run: tuple[Path, Path], tmp_path: Path
) -> None:
    dataset, run = hostile_run
    out = tmp_path / "v"
    res = cli("export", str(run), "--format", "vlmevalkit", "--tsv", "--out", str(out))
    assert res.exit_code == 0, res.output
    path = out / "vlm_ForensicsBench.tsv"
    frame = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)  # VLMEvalKit's reader
    assert len(frame) == len(ANSWERS)
    assert dict(zip(frame["index"], frame["prediction"], strict=True)) == ANSWERS
    again = tmp_path / "again"
    api.run(dataset, again, [f"vlm=vlmevalkit/{path}"], GenerationSettings(cache_dir=tmp_path))
    assert _stored(again) == ANSWERS  # the replay loses no answer


def test_the_xlsx_export_replaces_what_xlsx_forbids_and_says_so(
    hostile_run: tuple[Path, Path], tmp_path: Path
) -> None:
    pytest.importorskip("openpyxl")
    _dataset, run = hostile_run
    out = tmp_path / "x"
    res = cli("export", str(run), "--format", "vlmevalkit", "--out", str(out))
    assert res.exit_code == 0, res.output
    assert "1 cell(s) held characters .xlsx cannot hold" in res.output
    frame = pd.read_excel(out / "vlm_ForensicsBench.xlsx", dtype=str)
    got = dict(zip(frame["index"], frame["prediction"], strict=True))
    assert got["2"] == "A\ufffd then \ufffd[2J"
    # tab, LF and CR are allowed (XML reads a CR back as a line feed)
    assert got["1"] == ANSWERS["1"].replace("\r\n", "\n").replace("\r", "\n")


def test_neutralise_after_leading_whitespace() -> None:
    for lead in ("\r=", "\n=", "\t=", " =", "  +", " \r@"):
        assert neutralise(lead + "1+1") == "'" + lead + "1+1"
    assert neutralise("+4.8") == "+4.8" and neutralise(" plain") == " plain"
