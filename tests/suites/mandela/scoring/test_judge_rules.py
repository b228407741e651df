"""The builtin/rules judge against answers graded by hand following the Appendix F rubric.

The fixture (tests/suites/mandela/scoring/fixtures/hand_graded.jsonl, 67 answers over 8 items of families K0-K6,
absent-celebrity included) was written and graded by hand. The rules judge approximates the rubric
by string matching; what it gets wrong is the point of an LLM judge: names used loosely, the
recorded fact phrased in other words ("American flag" for "United States flag"), and localisation
words that point at the wrong element. Measured: 60/67 exact (89.6%), kappa 0.87, weighted kappa
0.96, within one 98.5%, E0 vs E1+ 100%, E3+ vs below 98.5%, judge above 4, below 3. The rules were
written while looking at this fixture, so these numbers are optimistic for new data.
"""

from __future__ import annotations

from typing import Any

import pytest

from forgebench.analysis.calibration import agreement, confusion
from forgebench.suites.mandela.judge import build_judge_input
from forgebench.suites.mandela.judge_rules import grade
from forgebench.suites.mandela.verdict import parse_answer


def _grade(row: dict[str, Any]) -> int:
    v = parse_answer(row["probe"], row["answer"])
    ji = build_judge_input(
        row["item"],
        probe=row["probe"],
        condition="full",
        prompt="",
        verdict=v.verdict,
        answer=row["answer"],
    )
    return grade(ji).level


def test_fixture_is_large_and_covers_every_level(fixture_rows: list[dict[str, Any]]) -> None:
    assert len(fixture_rows) >= 60
    assert {r["human_level"] for r in fixture_rows} == {0, 1, 2, 3, 4}
    assert {r["item"]["family"] for r in fixture_rows} == {"K0", "K1", "K2", "K3", "K4", "K5", "K6"}


def test_agreement_with_hand_grades(fixture_rows: list[dict[str, Any]]) -> None:
    pairs = [(r["human_level"], _grade(r)) for r in fixture_rows]
    a = agreement(confusion(pairs))
    assert a["n"] == 67
    assert a["exact"] == pytest.approx(100 * 60 / 67)
    assert a["within_one"] >= 98.0
    assert a["e0_agreement"] == 100.0
    assert a["kgr_agreement"] >= 98.0
    assert a["kappa"] >= 0.85 and a["weighted_kappa"] >= 0.95


@pytest.mark.parametrize(
    ("rid", "level"),
    [
        ("hg001", 4),  # Orwell + "died in 1950"
        ("hg002", 3),  # "looks like George Orwell" + a non-recorded impossibility
        ("hg005", 2),  # "resembles George Orwell": a comparison, but the figure is singled out
        ("hg006", 1),  # points at Maradona, a genuine person
        ("hg007", 0),  # REAL
        ("hg027", 4),  # erase: "not Joseph Stalin" + the recorded seat at Yalta
        ("hg033", 2),  # erase: asserts Stalin is present -> not an identification of the anomaly
        ("hg034", 0),  # "The image is fake: ..." is a miss -> E0
        ("hg060", 2),  # K0 control: localised, never E3
    ],
)
def test_hard_cases(fixture_rows: list[dict[str, Any]], rid: str, level: int) -> None:
    row = next(r for r in fixture_rows if r["id"] == rid)
    assert row["human_level"] == level
    assert _grade(row) == level


def test_rules_never_grade_a_non_fake_verdict() -> None:
    assert grade({"verdict": "REAL", "answer": "FAKE", "ground_truth": {}}).level == 0
    assert grade({"verdict": "MISS", "answer": "", "ground_truth": {}}).level == 0
