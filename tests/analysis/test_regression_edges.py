"""Appendix I and L regressions when a cell's outcome never varies (Stata's rule: drop the rows
and the term), checked against statsmodels fits of the reduced data written out here."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import pytest

from forgebench.suites.mandela.regression import _recognition_fit, footprint_regressions

if TYPE_CHECKING:
    import statsmodels.api as sm


def _clustered(
    y: np.ndarray, X: pd.DataFrame, groups: pd.Series
) -> sm.regression.linear_model.RegressionResults:
    import statsmodels.api as sm  # here, not in every worker's collection (1.2 s)

    return sm.Logit(y, X.astype(float)).fit(
        method="newton", disp=False, cov_type="cluster",
        cov_kwds={"groups": pd.factorize(groups)[0]},
    )  # fmt: skip


def _recognition_data(seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    n = 240
    sal = np.where(rng.random(n) < 0.65, "C1", "C2")
    rec = (rng.random(n) < 0.5).astype(int)
    p = 1 / (1 + np.exp(-(0.3 - 0.8 * rec + 0.4 * (sal == "C2"))))
    det = (rng.random(n) < p).astype(int)
    det[(sal == "C2") & (rec == 1)] = 1  # recognized x C2: always detected
    return pd.DataFrame({
        "detected": det, "recognized": rec, "saliency": sal, "family": "K1",
        "domain": "A1", "seed_id": [f"s{i // 2}" for i in range(n)],
    })  # fmt: skip


def test_constant_interaction_cell_drops_its_rows_and_term() -> None:
    data = _recognition_data()
    fit = _recognition_fit(data, [])
    assert fit.status == "ok"
    assert any("saliency=C2, recognized=1" in n for n in fit.notes)
    assert not any(t.startswith("recognized:") for t in fit.coefs)
    # independent: the specification on the data without the constant cell
    keep = ~((data["saliency"] == "C2") & (data["recognized"] == 1))
    d = data[keep]
    X = pd.DataFrame({"const": 1.0, "recognized": d["recognized"],
                      "saliency[C2]": (d["saliency"] == "C2").astype(float)})  # fmt: skip
    want = _clustered(d["detected"].to_numpy(), X, d["seed_id"])
    got = fit.get("recognized")
    assert got is not None and fit.n == int(keep.sum())
    assert got.coef == pytest.approx(want.params.iloc[1], rel=1e-8)
    assert got.se == pytest.approx(want.bse.iloc[1], rel=1e-6)
    # the old rule (keep the rows, drop only the term) folds the cell into the main effect
    X_old = pd.DataFrame({"const": 1.0, "recognized": data["recognized"],
                          "saliency[C2]": (data["saliency"] == "C2").astype(float)})  # fmt: skip
    old = _clustered(data["detected"].to_numpy(), X_old, data["seed_id"])
    assert abs(old.params.iloc[1] - got.coef) > 0.05


def _footprint_frame(seed: int = 1) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for s in range(120):
        dom = "A1" if s % 2 else "A5"
        fp = float(rng.uniform(0.001, 0.05))
        for variant, base in (("erase", -0.5), ("swap", 1.0), ("k0", None)):
            det = 0 if base is None else int(rng.random() < 1 / (1 + np.exp(-base)))
            rows.append({
                "model": "m", "item_id": f"{variant}{s}", "probe": "L0", "condition": "full",
                "variant": variant, "domain": dom, "seed_id": f"s{s}", "correct": bool(det),
                "footprint": fp * (2 if variant == "swap" else 1),
                "footprint_measured": fp * 1.5, "npr_score": float(rng.normal()),
                "ufd_score": float(rng.normal()), "label": "forged",
            })  # fmt: skip
    return pd.DataFrame(rows)


def test_k0_never_detected_still_reports_the_swap_erase_contrast() -> None:
    frame = _footprint_frame()
    (r,) = footprint_regressions(frame)
    assert r.reference == "erase" and r.swap_coefs() is None  # swap vs K0: not identified
    assert r.full_recorded is not None and r.full_recorded.status == "ok"
    got = r.contrast()
    assert got is not None
    # independent: a fit without the K0 rows, erase the reference
    d = frame[frame["variant"] != "k0"].reset_index(drop=True)
    X = pd.DataFrame({"const": 1.0, "variant[swap]": (d["variant"] == "swap").astype(float),
                      "domain[A1]": (d["domain"] == "A1").astype(float)})  # fmt: skip
    X["log_footprint"] = np.log(np.maximum(d["footprint"], 1e-4))
    for c in ("npr_score", "ufd_score"):
        X[c] = (d[c] - d[c].mean()) / d[c].std(ddof=0)
    want = _clustered(d["correct"].astype(int).to_numpy(), X, d["seed_id"])
    assert got[0] == pytest.approx(want.params.iloc[1], rel=1e-8)
    assert got[1] == pytest.approx(want.pvalues.iloc[1], rel=1e-6)
    assert got[1] < 0.05


def test_table_20_reports_the_contrast_and_says_why_swap_vs_k0_is_missing() -> None:
    from forgebench.suites.mandela.tables.inputs import Metrics, TableData, prepare
    from forgebench.suites.mandela.tables.stats import Statistics, table_footprint

    frame = _footprint_frame()
    results = footprint_regressions(frame)
    rows = [
        ("mandela", "m", "L0", "full", "erase", "named", 60.0, 120, ""),
        ("mandela", "m", "L0", "full", "swap", "det", 70.0, 120, ""),
    ]
    cols = ["benchmark", "model", "probe", "condition", "subset", "metric", "value", "n", "judge"]
    data = prepare(TableData(metrics=Metrics(pd.DataFrame(rows, columns=cols)), groups={}))
    table = table_footprint(data, Statistics(footprint=results))
    row = table.rows[0]
    contrast = results[0].contrast()
    assert contrast is not None and row[2].raw == pytest.approx(contrast[0])
    assert [c.raw for c in row[-3:]] == ["K0 never detected: not identified"] * 3
    assert any("K0 never detected" in n for n in table.notes)
