"""The exact McNemar test against textbook values and the p-values printed in seed 000."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from forgebench.analysis.stats import format_p, mcnemar_exact, paired_mcnemar


def test_textbook_values() -> None:
    # b=1, c=9: 2 * P[Bin(10, .5) <= 1] = 2 * 11/1024
    assert mcnemar_exact(1, 9) == pytest.approx(22 / 1024)
    assert mcnemar_exact(9, 1) == pytest.approx(0.021484375)
    assert mcnemar_exact(0, 5) == pytest.approx(2 / 32)
    assert mcnemar_exact(3, 3) == 1.0  # capped at one
    assert mcnemar_exact(0, 0) == 1.0


# (b, c, printed p) from Table 9 ("only Full / only Crop") and Table 19 ("b / c").
PUBLISHED = [
    (14, 2, "0.0042"),
    (5, 0, "0.0625"),
    (4, 0, "0.1250"),
    (8, 0, "0.0078"),
    (3, 0, "0.2500"),
    (7, 0, "0.0156"),
    (14, 1, "0.0010"),
    (20, 2, "0.0001"),
    (15, 0, "0.0001"),
    (1, 0, "1.00"),
    (56, 0, "< 0.0001"),
    (153, 120, "0.0526"),
    (91, 93, "0.9413"),
    (180, 151, "0.1237"),
    (206, 154, "0.0071"),
    (117, 125, "0.6528"),
    (164, 108, "0.0008"),
    (184, 136, "0.0085"),
    (180, 137, "0.0182"),
    (149, 96, "0.0009"),
    (47, 27, "0.0265"),
    (94, 73, "0.1214"),
    (165, 151, "0.4646"),
    (141, 158, "0.3548"),
    (18, 2, "0.0004"),
    (4, 6, "0.7539"),
    (191, 154, "0.0524"),
]


@pytest.mark.parametrize(("b", "c", "printed"), PUBLISHED)
def test_reproduces_the_papers_p_values(b: int, c: int, printed: str) -> None:
    assert format_p(mcnemar_exact(b, c)) == printed


def test_negative_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="non-negative"):
        mcnemar_exact(-1, 3)


def test_paired_on_items_with_misses_counting_as_negative() -> None:
    a = pd.DataFrame({"item_id": list("abcdef"), "correct": [True, True, True, False, None, True]})
    b = pd.DataFrame({"item_id": list("abcdeg"), "correct": [True, False, False, True, True, True]})
    res = paired_mcnemar(a, b)
    # pairs a..e; only-a: b, c; only-b: d, e (e's miss under a counts as negative)
    assert (res.b, res.c, res.n) == (2, 2, 5)
    assert res.p == 1.0


def test_paired_reports_a_missing_column() -> None:
    with pytest.raises(KeyError, match="frame_b lacks column"):
        paired_mcnemar(pd.DataFrame({"item_id": [], "correct": []}), pd.DataFrame({"item_id": []}))


def test_format_p_dash_for_missing() -> None:
    assert format_p(None) == "—"
    assert format_p(0.16714) == "0.1671"


# Table 12 / Table 11 give the detection change (points) on n paired forgeries and its p-value;
# exactly one discordant split (b, c) with c - b = change * n reproduces each printed p.
RECONSTRUCTED = [
    (13.9, 108, "0.0015", (3, 18)),  # GPT-5.6, K4, Full+Caption vs Full
    (13.1, 145, "0.0026", (9, 28)),  # GPT-5.6, K5
    (4.8, 145, "0.1671", (6, 13)),  # Gemini-3.8-Flash, K1 (Tables 11 and 12)
    (3.4, 145, "0.4421", (11, 16)),  # GPT-5.6, K1
]


@pytest.mark.parametrize(("delta", "n", "printed", "split"), RECONSTRUCTED)
def test_table_12_changes_have_one_consistent_split(
    delta: float, n: int, printed: str, split: tuple[int, int]
) -> None:
    d = round(delta * n / 100)
    matches = [(b, b + d) for b in range(0, n - d) if format_p(mcnemar_exact(b, b + d)) == printed]
    assert matches == [split]
    assert round(100 * (split[1] - split[0]) / n, 1) == delta


def test_p_values_are_scipys_binomial_cdf_bit_for_bit() -> None:
    """The p-value is SciPy's own ``binom.cdf`` (what the tables printed before it was imported
    without scipy.stats), to the last bit, for every split of up to 400 discordant pairs."""
    from scipy.stats import binom

    splits = [(b, n - b) for n in range(1, 401) for b in range(n + 1)]
    low = np.array([min(b, c) for b, c in splits])
    total = np.array([b + c for b, c in splits])
    expected = np.minimum(1.0, 2.0 * binom.cdf(low, total, 0.5))
    got = np.array([mcnemar_exact(b, c) for b, c in splits])
    assert np.array_equal(got, expected)
