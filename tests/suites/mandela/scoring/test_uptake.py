"""Table 11's uptake and dispute: our prompt through the judge stage (loopback judge and
builtin/rules), the rules grader on hand-written answers, and the metrics they give."""

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
from forgebench.suites.mandela.uptake import (
    UPTAKE_VERSION,
    UptakeReplyError,
    parse_uptake_reply,
    rules_uptake,
    uptake_input,
    uptake_prompt,
)

WRONG = {"label": "Apollo 11 launch", "date": "1969-07-16", "place": "Cape Kennedy"}
TRUE = {"label": "1986 FIFA World Cup final", "date": "1986-06-29"}


def _ui(answer: str) -> dict[str, Any]:
    return uptake_input({"id": "x", "event": TRUE, "wrong_event": WRONG}, answer)


@pytest.mark.parametrize(
    ("answer", "uptake", "dispute"),
    [
        ("FAKE. At the Apollo 11 launch in 1969 nobody stood at the left.", True, False),
        ("REAL. This is not the Apollo 11 launch; it is the World Cup final.", False, True),
        ("FAKE. The caption is wrong: this scene is actually the 1986 final.", False, True),
        ("FAKE. A person was pasted in at the left edge.", False, False),
        ("<think>Apollo 11 launch?</think>FAKE. Odd shadows.", False, False),  # reasoning stripped
    ],
)
def test_rules_grader(answer: str, uptake: bool, dispute: bool) -> None:
    r = rules_uptake(_ui(answer))
    assert (r.uptake, r.dispute) == (uptake, dispute), r.reason


def test_prompt_is_ours_and_names_both_events() -> None:
    p = uptake_prompt(_ui("FAKE."))
    assert "Apollo 11 launch, 1969-07-16, Cape Kennedy" in p and "1986 FIFA World Cup final" in p
    assert '"uptake": true|false' in p and UPTAKE_VERSION == "uptake-v1"


def test_reply_parser() -> None:
    r = parse_uptake_reply(
        'Sure.\n```json\n{"uptake": "yes", "dispute": false, "reason": "x"}\n```'
    )
    assert (r.uptake, r.dispute, r.reason) == (True, False, "x")
    for bad in ("uptake: yes", '{"uptake": true}', '{"uptake": 3, "dispute": false}'):
        with pytest.raises(UptakeReplyError):
            parse_uptake_reply(bad)


@pytest.fixture
def run(tmp_path: Path, hand_run: Any) -> Path:
    mi = hand_run.make_item
    k1 = {"family": "K1", "saliency": "C2", "wrong_event": WRONG, "event": TRUE}
    items = [
        mi("P1", seed_id="s1", **k1), mi("P2", seed_id="s2", **k1), mi("P3", seed_id="s3", **k1),
        mi("R1", seed_id="s1", label="authentic", wrong_event=WRONG, event=TRUE),
    ]  # fmt: skip
    answers = {
        "P1": "FAKE. [uptake-10] At the Apollo 11 launch in 1969 a man was added at the left.",
        "P2": "FAKE. [uptake-01] The caption is wrong: this is actually the 1986 final.",
        "P3": "FAKE. [nonjson] A pasted figure.",
        "R1": "REAL. [uptake-11] The Apollo 11 launch, but the caption is misleading.",
    }
    rows = [("m", k, "L1", "full_wrong_caption", v) for k, v in answers.items()]
    rows += [("m", k, "L0", "full", "FAKE. [valid-1] Artefacts.") for k in ("P1", "P2", "P3")]
    hand_run.build_run(tmp_path / "run", items, rows)
    return tmp_path / "run"


def _metrics(run: Path, judge: str) -> dict[str, tuple[float, int, str]]:
    m = compute_metrics(load_frame(run, judge), judge)
    m = m[m["condition"] == "full_wrong_caption"]
    return {
        r.metric: (r.value, r.n, r.judge) for r in m.itertuples() if r.subset == "peripheral_K1"
    }


def test_loopback_judge_uptake_stage_and_metrics(run: Path, judge_server: Any) -> None:
    spec = f"qj=openai/judge-model@{judge_server.url}"
    settings = JudgeSettings(max_attempts=2, retry=RetryPolicy(base_s=0.001))
    stats = judge_run(run, spec, settings, config=ModelConfig(spec=spec, concurrency=2))
    assert (
        stats.uptake is not None and "4 wrong-caption answers; 3 judged, 1 unscored" in stats.uptake
    )
    # P3 is asked twice by each stage (E0-E4 and uptake), then stored unscored by both
    assert judge_server.hits["nonjson"] == 4
    con = sqlite3.connect(run / "run.sqlite")
    kinds = dict(con.execute("SELECT kind, COUNT(*) FROM judgements GROUP BY kind").fetchall())
    version = con.execute("SELECT DISTINCT version FROM judgements WHERE kind='uptake'").fetchall()
    con.close()
    assert kinds == {"evidence": 6, "uptake": 4}  # E0-E4: forged answers only
    assert version == [(UPTAKE_VERSION,)]
    got = _metrics(run, "qj")
    # population: P1, P2, P3 and R1 (the original of P1's seed); P3 unscored counts as no
    assert got["uptake"] == (50.0, 4, "qj")  # P1, R1
    assert got["dispute"] == (50.0, 4, "qj")  # P2, R1
    hits = sum(judge_server.hits.values())
    judge_run(
        run, spec, JudgeSettings(retry=RetryPolicy(base_s=0.001)), config=ModelConfig(spec=spec)
    )
    assert sum(judge_server.hits.values()) == hits  # resume: nothing asked again


def test_builtin_rules_judges_uptake_offline(run: Path) -> None:
    stats = judge_run(run, "builtin/rules")
    assert stats.uptake is not None and "4 judged, 0 unscored" in stats.uptake
    got = _metrics(run, "builtin/rules")
    # rules: P1 adopts; P2 disputes ("caption is wrong", "actually"); P3 neither;
    # R1 names the event and calls the caption misleading: both
    assert got["uptake"][:2] == (50.0, 4) and got["dispute"][:2] == (50.0, 4)
