"""A run directory written at store schema 3, holding Mandela and Forensics with grades and
extracted letters, opens (migrated), resumes both benchmarks with zero requests, keeps its answers
and judgements, and scores to the same metrics.csv (Forensics: where the current extraction rules
read a letter differently, only those numbers move)."""

from __future__ import annotations

import csv
import json
import shutil
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from forgebench.cli import app
from forgebench.run.store import Store
from forgebench.run.store.schema import SCHEMA_VERSION

FIXTURE = Path(__file__).parents[1] / "fixtures" / "v3_run"
ENV = {"OPENAI_API_KEY": "sk-test"}


@pytest.fixture
def v3(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURE, tmp_path / "v3")
    return tmp_path / "v3"


def _metrics(path: Path) -> list[tuple[str, ...]]:
    with path.open(newline="") as fh:
        return sorted(tuple(r.values()) for r in csv.DictReader(fh))


def _snapshot(run: Path) -> tuple[Any, ...]:
    with closing(sqlite3.connect(run / "run.sqlite")) as con:
        version = json.loads(
            con.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0]
        )
        answers = dict(con.execute("SELECT task_key, text FROM answers"))
        judgements = con.execute(
            "SELECT task_key, judge, kind, value, level, status FROM judgements ORDER BY 1, 2, 3"
        ).fetchall()
        tasks = con.execute(
            "SELECT benchmark, COUNT(*) FROM tasks WHERE superseded_by IS NULL GROUP BY 1"
        ).fetchall()
    return version, answers, judgements, tasks


def test_a_v3_run_of_two_benchmarks_resumes_without_sending_and_scores_the_same(
    v3: Path, fake_openai: Callable[..., Any]
) -> None:
    run = v3 / "run"
    version, answers, judgements, tasks = _snapshot(run)
    assert version == 3 and len(answers) == 31
    assert tasks == [("forensics", 6), ("mandela", 25)]
    assert {(j[1], j[2]) for j in judgements} == {("builtin/rules", "evidence"), ("ext", "letter")}
    before = _metrics(run / "metrics.csv")
    server = fake_openai(reply_text="this must never be asked")
    for dataset in ("mandela", "forensics"):
        res = CliRunner().invoke(
            app,
            ["run", str(v3 / dataset), "--model", f"m1=openai/fake@{server.url}",
             "--out", str(run), "--cache-dir", str(v3 / "cache")],
            env=ENV,
        )  # fmt: skip
        assert res.exit_code == 0, res.output
    assert server.hits == 0
    version, after, judged, tasks_after = _snapshot(run)
    assert version == SCHEMA_VERSION
    assert after == answers and judged == judgements and tasks_after == tasks
    letters_before = _letters(run)
    res = CliRunner().invoke(app, ["metrics", str(run)])
    assert res.exit_code == 0, res.output
    assert server.hits == 0  # re-extraction sends nothing
    after_rows = _metrics(run / "metrics.csv")
    assert [r for r in after_rows if r[0] == "mandela"] == [r for r in before if r[0] == "mandela"]
    # Forensics is re-read by the current rules: a number moves only where a letter moved
    # ("FAKE. The image is ..." now reads as the AI-generated option of binary questions)
    letters_after = _letters(run)
    moved = {code for k, (code, letter) in letters_after.items() if letters_before[k][1] != letter}
    assert moved == {"HS-RGB-BC-ES-DF", "HS-RGB-BC-SPF-3D", "HS-VID-BC-FSM-ED&RNN&GR"}
    kept = {
        r
        for r in before
        if r[0] == "forensics" and r[5] == "acc" and r[4].count("-") == 4 and r[4] not in moved
    }
    assert len(kept) == 3 and kept <= set(after_rows)


def _letters(run: Path) -> dict[str, tuple[str, str]]:
    with closing(sqlite3.connect(run / "run.sqlite")) as con:
        rows = con.execute(
            "SELECT t.key, t.extra, v.verdict FROM tasks t JOIN verdicts v ON v.task_key = t.key "
            "WHERE t.benchmark = 'forensics'"
        ).fetchall()
    return {k: (json.loads(e)["type_code"], str(v)) for k, e, v in rows}


def test_a_work_folder_store_that_has_its_steps_table_keeps_its_rows(v3: Path) -> None:
    run = v3 / "run"
    # what construction created in a work folder's store before the table joined the schema
    with closing(sqlite3.connect(run / "run.sqlite")) as con, con:
        con.execute(
            "CREATE TABLE construct_steps (task_key TEXT NOT NULL, step INTEGER NOT NULL, "
            "inputs TEXT NOT NULL, sha256 TEXT NOT NULL, cost REAL NOT NULL, "
            "created_at REAL NOT NULL, PRIMARY KEY (task_key, step, inputs))"
        )
        con.executemany(
            "INSERT INTO construct_steps VALUES (?, ?, ?, ?, ?, 0)",
            [("cand", 0, "in0", "a" * 64, 0.5), ("cand", 1, "in1", "b" * 64, 0.25)],
        )
    with Store.open(run, create=False) as store:
        assert store.meta_get("schema_version") == SCHEMA_VERSION
        assert store.kept_steps(["cand", "other"]) == {"cand": 2}
        assert store.step_blob("cand", 1, "in1") == "b" * 64
        assert store.steps_cost() == 0.75
    with Store.open(run) as store:
        assert store.kept_steps(["cand"]) == {"cand": 2}  # reopening changes nothing


def test_a_run_store_gains_an_empty_steps_table(v3: Path) -> None:
    with Store.open(v3 / "run", create=False) as store:
        assert store.kept_steps(["anything"]) == {} and store.steps_cost() == 0.0
        store.put_step("cand", 0, "in0", "c" * 64, 0.5)
        store.put_step("cand", 0, "in0", "c" * 64, 0.5)  # rendered again: its cost adds up
        assert store.step_cost("cand", 0, "in0") == 1.0
