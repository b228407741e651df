"""The judge stage against a loopback judge: valid, invalid and non-JSON replies; resume; two judges."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from forgebench.models.spec import ModelConfig
from forgebench.run.judging import JudgeSettings
from forgebench.run.send.retry import RetryPolicy
from forgebench.suites.mandela.frame import load_frame
from forgebench.suites.mandela.judge import judge_run
from forgebench.suites.mandela.metrics import compute_metrics
from forgebench.suites.mandela.rubric import RUBRIC, RUBRIC_VERSION

ORWELL = {"name": "George Orwell", "aliases": ["Orwell"], "role": "photographer at the left edge"}
CONTRA = "George Orwell died in 1950, before the 1986 World Cup final (1986-06-29)"


@pytest.fixture
def run(tmp_path: Path, hand_run: Any) -> Path:
    mi = hand_run.make_item
    answers = {
        "A1": "FAKE. [valid-4] George Orwell, who died in 1950, is at the left.",
        "A2": "FAKE. [nonjson] Odd lighting.",
        "A3": "FAKE. [flaky] The photographer on the left.",
        "A4": "FAKE. [badjson] Something.",
        "A5": "FAKE. [valid-1] Artefacts.",
        "A6": "FAKE. [schema] Hmm.",
        "A7": "REAL. Maradona in 1986.",
        "A8": "The image is fake.",
        "A9": "FAKE. [down] The left edge.",
    }
    items = [mi(k, family="K1", entity=ORWELL, contradiction=CONTRA) for k in answers]
    items.append(mi("R1", label="authentic"))
    rows = [("m1", k, "L0", "full", v) for k, v in answers.items()]
    rows.append(("m1", "R1", "L0", "full", "FAKE. [valid-3]"))
    hand_run.build_run(tmp_path / "run", items, rows)
    return tmp_path / "run"


def _grades(run: Path, judge: str) -> dict[str, tuple[Any, ...]]:
    con = sqlite3.connect(run / "run.sqlite")
    rows = con.execute(
        "SELECT t.item_id, g.level, g.status, g.rubric_version, g.judge_spec, g.attempts, g.raw "
        "FROM grades g JOIN tasks t ON t.key = g.task_key WHERE g.judge = ?",
        (judge,),
    ).fetchall()
    con.close()
    return {r[0]: r[1:] for r in rows}


def _judge(run: Path, url: str, **kw: Any) -> Any:
    spec = f"qj=openai/judge-model@{url}"
    settings = JudgeSettings(max_attempts=2, retry=RetryPolicy(base_s=0.001), **kw)
    return judge_run(run, spec, settings, config=ModelConfig(spec=spec, concurrency=2))


def test_valid_invalid_and_nonjson_replies(run: Path, judge_server: Any) -> None:
    stats = _judge(run, judge_server.url)
    g = _grades(run, "qj")
    assert g["A1"][:2] == (4, "graded") and g["A5"][:2] == (1, "graded")
    assert g["A3"][:2] == (2, "graded") and g["A3"][4] == 2  # "E2" on the second attempt
    for bad in ("A2", "A4", "A6"):  # non-JSON, truncated JSON, no level: unscored, never E0
        level, status, *_rest, raw = g[bad]
        assert (level, status) == (None, "unscored")
        assert raw  # the last invalid reply is kept
    assert g["A7"][:2] == (0, "auto") and g["A8"][:2] == (0, "auto")  # REAL and a miss: no call
    assert "R1" not in g  # authentic items are never graded
    assert "A9" not in g  # transport failure: nothing stored, asked again next run
    assert {row[2] for row in g.values()} == {RUBRIC_VERSION}
    assert judge_server.hits["nonjson"] == 2 and judge_server.hits["flaky"] == 2
    assert judge_server.hits["none"] == 0
    assert (stats.graded, stats.unscored, stats.auto, stats.errors, stats.eligible) == (
        3,
        3,
        2,
        1,
        9,
    )
    assert RUBRIC in judge_server.prompts[0]
    assert "George Orwell died in 1950" in judge_server.prompts[0]  # the recorded contradiction


def test_resume_never_regrades_and_unscored_stay_out_of_kgr(run: Path, judge_server: Any) -> None:
    _judge(run, judge_server.url)
    before = sum(judge_server.hits.values())
    again = _judge(run, judge_server.url)
    # only the transport failure is asked again
    assert sum(judge_server.hits.values()) - before == 2 and judge_server.hits["down"] == 4
    assert again.existing == 8 and again.graded == 0
    frame = load_frame(run, "qj")
    unscored = frame[frame.grade_status == "unscored"]
    assert len(unscored) == 3 and unscored.level.isna().all()
    m = compute_metrics(frame, "qj").set_index(["model", "probe", "condition", "subset", "metric"])
    assert m.loc[("m1", "L0", "full", "all", "kgr"), "value"] == pytest.approx(100 / 9)  # A1 only
    assert m.loc[("m1", "L0", "full", "all", "unscored"), "value"] == 3


def test_second_judge_lives_beside_the_first(run: Path, judge_server: Any) -> None:
    _judge(run, judge_server.url)
    stats = judge_run(run, "builtin/rules")
    assert stats.judge == "builtin/rules" and stats.graded == 7 and stats.unscored == 0
    rules = _grades(run, "builtin/rules")
    assert rules["A1"][:2] == (4, "graded")  # names Orwell and his death year
    assert rules["A7"][:2] == (0, "auto")
    assert _grades(run, "qj")["A1"][:2] == (4, "graded")
    with pytest.raises(ValueError, match="several judges"):
        load_frame(run)
