"""The exact McNemar tests behind seed 000's Tables 3, 9, 11, 12 and 19, machine-readable.

``RUN/paired_tests.csv`` sits beside ``metrics.csv``, one row per test::

    benchmark,model,probe,condition,subset,metric,baseline_condition,b,c,n,p,judge

``condition`` is the treated arm (as in metrics.csv), ``baseline_condition`` the arm it is
compared with; ``b`` counts the items positive under the baseline only, ``c`` those positive under
the treated arm only, ``n`` the paired items, ``p`` the exact two-sided p-value
(:mod:`forgebench.analysis.stats`). Misses count as negative (strict scoring), as in the tables.

=====  =====  ======================================  =====================  ==========
Table  probe  condition (treated) vs baseline          subset                 metric
=====  =====  ======================================  =====================  ==========
3      L1     full_caption, crop, crop_caption vs full peripheral_K1 forgeries det
9      L2     crop vs full                             peripheral_K1 forgeries l2_names
                                                       with principal figures
11     L1     full_caption, full_wrong_caption vs full peripheral_K1 forgeries det
12     L1     full_caption, crop_caption vs full       peripheral_<family>     det
19     L1     crop vs mirror                           peripheral forgeries    det
=====  =====  ======================================  =====================  ==========

Table 9's test counts what its ``l2_names`` metric counts: an answer naming at least one
principal figure of the scene (``names_principal``), on the ``peripheral_K1`` forgeries whose
scene has principal figures, a miss counting as not naming (strict), paired over the items asked
under both conditions (:func:`identity_arms`, which Table 9 uses too).

Table 12's subsets are the peripheral forgeries of one family (``peripheral_K2`` ...; its K1 row
is Table 3's ``peripheral_K1`` tests); Table 3's and Table 11's full_caption tests are the same
test and appear once. No test uses a grade, so
``judge`` is empty.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from forgebench.analysis.stats import paired_mcnemar
from forgebench.results.metrics_csv import format_cell
from forgebench.util.atomic import atomic_path

FILENAME = "paired_tests.csv"
COLUMNS: tuple[str, ...] = (
    "benchmark", "model", "probe", "condition", "subset", "metric", "baseline_condition",
    "b", "c", "n", "p", "judge",
)  # fmt: skip
_L1_PEOPLE = ("full_caption", "crop", "crop_caption", "full_wrong_caption")
_FAMILY_ARMS = ("full_caption", "crop_caption")


def _flag(df: pd.DataFrame, col: str) -> pd.Series:
    if col not in df.columns:
        return pd.Series(False, index=df.index)
    return df[col].astype("boolean").fillna(False).astype(bool)


def identity_arms(full: pd.DataFrame, crop: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Table 9's two arms (L2 under ``full`` and ``crop``): the ``peripheral_K1`` forgeries with
    principal figures asked under both, each with ``named`` = the answer names a principal
    figure (a miss: False), as the ``l2_names`` metric counts it."""

    def arm(df: pd.DataFrame) -> pd.DataFrame:
        sub = df[_flag(df, "peripheral_k1") & _flag(df, "has_principal")]
        return sub.assign(named=_flag(sub, "names_principal"))

    a, b = arm(full), arm(crop)
    both = set(a["item_id"]) & set(b["item_id"])
    return a[a["item_id"].isin(both)], b[b["item_id"].isin(both)]


class _Arms:
    """One model's answers by (probe, condition), restricted to a population flag."""

    def __init__(self, arms: dict[tuple[str, str], pd.DataFrame], empty: pd.DataFrame) -> None:
        self.arms, self.empty = arms, empty

    def __call__(self, probe: str, cond: str, population: str) -> pd.DataFrame:
        g = self.arms.get((probe, cond))
        return self.empty if g is None else g[_flag(g, population)]


def _row(
    model: str, probe: str, cond: str, subset: str, metric: str, base: str, res: Any
) -> dict[str, Any]:
    return {
        "benchmark": "mandela", "model": model, "probe": probe, "condition": cond,
        "subset": subset, "metric": metric, "baseline_condition": base, "b": res.b,
        "c": res.c, "n": res.n, "p": res.p, "judge": "",
    }  # fmt: skip


def paired_tests(frame: pd.DataFrame) -> pd.DataFrame:
    """Every test of the module docstring that the frame's answers allow."""
    rows: list[dict[str, Any]] = []
    forged = frame[frame["label"] == "forged"]
    for model, mf in forged.groupby("model", sort=True, observed=True):
        m = str(model)
        arms = {
            (str(p), str(c)): g for (p, c), g in mf.groupby(["probe", "condition"], observed=True)
        }
        arm = _Arms(arms, mf.iloc[0:0])

        full = arm("L1", "full", "peripheral_k1")
        for cond in _L1_PEOPLE:
            treated = arm("L1", cond, "peripheral_k1")
            if len(full) and len(treated):
                res = paired_mcnemar(full, treated)
                rows.append(_row(m, "L1", cond, "peripheral_K1", "det", "full", res))
        a, b = identity_arms(arm("L2", "full", "peripheral_k1"), arm("L2", "crop", "peripheral_k1"))
        if len(a):
            res = paired_mcnemar(a, b, outcome="named")
            rows.append(_row(m, "L2", "crop", "peripheral_K1", "l2_names", "full", res))
        pfull = arm("L1", "full", "peripheral")
        for fam in sorted(set(pfull["family"].dropna().astype(str)) - {"K0", "K1"}):
            base = pfull[pfull["family"].astype(str) == fam]
            for cond in _FAMILY_ARMS:
                t = arm("L1", cond, "peripheral")
                t = t[t["family"].astype(str) == fam]
                if len(t):
                    res = paired_mcnemar(base, t)
                    rows.append(_row(m, "L1", cond, f"peripheral_{fam}", "det", "full", res))
        mirror, crop = arm("L1", "mirror", "peripheral"), arm("L1", "crop", "peripheral")
        if len(mirror) and len(crop):
            res = paired_mcnemar(mirror, crop)
            rows.append(_row(m, "L1", "crop", "peripheral", "det", "mirror", res))
    return pd.DataFrame(rows, columns=list(COLUMNS))


def write_paired_tests(run_dir: str | Path, frame: pd.DataFrame) -> Path:
    """Write ``RUN/paired_tests.csv`` (atomically; header only when no test applies)."""
    path = Path(run_dir) / FILENAME
    table = paired_tests(frame)
    table["p"] = [format_cell(v) for v in table["p"]]
    with atomic_path(path) as tmp:
        table.to_csv(tmp, index=False)
    return path
