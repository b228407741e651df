"""A run directory written before the suite seam (store schema 1) resumes with zero requests,
keeps its answers and grades, and scores to the same metrics.csv."""

from __future__ import annotations

import csv
import json
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from forgebench.cli import app
from forgebench.run.store import Store, StoreError
from forgebench.run.store.schema import SCHEMA_VERSION

FIXTURE = Path(__file__).parents[1] / "fixtures" / "v1_run"


@pytest.fixture
def v1(tmp_path: Path) -> tuple[Path, Path]:
    shutil.copytree(FIXTURE / "dataset", tmp_path / "dataset")
    shutil.copytree(FIXTURE / "run", tmp_path / "run")
    return tmp_path / "dataset", tmp_path / "run"


def _metrics(path: Path) -> list[tuple[str, ...]]:
    with path.open(newline="") as fh:
        return sorted(tuple(r.values()) for r in csv.DictReader(fh))


# Changed on purpose since the fixture was written: RECOG's mixed subset "all" is
# split into "forged" and "authentic" (the fixture's 6 RECOG items: 3 forged, 3 authentic).
SINCE_V1 = {
    ("mandela", "m1", "RECOG", "full", "all", "recog", "100.0", "6", ""): [
        ("mandela", "m1", "RECOG", "full", "authentic", "recog", "100.0", "3", ""),
        ("mandela", "m1", "RECOG", "full", "forged", "recog", "100.0", "3", ""),
    ]
}


def _as_now(rows: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    return sorted(new for r in rows for new in SINCE_V1.get(r, [r]))


def test_a_v1_run_resumes_without_sending_and_scores_the_same(
    v1: tuple[Path, Path], tmp_path: Path, fake_openai: Callable[..., Any]
) -> None:
    dataset, run = v1
    before = _metrics(run / "metrics.csv")
    with sqlite3.connect(run / "run.sqlite") as con:
        assert (
            json.loads(
                con.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0]
            )
            == 1
        )
        answers = dict(con.execute("SELECT task_key, text FROM answers"))
        grades = con.execute("SELECT task_key, level, status FROM grades ORDER BY 1").fetchall()
    server = fake_openai(reply_text="this must never be asked")
    res = CliRunner().invoke(
        app,
        ["run", str(dataset), "--model", f"m1=openai/fake@{server.url}", "--out", str(run),
         "--cache-dir", str(tmp_path / "cache")],
        env={"OPENAI_API_KEY": "sk-test"},
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    assert server.hits == 0
    with sqlite3.connect(run / "run.sqlite") as con:
        version = con.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0]
        assert json.loads(version) == SCHEMA_VERSION
        assert dict(con.execute("SELECT task_key, text FROM answers")) == answers
        assert (
            con.execute("SELECT task_key, level, status FROM grades ORDER BY 1").fetchall()
            == grades
        )
        kinds = con.execute("SELECT DISTINCT kind FROM judgements").fetchall()
        assert kinds == [("evidence",)]
        assert con.execute("SELECT DISTINCT benchmark FROM tasks").fetchall() == [("mandela",)]
        assert con.execute(
            "SELECT COUNT(*) FROM tasks WHERE superseded_by IS NOT NULL"
        ).fetchone() == (0,)
    res = CliRunner().invoke(app, ["metrics", str(run)])
    assert res.exit_code == 0, res.output
    assert _metrics(run / "metrics.csv") == _as_now(before)


def test_a_newer_store_is_refused_naming_both_versions(v1: tuple[Path, Path]) -> None:
    _dataset, run = v1
    with sqlite3.connect(run / "run.sqlite") as con:
        con.execute("UPDATE meta SET value='99' WHERE key='schema_version'")
    with pytest.raises(
        StoreError, match=rf"schema version 99 is newer than this forgebench's \({SCHEMA_VERSION}\)"
    ):
        Store.open(run, create=False)
    res = CliRunner().invoke(app, ["metrics", str(run)])
    assert res.exit_code == 2
    assert "schema version 99" in res.output


def test_a_file_that_is_not_a_store_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "run.sqlite").write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(StoreError, match="not a forgebench run store"):
        Store.open(tmp_path, create=False)
    other = tmp_path / "o"
    other.mkdir()
    with sqlite3.connect(other / "run.sqlite") as con:
        con.execute("CREATE TABLE something(x)")
    with pytest.raises(StoreError, match="not a forgebench run store"):
        Store.open(other, create=False)


def test_every_metrics_writer_keeps_other_benchmarks_rows(
    v1: tuple[Path, Path], tmp_path: Path, fake_openai: Callable[..., Any]
) -> None:
    dataset, run = v1
    others = [
        "pixar,builtin/artefact,LOC,full,all,giou,3.1,33,",
        "forensics,m1,MCQ,full,all,acc,61.5,13,",
        "mandela,m1,L0,full,all,kgr,12.5,8,another/judge",
    ]
    with (run / "metrics.csv").open("a") as fh:
        fh.write("".join(line + "\n" for line in others))
    server = fake_openai()
    base = ["--cache-dir", str(tmp_path / "cache")]
    steps = [
        ["metrics", str(run)],
        ["judge", str(run), "--judge", "builtin/rules"],
        ["run", str(dataset), "--model", f"m1=openai/fake@{server.url}", "--out", str(run),
         "--judge", "builtin/rules", *base],
        ["metrics", str(run), "--judge", "builtin/rules"],
    ]  # fmt: skip
    for args in steps:
        res = CliRunner().invoke(app, args, env={"OPENAI_API_KEY": "sk-test"})
        assert res.exit_code == 0, (args, res.output)
        lines = (run / "metrics.csv").read_text().splitlines()
        for line in others:
            assert line in lines, (args[0], line)
    assert server.hits == 0
