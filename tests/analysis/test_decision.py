"""The preregistered decision rule (Appendix M) on every outcome, its boundaries and Table 21."""

from __future__ import annotations

import pytest

from forgebench.analysis.decision import classify, erase_swap_ratio


@pytest.mark.parametrize(
    ("erase", "swap", "e4", "outcome"),
    [
        (20.0, 60.0, 5.0, "collapse"),  # ratio 0.33, E4 5
        (50.0, 60.0, 40.0, "no collapse"),  # ratio 0.83, E4 40
        (40.0, 60.0, 20.0, "intermediate"),  # ratio 0.67
        (20.0, 60.0, 20.0, "intermediate"),  # low ratio but E4 not below 15
        (55.0, 60.0, 10.0, "intermediate"),  # high ratio but E4 below 30
        (5.0, 10.0, 0.0, "n/a"),  # swap exactly 10: not applied
        (5.0, 3.0, 0.0, "n/a"),
    ],
)
def test_outcomes(erase: float, swap: float, e4: float, outcome: str) -> None:
    assert classify(erase, swap, e4) == outcome


def test_boundaries() -> None:
    # ratio exactly 0.6 is not "below 0.6"
    assert classify(30.0, 50.0, 0.0) == "intermediate"
    assert classify(29.999, 50.0, 0.0) == "collapse"
    # E4 exactly 15 is not "fewer than 15%"
    assert classify(10.0, 50.0, 15.0) == "intermediate"
    assert classify(10.0, 50.0, 14.99) == "collapse"
    # ratio exactly 0.8 and E4 exactly 30 are "no collapse"
    assert classify(40.0, 50.0, 30.0) == "no collapse"
    assert classify(39.99, 50.0, 30.0) == "intermediate"
    assert classify(40.0, 50.0, 29.99) == "intermediate"
    # swap just above 10 applies the rule
    assert classify(1.0, 10.01, 0.0) == "collapse"
    assert erase_swap_ratio(5.0, 10.0) is None


def test_missing_inputs_are_not_classified() -> None:
    assert classify(float("nan"), 50.0, 0.0) == "n/a"


# Table 21 rows, rates from counts (132 erase items, 78 swaps) so the ratio matches the paper's.
TABLE_21 = [
    ("Gemini-3.8-Flash", 70 / 132, 56 / 78, 7.6, 0.739, "intermediate"),
    ("GPT-5.6", 23 / 132, 41 / 78, 0.0, 0.331, "collapse"),
    ("Kimi-K3", 40 / 132, 55 / 78, 2.3, 0.430, "collapse"),
    ("Qwen3-VL-8B", 26 / 132, 26 / 78, 0.0, 0.591, "collapse"),
    ("Qwen3.8-27B", 34 / 132, 33 / 78, 0.0, 0.609, "intermediate"),
    ("Gemma-4-31B", 91 / 132, 57 / 78, 0.8, 0.943, "intermediate"),
    ("BAGEL-7B-MoT", 14 / 132, 8 / 78, 0.0, 1.034, "intermediate"),
    ("Qwen3-Omni-30B-A3B", 0 / 132, 4 / 78, 0.0, None, "n/a"),
    ("MiniCPM-o-4.5", 2 / 132, 0 / 78, 0.0, None, "n/a"),
]


@pytest.mark.parametrize(("model", "erase", "swap", "e4", "ratio", "outcome"), TABLE_21)
def test_table_21_rows(
    model: str, erase: float, swap: float, e4: float, ratio: float | None, outcome: str
) -> None:
    r = erase_swap_ratio(100 * erase, 100 * swap)
    assert (round(r, 3) if r is not None else None) == ratio, model
    assert classify(100 * erase, 100 * swap, e4) == outcome, model
