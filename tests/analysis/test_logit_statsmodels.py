"""``fit_logit`` takes statsmodels' Newton steps and cluster-robust covariance itself (without
importing SciPy's statistics); on every design below it must give what statsmodels'
``Logit(...).fit(method="newton", maxiter=100, cov_type="cluster")`` gives: the same status, and
the same coefficients, standard errors, p-values and covariance to a relative 1e-12."""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

from forgebench.analysis.logit import Coef, LogitFit, _full_rank, fit_logit


def statsmodels_fit(y: pd.Series, X: pd.DataFrame, groups: pd.Series, focus: str) -> LogitFit:
    """The independent reference: the same rank check, then statsmodels decides (the status
    rules of ``fit_logit``'s docstring applied to statsmodels' own results and warnings)."""
    from scipy.stats import norm  # here, not in every worker's collection (1.3 s with statsmodels)
    from statsmodels.discrete.discrete_model import Logit

    n, clusters = len(y), int(groups.nunique())
    yv = y.to_numpy(dtype=float)
    X, _ = _full_rank(X, ["const", focus])
    if focus not in X.columns:
        return LogitFit("empty", n, clusters)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            res = Logit(yv, X.to_numpy(dtype=float)).fit(
                method="newton", maxiter=100, disp=False, cov_type="cluster",
                cov_kwds={"groups": pd.factorize(groups)[0]},
            )  # fmt: skip
        except np.linalg.LinAlgError:
            return LogitFit("singular", n, clusters)
    if any("separation" in str(w.message).lower() for w in caught):
        return LogitFit("separated", n, clusters)
    if not res.mle_retvals["converged"]:
        return LogitFit("separated", n, clusters)
    params, cov = np.asarray(res.params), np.asarray(res.cov_params())
    if not np.all(np.isfinite(cov)):
        return LogitFit("singular", n, clusters)
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    i = list(X.columns).index(focus)
    if abs(params[i]) > 15 or se[i] > 100 or not np.isfinite(se[i]) or se[i] == 0:
        return LogitFit("separated", n, clusters)
    p = 2.0 * norm.sf(np.abs(params / se))
    coefs = {
        c: Coef(c, float(params[k]), float(se[k]), float(p[k])) for k, c in enumerate(X.columns)
    }
    return LogitFit("ok", n, clusters, coefs, pd.DataFrame(cov, X.columns, X.columns))


def design(seed: int) -> tuple[pd.Series, pd.DataFrame, pd.Series]:
    """A recognition-style design: a binary focus, a three-level factor, a continuous term,
    clusters of one to four rows; sizes, effects and balance vary with the seed so that some
    fits separate (a level or the focus predicts the outcome) and some barely vary."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(12, 400))
    focus = (rng.random(n) < rng.uniform(0.05, 0.95)).astype(float)
    level = rng.choice(["a", "b", "c"], n, p=rng.dirichlet([2, 2, 2]))
    x = rng.normal(0, rng.uniform(0.1, 3), n)
    effect = rng.normal(0, 2.5, 4)
    eta = effect[0] + effect[1] * focus + effect[2] * (level == "b") + effect[3] * x
    y = (rng.random(n) < 1 / (1 + np.exp(-eta))).astype(int)
    if seed % 7 == 0:
        y[focus == 1] = 1  # the focus predicts detection: quasi-separation
    if seed % 11 == 0:
        y = (x > 0).astype(int)  # complete separation on the continuous term
    groups = pd.Series(np.repeat(np.arange(n), rng.integers(1, 5, n))[:n]).astype(str)
    X = pd.DataFrame({"const": 1.0, "focus": focus, "x": x})
    X["level[b]"] = (level == "b").astype(float)
    X["level[c]"] = (level == "c").astype(float)
    if seed % 13 == 0:
        X["copy"] = 2.0 * X["x"]  # collinear: dropped by the rank check
    return pd.Series(y), X, groups


def _same(ours: LogitFit, ref: LogitFit, rel: float = 1e-12) -> None:
    assert (ours.status, ours.n, ours.clusters) == (ref.status, ref.n, ref.clusters)
    assert list(ours.coefs) == list(ref.coefs)
    for term, c in ref.coefs.items():
        got = ours.coefs[term]
        for a, b in ((got.coef, c.coef), (got.se, c.se), (got.p, c.p)):
            assert a == pytest.approx(b, rel=rel, abs=1e-300), term
    if ref.cov is not None:
        assert ours.cov is not None
        np.testing.assert_allclose(ours.cov.to_numpy(), ref.cov.to_numpy(), rtol=rel, atol=0)


def test_random_designs_fit_as_statsmodels_fits_them() -> None:
    reasons = []
    for seed in range(80):
        y, X, groups = design(seed)
        ours = fit_logit(y, X, groups, "focus")
        _same(ours, statsmodels_fit(y, X, groups, "focus"))
        reasons.append(ours.notes[-1] if ours.status != "ok" else "ok")
    # the designs reach every way a fit ends: estimated, Newton never settling (quasi-
    # separation), a step predicting every outcome, a Hessian that cannot be inverted
    assert reasons.count("ok") >= 40
    for why in ("Newton did not converge", "perfect separation", "singular fit"):
        assert sum(why in r for r in reasons) >= 3, why


def test_contrasts_use_the_clustered_covariance_as_statsmodels_reports_it() -> None:
    y, X, groups = design(3)
    ours = fit_logit(y, X, groups, "focus")
    ref = statsmodels_fit(y, X, groups, "focus")
    assert ours.status == "ok"
    got, want = ours.contrast("level[b]", "level[c]"), ref.contrast("level[b]", "level[c]")
    assert got is not None and want is not None
    assert (got.coef, got.se, got.p) == pytest.approx((want.coef, want.se, want.p), rel=1e-12)


def test_a_focal_coefficient_far_out_is_reported_not_used() -> None:
    # nearly separated on a tiny scale: the estimate is finite but beyond 15 log-odds
    rng = np.random.default_rng(5)
    n = 60
    x = rng.normal(0, 1, n)
    y = pd.Series((x + rng.normal(0, 0.05, n) > 0).astype(int))
    y.iloc[0] = 1 - y.iloc[0]  # not quite separated: the MLE is finite but far out
    X = pd.DataFrame({"const": 1.0, "focus": x * 1e-3})
    groups = pd.Series(range(n))
    ours, ref = fit_logit(y, X, groups, "focus"), statsmodels_fit(y, X, groups, "focus")
    assert ours.status == ref.status == "separated"
    assert ours.notes == ["focus coefficient not identified"] and ours.coefs == {}


def test_nothing_leaks_as_a_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for seed in (0, 7, 11, 22):
            y, X, groups = design(seed)
            fit_logit(y, X, groups, "focus")


def test_a_fit_loads_neither_statsmodels_nor_scipy_statistics() -> None:
    """What the fits are written here for: ``tables`` on a run with regressions does not pay
    the 2.3 CPU-s of importing them."""
    probe = (
        "import sys, numpy as np, pandas as pd\n"
        "from forgebench.analysis.logit import fit_logit\n"
        "x = np.tile([0.0, 1.0, 1.0, 0.0], 10); y = pd.Series(np.tile([0, 1, 0, 1], 10))\n"
        "fit = fit_logit(y, pd.DataFrame({'const': 1.0, 'x': x}), pd.Series(range(40)), 'x')\n"
        "assert fit.status == 'ok', fit\n"
        "print(sorted(m for m in sys.modules if m.startswith(('statsmodels', 'scipy.stats'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
