"""Judge calibration (seed 000, Appendix F): agreement between two graders on the E0-E4 ladder.

:func:`agreement` takes a 5x5 count matrix, rows the reference grader (the human) E0-E4 and
columns the judge E0-E4, as in Table 4, and returns

- ``exact``: % on the diagonal;
- ``kappa``: Cohen's kappa (fraction); undefined (NaN) when chance agreement is 1, i.e. both
  graders use one and the same level (0/0), not 1.0;
- ``weighted_kappa``: quadratically weighted kappa, weights ``(i - j)^2 / 16`` (fraction); NaN in
  the same case;
- ``within_one``: % with ``|human - judge| <= 1``;
- ``e0_agreement``: % agreeing on E0 versus E1+ (evidence at all);
- ``kgr_agreement``: % agreeing on E3+ versus below (the KGR threshold);
- ``judge_above`` / ``judge_below``: counts of rows where the judge's level is above / below the
  human's;
- ``n``: the number of graded answers.

Table 4 of the paper checks out against these definitions (``tests/analysis``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

LEVELS = 5


def confusion(pairs: Iterable[tuple[int, int]]) -> np.ndarray:
    """The 5x5 count matrix of ``(reference_level, judge_level)`` pairs."""
    m = np.zeros((LEVELS, LEVELS), dtype=np.int64)
    for ref, judge in pairs:
        if not (0 <= ref < LEVELS and 0 <= judge < LEVELS):
            raise ValueError(f"level pair ({ref}, {judge}) is outside E0-E4")
        m[ref, judge] += 1
    return m


def agreement(matrix: Sequence[Sequence[float]] | np.ndarray) -> dict[str, Any]:
    """Agreement statistics of a 5x5 reference-by-judge count matrix (see the module docstring)."""
    m = np.asarray(matrix, dtype=float)
    if m.shape != (LEVELS, LEVELS):
        raise ValueError(f"expected a 5x5 matrix (E0-E4 x E0-E4), got shape {m.shape}")
    if (m < 0).any():
        raise ValueError("counts must be non-negative")
    n = float(m.sum())
    if n == 0:
        raise ValueError("the matrix is empty")
    i, j = np.indices(m.shape)
    rows, cols = m.sum(axis=1) / n, m.sum(axis=0) / n
    expected = np.outer(rows, cols)
    po = float(np.trace(m)) / n
    pe = float(np.trace(expected))
    kappa = (po - pe) / (1.0 - pe) if pe < 1.0 else float("nan")
    w = (i - j) ** 2 / float((LEVELS - 1) ** 2)
    denom = float((w * expected).sum())
    weighted = 1.0 - float((w * m).sum()) / (n * denom) if denom > 0 else float("nan")
    ref_e0, judge_e0 = i == 0, j == 0
    ref_kgr, judge_kgr = i >= 3, j >= 3
    return {
        "n": int(n),
        "exact": 100.0 * po,
        "kappa": kappa,
        "weighted_kappa": weighted,
        "within_one": 100.0 * float(m[np.abs(i - j) <= 1].sum()) / n,
        "e0_agreement": 100.0 * float(m[ref_e0 == judge_e0].sum()) / n,
        "kgr_agreement": 100.0 * float(m[ref_kgr == judge_kgr].sum()) / n,
        "judge_above": int(m[j > i].sum()),
        "judge_below": int(m[j < i].sum()),
    }


def by_level(matrix: Sequence[Sequence[float]] | np.ndarray) -> list[dict[str, Any]]:
    """Table 4's right-hand columns: per reference level, ``n``, exact % and within-one %."""
    m = np.asarray(matrix, dtype=float)
    out = []
    for lvl in range(LEVELS):
        row = m[lvl]
        n = float(row.sum())
        near = float(row[max(0, lvl - 1) : lvl + 2].sum())
        out.append(
            {
                "level": lvl,
                "n": int(n),
                "exact": 100.0 * float(row[lvl]) / n if n else float("nan"),
                "within_one": 100.0 * near / n if n else float("nan"),
            }
        )
    return out
