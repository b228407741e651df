"""Paired tests of seed 000: the exact McNemar test (Tables 3, 9, 11, 12 and 19).

The paper compares two conditions on the same items (Full against Crop+Caption, Full against
Mirror, ...) with the exact McNemar test: a two-sided binomial test on the discordant pairs.
With ``b`` items positive only under the first arm and ``c`` only under the second,

    p = min(1, 2 * P[X <= min(b, c)]),   X ~ Binomial(b + c, 1/2),

and ``p = 1`` when there is no discordant pair. This reproduces every p-value the paper prints
with its inputs (Table 9 "only Full / only Crop", Table 19 "b / c").

Epochs: a run asked more than once (``run --epochs N``) pairs epoch 1's answers here, as every
stage that scores does (the store's current tasks are epoch 1's); the later epochs enter only
the spread rows of :mod:`forgebench.results.epochs`, never a paired test.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class McNemarResult:
    """An exact McNemar test on paired binary outcomes."""

    b: int
    """Pairs positive under the first arm only."""
    c: int
    """Pairs positive under the second arm only."""
    n: int
    """Pairs compared (items present in both arms)."""
    p: float
    """Exact two-sided p-value (1.0 when ``b + c == 0``)."""


def mcnemar_exact(b: int, c: int) -> float:
    """Exact two-sided McNemar p-value for ``b`` and ``c`` discordant pairs.

    ``min(1, 2 * P[X <= min(b, c)])`` with ``X ~ Bin(b + c, 0.5)``; ``b = c = 0`` gives 1.0.
    Negative counts are a caller's bug and raise ``ValueError``.
    """
    b, c = int(b), int(c)
    if b < 0 or c < 0:
        raise ValueError(f"discordant counts must be non-negative, got b={b}, c={c}")
    n = b + c
    if n == 0:
        return 1.0
    return float(min(1.0, 2.0 * _binom_cdf()(float(min(b, c)), float(n), 0.5)))


@functools.cache
def _binom_cdf() -> Callable[[float, float, float], float]:
    """``scipy.stats.binom.cdf`` as ``f(k, n, p)``, imported on first use.

    SciPy's ``binom`` evaluates its CDF with the ufunc ``scipy.special._ufuncs._binom_cdf`` (Boost's
    binomial CDF, in SciPy 1.17's ``scipy/stats/_discrete_distns.py``), so this takes the ufunc
    where SciPy has it: the same float, bit for bit (``tests/analysis/test_stats.py`` compares
    both), for ``scipy.special`` alone, 0.4 CPU-s to import, where ``scipy.stats`` takes 1.2
    (``forgebench metrics`` needs nothing else of it). A SciPy without the ufunc gets
    ``binom.cdf`` itself.
    """
    import scipy.special._ufuncs as ufuncs

    direct = getattr(ufuncs, "_binom_cdf", None)
    if direct is not None:
        return cast("Callable[[float, float, float], float]", direct)
    from scipy.stats import binom

    return cast("Callable[[float, float, float], float]", binom.cdf)


def as_bool(series: pd.Series) -> np.ndarray:
    """Outcome column as booleans; missing values count as negative (strict scoring)."""
    return series.astype("boolean").fillna(False).to_numpy(dtype=bool)


def paired_mcnemar(
    frame_a: pd.DataFrame,
    frame_b: pd.DataFrame,
    on: str = "item_id",
    outcome: str = "correct",
) -> McNemarResult:
    """McNemar test between two arms of row-level answers, paired on ``on``.

    Each frame holds one row per item (e.g. one model's L1 answers under ``full`` and under
    ``crop_caption``). Items present in only one arm are left out (the paper pairs items). A
    missing outcome (a miss) counts as negative, matching the strict scoring of the tables.
    ``b`` counts items positive only in ``frame_a``, ``c`` those positive only in ``frame_b``.
    """
    for name, frame in (("frame_a", frame_a), ("frame_b", frame_b)):
        missing = [col for col in (on, outcome) if col not in frame.columns]
        if missing:
            raise KeyError(f"{name} lacks column(s) {', '.join(missing)}")
    return paired_arrays(
        frame_a[on].to_numpy(), as_bool(frame_a[outcome]),
        frame_b[on].to_numpy(), as_bool(frame_b[outcome]),
    )  # fmt: skip


def paired_arrays(
    keys_a: np.ndarray, x_a: np.ndarray, keys_b: np.ndarray, x_b: np.ndarray
) -> McNemarResult:
    """:func:`paired_mcnemar` on arrays: item keys and boolean outcomes of each arm, each
    item's first row in either arm, paired by item (items in one arm only are left out)."""
    index_a, index_b = pd.Index(keys_a), pd.Index(keys_b)
    first_a, first_b = ~index_a.duplicated(), ~index_b.duplicated()
    where = index_b[first_b].get_indexer(index_a[first_a])
    paired = where >= 0
    x = np.asarray(x_a, dtype=bool)[first_a][paired]
    y = np.asarray(x_b, dtype=bool)[first_b][where[paired]]
    b = int(np.count_nonzero(x & ~y))
    c = int(np.count_nonzero(~x & y))
    return McNemarResult(b=b, c=c, n=int(paired.sum()), p=mcnemar_exact(b, c))


def format_p(p: float | None) -> str:
    """A p-value as the paper prints it: four decimals (6.1e-5 prints ``0.0001``), ``< 0.0001``
    when it rounds to zero, ``1.00`` when it rounds to one, ``—`` when missing."""
    if p is None or not np.isfinite(p):
        return "—"
    if p < 0.00005:
        return "< 0.0001"
    if p >= 0.99995:
        return "1.00"
    return f"{p:.4f}"
