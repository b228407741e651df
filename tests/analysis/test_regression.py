"""Logistic regressions of Appendix I (Table 10) and Appendix L (Table 20) on synthetic data."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from forgebench.analysis.logit import dummies, fit_logit
from forgebench.suites.mandela.regression import (
    footprint_regressions,
    recognition_data,
    recognition_regressions,
)


@pytest.fixture(scope="module")
def frame(synth):  # type: ignore[no-untyped-def]
    models = [
        synth.ModelParams("strong-effect", recog_p=0.6, recog_effect=-1.5, fake_bias=0.3),
        synth.ModelParams("no-effect", recog_p=0.6, recog_effect=0.0, fake_bias=0.3),
        synth.ModelParams("low-recog", recog_p=0.2, recog_effect=-1.5, fake_bias=0.3),
    ]
    return synth.build_frame(models, n_seeds=260, seed=3, footprint=True)


def test_recognition_effect_is_recovered(frame: pd.DataFrame) -> None:
    results, share = recognition_regressions(frame)
    by = {(r.model, r.families): r for r in results}
    strong = by[("strong-effect", "people")].fit.get("recognized")
    assert strong is not None
    assert strong.coef < 0 and strong.p < 0.01
    lo, hi = strong.ci
    assert lo < np.exp(-1.5) < hi  # the true OR lies in the 95% CI
    none = by[("no-effect", "people")].fit.get("recognized")
    assert none is not None and none.ci[0] < 1.0 < none.ci[1]
    # class-level families carry no recognition effect in the simulation
    cls = by[("strong-effect", "class")].fit.get("recognized")
    assert cls is not None and abs(cls.coef) < 1.0
    # pooled over recognizing models only (share >= 50%)
    assert share["low-recog"] < 50 <= share["strong-effect"]
    pooled = by[("pooled", "people")].fit
    n_keep = len(recognition_data(frame).query("model != 'low-recog' and analysis_family == 'K1'"))
    assert pooled.status == "ok" and pooled.n <= n_keep
    assert "model[strong-effect]" in pooled.coefs or "model[no-effect]" in pooled.coefs


def test_rates_match_the_data(frame: pd.DataFrame) -> None:
    results, _ = recognition_regressions(frame)
    r = next(r for r in results if r.model == "no-effect" and r.families == "people")
    data = recognition_data(frame).query("model == 'no-effect' and analysis_family == 'K1'")
    assert r.recognized_n == int(data["recognized"].sum())
    assert r.recognized_rate == pytest.approx(
        100 * data.loc[data["recognized"] == 1, "detected"].mean()
    )


def test_separated_and_empty_cells_are_reported_not_raised(frame: pd.DataFrame) -> None:
    f = frame.copy()
    # model "no-effect": every recognized people-family forgery detected -> separation
    rec = f[(f["probe"] == "RECOG") & (f["condition"] == "full")]
    recognized = set(
        rec.loc[(rec["model"] == "no-effect") & (rec["verdict"] == "RECOGNISED"), "item_id"]
    )
    sel = (
        (f["model"] == "no-effect")
        & (f["probe"] == "L1")
        & (f["condition"] == "full")
        & f["item_id"].isin(recognized)
    )
    f.loc[sel, "correct"] = True
    # model "low-recog": recognizes nothing -> empty
    f.loc[(f["model"] == "low-recog") & (f["probe"] == "RECOG"), "verdict"] = "NOT_RECOGNISED"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing may leak as a warning either
        results, _ = recognition_regressions(f)
    by = {(r.model, r.families): r for r in results}
    assert by[("no-effect", "people")].fit.status == "separated"
    assert by[("no-effect", "people")].fit.get("recognized") is None
    assert by[("low-recog", "people")].fit.status == "empty"
    assert by[("strong-effect", "people")].fit.status == "ok"


def test_complete_separation_in_a_direct_fit() -> None:
    rng = np.random.default_rng(0)
    x = rng.integers(0, 2, 200)
    data = pd.DataFrame({"y": x, "x": x.astype(float), "g": rng.integers(0, 40, 200)})
    X = pd.DataFrame({"const": 1.0, "x": data["x"]})
    fit = fit_logit(data["y"], X, data["g"], focus="x")
    assert fit.status == "separated"
    assert fit.coefs == {}


def test_constant_focus_is_empty() -> None:
    data = pd.DataFrame({"y": [0, 1, 0, 1], "x": [1.0] * 4, "g": [1, 2, 3, 4]})
    fit = fit_logit(data["y"], pd.DataFrame({"const": 1.0, "x": data["x"]}), data["g"], focus="x")
    assert fit.status == "empty"


def test_dummies_omit_the_most_common_level() -> None:
    d = dummies(pd.DataFrame({"s": ["C1", "C3", "C3", "C2"]}), "s")
    assert list(d.columns) == ["s[C1]", "s[C2]"]


def test_footprint_regression(frame: pd.DataFrame) -> None:
    results = footprint_regressions(frame)
    assert {r.model for r in results} == {"strong-effect", "no-effect", "low-recog"}
    for r in results:
        assert r.full_recorded is not None and r.full_measured is not None
        if r.base.status == "ok":
            swap = r.base.get("variant[swap]")
            assert swap is not None and swap.coef > 0  # swaps are detected more than K0 edits
            base, full, shrink = r.swap_coefs() or (0.0, 0.0, 0.0)
            assert shrink == pytest.approx(100 * (base - full) / base)
        if r.full_recorded.status == "ok":
            assert "log_footprint" in r.full_recorded.coefs
            assert {"npr_score", "ufd_score"} <= set(r.full_recorded.coefs)


def test_footprint_needs_data(frame: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match="no footprint data"):
        footprint_regressions(frame.drop(columns=["footprint"]))
