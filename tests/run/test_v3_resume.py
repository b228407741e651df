"""A run directory written at store schema 3, holding Mandela and Forensics with grades and
extracted letters, opens (migrated), resumes both benchmarks with zero requests, keeps its answers
and judgements, and scores to the same metrics.csv."""

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
from forgebench.run.schema import SCHEMA_VERSION

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
    res = CliRunner().invoke(app, ["metrics", str(run)])
    assert res.exit_code == 0, res.output
    assert _metrics(run / "metrics.csv") == before
