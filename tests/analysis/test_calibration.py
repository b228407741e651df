"""Agreement statistics against Table 4 of seed 000 (Appendix F)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from forgebench.analysis.calibration import agreement, by_level, confusion

TABLE4 = [
    [46, 1, 2, 0, 2],
    [0, 29, 5, 0, 0],
    [0, 9, 30, 0, 0],
    [0, 0, 4, 30, 1],
    [0, 2, 2, 8, 35],
]


def test_table4_published_numbers() -> None:
    # Every number Appendix F publishes is what the published matrix gives (to its rounding):
    # exact 170/206 = 82.5%, kappa 0.7813 (0.78), quadratic kappa 0.8925 (0.89), within one
    # 198/206 = 96.1%, E0 vs E1+ 201/206 = 97.6%, E3+ vs below 196/206 = 95.1456% (95.2), judge
    # below 25, above 11.
    a = agreement(TABLE4)
    assert set(a) >= {
        "exact",
        "kappa",
        "weighted_kappa",
        "within_one",
        "e0_agreement",
        "kgr_agreement",
        "judge_above",
        "judge_below",
    }
    assert a["n"] == 206
    assert round(a["exact"], 1) == 82.5
    assert round(a["kappa"], 2) == 0.78
    assert round(a["weighted_kappa"], 2) == 0.89
    assert round(a["within_one"], 1) == 96.1
    assert round(a["e0_agreement"], 1) == 97.6
    assert round(a["kgr_agreement"], 1) == 95.1  # 95.1456...; the paper rounds it to 95.2
    assert (a["judge_below"], a["judge_above"]) == (25, 11)


def test_table4_right_hand_columns() -> None:
    rows = by_level(TABLE4)
    assert [r["n"] for r in rows] == [51, 34, 39, 35, 47]
    assert [round(r["exact"], 1) for r in rows] == [90.2, 85.3, 76.9, 85.7, 74.5]
    assert [round(r["within_one"], 1) for r in rows] == [92.2, 100.0, 100.0, 100.0, 91.5]


def test_perfect_and_degenerate_matrices() -> None:
    a = agreement(np.diag([3, 2, 1, 4, 5]))
    assert (
        a["exact"] == 100.0
        and a["kappa"] == pytest.approx(1.0)
        and a["weighted_kappa"] == pytest.approx(1.0)
    )
    with pytest.raises(ValueError, match="5x5"):
        agreement([[1, 2], [3, 4]])
    with pytest.raises(ValueError, match="empty"):
        agreement(np.zeros((5, 5)))


def test_confusion_from_pairs() -> None:
    m = confusion([(0, 0), (4, 3), (4, 3)])
    assert m[4, 3] == 2 and m.sum() == 3
    with pytest.raises(ValueError, match="outside"):
        confusion([(5, 0)])


def test_kappa_undefined_when_both_graders_use_one_level() -> None:
    from sklearn.metrics import cohen_kappa_score

    m = np.zeros((5, 5))
    m[0, 0] = 7  # every answer E0 for both graders: chance agreement 1, kappa 0/0
    a = agreement(m)
    assert a["exact"] == 100.0
    assert np.isnan(a["kappa"]) and np.isnan(a["weighted_kappa"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.isnan(cohen_kappa_score([0] * 7, [0] * 7))  # scikit-learn agrees
    # one level each but different levels: chance agreement 0, kappa 0 (defined)
    m = np.zeros((5, 5))
    m[0, 3] = 4
    assert agreement(m)["kappa"] == 0.0
