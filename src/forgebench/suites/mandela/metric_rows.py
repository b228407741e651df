"""The row makers of Mandela's metrics (:mod:`.metrics`): per-answer 0/1 indicators, and rates
grouped by model, probe, condition and subset, written as metrics.csv rows (``value`` a
percentage, ``n`` its denominator; a group with ``n = 0`` writes no row)."""

from __future__ import annotations

import numpy as np
import pandas as pd

KEYS = ["model", "probe", "condition"]


def indicators(f: pd.DataFrame) -> pd.DataFrame:
    """Numeric 0/1 columns the aggregations sum."""
    forged = (f["label"] == "forged").to_numpy()
    auth = (f["label"] == "authentic").to_numpy()
    verdict = f["verdict"].to_numpy()
    fake, real = verdict == "FAKE", verdict == "REAL"
    level = f["level"].to_numpy(dtype="float64", na_value=np.nan)
    graded_status = f["grade_status"].to_numpy(dtype=object)
    out = pd.DataFrame(
        {
            "model": f["model"].to_numpy(),
            "probe": f["probe"].to_numpy(),
            "condition": f["condition"].to_numpy(),
            "item_id": f["item_id"].to_numpy(),
            "n_all": 1,
            "n_f": forged.astype(int),
            "n_a": auth.astype(int),
            "det_hit": (forged & fake).astype(int),
            "auth_hit": (auth & real).astype(int),
            "real_f": (forged & real).astype(int),
            "parsed_f": (forged & (fake | real)).astype(int),
            "parsed_a": (auth & (fake | real)).astype(int),
            "miss": (verdict == "MISS").astype(int),
            "kgr_hit": (forged & (level >= 3)).astype(int),
            "e4_hit": (forged & (level == 4)).astype(int),
            "has_grade": (forged & pd.notna(graded_status)).astype(int),
            "unscored": (forged & (graded_status == "unscored")).astype(int),
            "ungraded": (forged & fake & pd.isna(graded_status)).astype(int),
            "named": f["names_erased"].to_numpy().astype(int),
            "named_real": (f["names_erased"].to_numpy() & real).astype(int),
        }
    )
    return out


def emit(
    agg: pd.DataFrame, metric: str, value: pd.Series, n: pd.Series, judge: str = ""
) -> pd.DataFrame:
    """Rows of one metric for the groups of ``agg`` with ``n > 0``."""
    keep = (n > 0).to_numpy()
    a = agg.loc[keep]
    return pd.DataFrame(
        {
            "model": a["model"],
            "probe": a["probe"],
            "condition": a["condition"],
            "subset": a["subset"],
            "metric": metric,
            "value": value[keep].astype(float),
            "n": n[keep].astype(int),
            "judge": judge,
        }
    )


def rate_rows(
    agg: pd.DataFrame, metric: str, num: pd.Series, den: pd.Series, judge: str = ""
) -> pd.DataFrame:
    """A rate: ``100 * num / den`` with ``n = den``."""
    return emit(agg, metric, 100.0 * num / den.where(den > 0), den, judge)


def graded_groups(ind: pd.DataFrame) -> set[tuple[str, str, str]]:
    """(model, probe, condition) groups the judge graded: every subset of them gets kgr/e4."""
    g = ind.groupby(KEYS, sort=False)["has_grade"].sum()
    return {(str(k[0]), str(k[1]), str(k[2])) for k in g.index[g.to_numpy() > 0]}


def group_sums(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """The indicator sums per (model, probe, condition, subset) of the parts stacked, groups in
    the order they first appear. Summed part by part when no subset label is in two parts (the
    same groups in the same order, without copying every part into one long frame)."""
    parts = [p for p in parts if not p.empty]
    labels = [set(p["subset"].unique()) for p in parts]
    if sum(map(len, labels)) != len(set().union(*labels)):  # a label shared: one grouping
        parts = [pd.concat(parts, ignore_index=True)]
    sums = [
        p.groupby([*KEYS, "subset"], sort=False, observed=True).sum(numeric_only=True)
        for p in parts
    ]
    return pd.concat(sums).reset_index() if len(sums) > 1 else sums[0].reset_index()


def base_rows(
    long: pd.DataFrame | list[pd.DataFrame],
    judge: str | None,
    graded_keys: set[tuple[str, str, str]] | None = None,
) -> list[pd.DataFrame]:
    """det/auth/bal/miss (+ parsed), kgr/e4, named, real on a long frame with a ``subset``
    column (or its parts, :func:`group_sums`).

    kgr/e4 are written for every subset of a (model, probe, condition) the judge graded
    (``graded_keys``; default: the subsets holding a grade), so a subset whose only forged item
    is ungraded still has them (ungraded = not E3+)."""
    parts = long if isinstance(long, list) else [long]
    if all(p.empty for p in parts):
        return []
    if graded_keys is None and judge:
        graded_keys = graded_groups(pd.concat(parts, ignore_index=True))
    agg = group_sums(parts)
    out = [
        rate_rows(agg, "det", agg["det_hit"], agg["n_f"]),
        rate_rows(agg, "auth", agg["auth_hit"], agg["n_a"]),
        rate_rows(agg, "miss", agg["miss"], agg["n_all"]),
        rate_rows(agg, "det_parsed", agg["det_hit"], agg["parsed_f"]),
        rate_rows(agg, "auth_parsed", agg["auth_hit"], agg["parsed_a"]),
    ]
    for name, nf, na in (("bal", "n_f", "n_a"), ("bal_parsed", "parsed_f", "parsed_a")):
        both = (agg[nf] > 0) & (agg[na] > 0)
        bal = 50.0 * (agg["det_hit"] / agg[nf].where(both) + agg["auth_hit"] / agg[na].where(both))
        out.append(emit(agg, name, bal, (agg[nf] + agg[na]).where(both, 0)))
    if judge and graded_keys is not None:
        in_graded = pd.Series(
            [
                k in graded_keys
                for k in zip(agg["model"], agg["probe"], agg["condition"], strict=True)
            ],
            index=agg.index,
            dtype=bool,
        )
        graded = agg["n_f"].where(in_graded, 0)
        out += [
            rate_rows(agg, "kgr", agg["kgr_hit"], graded, judge),
            rate_rows(agg, "e4", agg["e4_hit"], graded, judge),
        ]
        alls = agg[agg["subset"] == "all"]
        for name in ("unscored", "ungraded"):
            out.append(emit(alls, name, alls[name], alls["n_f"], judge))
    person = agg["subset"].isin(["erase", "face_pass"])
    pa = agg.loc[person]
    out += [
        rate_rows(pa, "named", pa["named"], pa["n_all"]),
        rate_rows(pa, "named_real", pa["named_real"], pa["n_all"]),
        rate_rows(fp := pa[pa["subset"] == "face_pass"], "real", fp["real_f"], fp["n_f"]),
    ]
    return out


def with_subset(
    ind: pd.DataFrame, mask: np.ndarray | pd.Series, subset: str | pd.Series
) -> pd.DataFrame:
    part = ind.loc[np.asarray(mask, dtype=bool)]
    if isinstance(subset, pd.Series):
        return part.assign(subset=np.asarray(subset)[np.asarray(mask, dtype=bool)])
    return part.assign(subset=subset)
