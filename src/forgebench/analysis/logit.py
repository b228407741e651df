"""Cluster-robust logistic regression that reports separation instead of crashing.

Seed 000's regressions (Appendix I, Table 10; Appendix L, Table 20) are fitted per model on a few
hundred items, so cells with no variation are common: a domain where every forgery is missed, a
model that recognizes no image. The paper prints "—" for separated or empty cells; this module
returns a :class:`LogitFit` whose ``status`` says which case applies.

Epochs: the regressions are fitted on epoch 1's answers of a run asked more than once (``run
--epochs N``): the rows they read are the store's current tasks, epoch 1's; the later epochs
enter only the spread rows of :mod:`forgebench.results.epochs`.

Procedure (choices the paper leaves open are written here):

1. Observations in a level of a fixed effect whose outcome is constant are dropped, as Stata's
   ``logit`` does ("predicts failure perfectly"); the note names them.
2. Terms that are all zero or linearly dependent on earlier terms are dropped (QR rank check).
3. The model is fitted by maximum likelihood with Newton's method, with standard errors
   clustered on ``groups``, as statsmodels' ``Logit(y, X).fit(method="newton", maxiter=100,
   cov_type="cluster")`` does (statsmodels 0.14: ``base/optimizer.py`` ``_fit_newton``,
   ``discrete/discrete_model.py`` ``Logit``, ``stats/sandwich_covariance.py`` ``cov_cluster``),
   step for step (:func:`_newton`, :func:`_cluster_cov`): SciPy's statistics, which statsmodels
   imports, cost 2.3 CPU-s per process, more than all of Table 10's fits. The tests compare both
   on random, separated and collinear data.
4. The status is ``separated`` when a step predicts every outcome (statsmodels' perfect-
   separation check), the fit does not converge, or the focal coefficient is beyond +-15
   log-odds or its standard error beyond 100; ``singular`` when the Hessian cannot be inverted
   or the covariance is not finite; ``empty`` when no data or no variation is left.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import pandas as pd

Status = Literal["ok", "separated", "empty", "singular"]

MAX_ABS_COEF = 15.0
"""A focal log-odds coefficient beyond this is taken as separation (OR > 3e6)."""
MAX_SE = 100.0
"""A focal standard error beyond this is taken as separation."""


@dataclass(frozen=True)
class Coef:
    """One coefficient of a fitted logit, with its cluster-robust inference."""

    term: str
    """Term name."""
    coef: float
    """Log-odds coefficient."""
    se: float
    """Cluster-robust standard error."""
    p: float
    """Two-sided Wald p-value."""

    @property
    def odds_ratio(self) -> float:
        """``exp(coef)``."""
        return float(np.exp(self.coef))

    @property
    def ci(self) -> tuple[float, float]:
        """95% Wald interval of the odds ratio."""
        return float(np.exp(self.coef - 1.959964 * self.se)), float(
            np.exp(self.coef + 1.959964 * self.se)
        )


@dataclass
class LogitFit:
    """The outcome of one regression: coefficients when ``status == "ok"``, else the reason."""

    status: Status
    """``ok``, ``separated``, ``empty`` or ``singular``."""
    n: int
    """Observations used."""
    clusters: int
    """Distinct clusters among them."""
    coefs: dict[str, Coef] = field(default_factory=dict)
    """Every estimated coefficient by term (empty unless ``ok``)."""
    cov: pd.DataFrame | None = None
    """Cluster-robust covariance of the coefficients (``None`` unless ``ok``)."""
    notes: list[str] = field(default_factory=list)
    """What was dropped and why, and the reason for a non-``ok`` status."""

    def get(self, term: str) -> Coef | None:
        """The coefficient of ``term`` when the fit is usable, else ``None``."""
        return self.coefs.get(term) if self.status == "ok" else None

    def contrast(self, plus: str, minus: str) -> Coef | None:
        """Wald test of ``coef[plus] - coef[minus]`` with the clustered covariance."""
        if (
            self.status != "ok"
            or self.cov is None
            or plus not in self.coefs
            or minus not in self.coefs
        ):
            return None
        est = self.coefs[plus].coef - self.coefs[minus].coef
        cov = self.cov.to_numpy(dtype=float)
        i, j = list(self.cov.index).index(plus), list(self.cov.index).index(minus)
        var = float(cov[i, i] + cov[j, j] - 2.0 * cov[i, j])
        se = float(np.sqrt(max(var, 0.0)))
        p = float(_two_sided(np.asarray(abs(est) / se))) if se > 0 else float("nan")
        return Coef(term=f"{plus} - {minus}", coef=float(est), se=se, p=p)


def _texts(values: np.ndarray) -> bool:
    """True when every value is a Python string (the levels sort and print as themselves)."""
    return all(type(v) is str for v in values)


def _constant_levels(
    y: np.ndarray, factors: list[tuple[str, np.ndarray]]
) -> tuple[np.ndarray, list[str]]:
    """:func:`drop_constant_levels` on arrays of strings: the rows kept, and the notes."""
    keep = np.ones(len(y), dtype=bool)
    notes: list[str] = []
    for _ in range(10):
        changed = False
        for fac, values in factors:
            if not keep.any():
                continue
            levels, inverse = np.unique(values[keep], return_inverse=True)  # sorted, as groupby
            ys = y[keep]
            low = np.full(len(levels), np.inf)
            high = np.full(len(levels), -np.inf)
            np.minimum.at(low, inverse, ys)
            np.maximum.at(high, inverse, ys)
            size = np.bincount(inverse, minlength=len(levels))
            const = low == high
            if const.any() and len(levels) > 1:
                for i in np.flatnonzero(const):
                    notes.append(
                        f"dropped {int(size[i])} obs. with {fac}={levels[i]} "
                        f"(outcome always {int(low[i])})"
                    )
                keep[np.flatnonzero(keep)[const[inverse]]] = False
                changed = True
        if not changed:
            break
    return keep, notes


def drop_constant_levels(
    data: pd.DataFrame, y: str, factors: list[str]
) -> tuple[pd.DataFrame, list[str]]:
    """Drop observations in factor levels whose outcome is constant (repeated until stable)."""
    arrays = [(f, data[f].to_numpy(dtype=object)) for f in factors if f in data.columns]
    outcome = data[y].to_numpy()
    if outcome.dtype.kind in "iub" and all(_texts(v) for _, v in arrays):
        keep, found = _constant_levels(outcome.astype(float), arrays)
        return (data if keep.all() else data[keep]), found
    notes: list[str] = []  # levels that are not all strings: pandas' grouping decides
    for _ in range(10):
        changed = False
        for fac in factors:
            if fac not in data.columns or data.empty:
                continue
            stats = data.groupby(fac, observed=True)[y].agg(["min", "max", "size"])
            const = stats[(stats["min"] == stats["max"])]
            if len(const) and len(stats) > 1:
                for level, row in const.iterrows():
                    notes.append(
                        f"dropped {int(row['size'])} obs. with {fac}={level} "
                        f"(outcome always {int(row['min'])})"
                    )
                data = data[~data[fac].isin(const.index)]
                changed = True
        if not changed:
            break
    return data, notes


def dummies(data: pd.DataFrame, column: str, reference: str | None = None) -> pd.DataFrame:
    """Treatment-coded indicator columns of ``column``; ``reference`` (default: most common) omitted."""
    raw = data[column].to_numpy(dtype=object)
    if not _texts(raw):  # missing or non-text values: pandas' text conversion decides
        values = data[column].astype(str)
        if reference is None:
            reference = str(values.value_counts().idxmax()) if len(values) else None
        levels = sorted(v for v in values.unique() if v != reference)
        return pd.DataFrame(
            {f"{column}[{lv}]": (values == lv).to_numpy(dtype=float) for lv in levels},
            index=data.index,
        )
    if reference is None and len(raw):
        distinct, counts = np.unique(raw, return_counts=True)
        top = np.flatnonzero(counts == counts.max())
        # a tie for the most common level is broken as pandas' value_counts orders it
        reference = str(
            distinct[top[0]] if len(top) == 1 else pd.Series(raw).value_counts().idxmax()
        )
    others = sorted(v for v in pd.unique(raw) if v != reference)
    return pd.DataFrame(
        {f"{column}[{lv}]": (raw == lv).astype(float) for lv in others}, index=data.index
    )


def _full_rank(X: pd.DataFrame, keep_first: list[str]) -> tuple[pd.DataFrame, list[str]]:
    """Drop all-zero and linearly dependent columns (later columns go first)."""
    notes: list[str] = []
    A = X.to_numpy(dtype=float)
    where = {c: j for j, c in enumerate(X.columns)}
    nonzero = [c for c in X.columns if np.any(A[:, where[c]] != 0) or c == "const"]
    for c in X.columns:
        if c not in nonzero:
            notes.append(f"dropped term {c} (no observations)")
    order = [c for c in keep_first if c in nonzero] + [c for c in nonzero if c not in keep_first]
    kept: list[str] = []
    basis = np.zeros((len(X), 0))
    for c in order:  # Gram-Schmidt: keep a column when it adds a direction to the kept ones
        col = np.ascontiguousarray(A[:, where[c]])
        norm_c = float(np.linalg.norm(col))
        resid = col - basis @ (basis.T @ col) if basis.shape[1] else col
        resid = resid - basis @ (basis.T @ resid) if basis.shape[1] else resid
        norm_r = float(np.linalg.norm(resid))
        if norm_c > 0 and norm_r > 1e-8 * norm_c:
            basis = np.hstack([basis, (resid / norm_r)[:, None]])
            kept.append(c)
        else:
            notes.append(f"dropped term {c} (collinear)")
    return X[[c for c in X.columns if c in kept]], notes


def fit_logit(
    y: pd.Series, X: pd.DataFrame, groups: pd.Series, focus: str, notes: list[str] | None = None
) -> LogitFit:
    """Fit ``y ~ X`` (X includes ``const``) with errors clustered on ``groups``.

    ``focus`` names the coefficient the caller reports; its absence after the rank check, or
    implausible size, decides the status.
    """
    notes = list(notes or [])
    n = len(y)
    n_clusters = int(groups.nunique())
    if n == 0:
        return LogitFit("empty", 0, 0, notes=[*notes, "no observations"])
    yv = y.to_numpy(dtype=float)
    if yv.min() == yv.max():
        return LogitFit("separated", n, n_clusters, notes=[*notes, f"outcome always {int(yv[0])}"])
    X, rank_notes = _full_rank(X, ["const", focus])
    notes += rank_notes
    if focus not in X.columns:
        return LogitFit("empty", n, n_clusters, notes=[*notes, f"{focus} has no variation"])
    codes = pd.factorize(groups)[0]
    A = X.to_numpy(dtype=float)
    try:
        params, converged, separated = _newton(yv, A)
        cov = _cluster_cov(yv, A, params, codes)  # as statsmodels: before the checks below
    except np.linalg.LinAlgError as exc:
        return LogitFit("singular", n, n_clusters, notes=[*notes, f"singular fit: {exc}"])
    if separated:
        return LogitFit("separated", n, n_clusters, notes=[*notes, "perfect separation detected"])
    if not converged:
        return LogitFit("separated", n, n_clusters, notes=[*notes, "Newton did not converge"])
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    if not np.all(np.isfinite(cov)):
        return LogitFit("singular", n, n_clusters, notes=[*notes, "covariance not finite"])
    i = list(X.columns).index(focus)
    if abs(params[i]) > MAX_ABS_COEF or se[i] > MAX_SE or not np.isfinite(se[i]) or se[i] == 0:
        return LogitFit(
            "separated", n, n_clusters, notes=[*notes, f"{focus} coefficient not identified"]
        )
    with np.errstate(divide="ignore", invalid="ignore"):
        pvals = _two_sided(np.abs(params / se))
    coefs = {
        c: Coef(term=c, coef=float(params[k]), se=float(se[k]), p=float(pvals[k]))
        for k, c in enumerate(X.columns)
    }
    cov_df = pd.DataFrame(cov, index=X.columns, columns=X.columns)
    return LogitFit("ok", n, n_clusters, coefs=coefs, cov=cov_df, notes=notes)


NEWTON_MAXITER = 100
NEWTON_TOL = 1e-8
"""statsmodels' default: Newton stops when no coefficient moved more than this."""
NEWTON_RIDGE = 1e-10
"""statsmodels' default: added to the diagonal of the (per-observation) Hessian at each step."""


def _probabilities(A: np.ndarray, params: np.ndarray) -> np.ndarray:
    """The logistic CDF of the linear predictor, written as statsmodels' ``Logit.cdf``."""
    with np.errstate(over="ignore"):
        return 1 / (1 + np.exp(-(np.dot(A, params) + 0.0)))


def _newton(y: np.ndarray, A: np.ndarray) -> tuple[np.ndarray, bool, bool]:
    """Maximum-likelihood logit coefficients by Newton's method as statsmodels takes its steps:
    from zero, each step solves the mean negative Hessian (plus :data:`NEWTON_RIDGE` on its
    diagonal) against the mean negative score, until no coefficient moves more than
    :data:`NEWTON_TOL` or :data:`NEWTON_MAXITER` steps were taken. Returns the coefficients,
    whether it converged (statsmodels: fewer steps than the limit) and whether any step's
    predictions matched every outcome (``np.allclose``: statsmodels' perfect-separation
    warning). A singular step raises :class:`numpy.linalg.LinAlgError`."""
    nobs = y.shape[0]
    old: np.ndarray | float = np.inf
    new = np.zeros(A.shape[1])
    separated = False
    steps = 0
    while steps < NEWTON_MAXITER and np.any(np.abs(new - old) > NEWTON_TOL):
        fitted = _probabilities(A, new)
        hess = np.dot(fitted * (1 - fitted) * A.T, A) / nobs  # minus the mean Hessian
        hess[np.diag_indices(hess.shape[0])] += NEWTON_RIDGE
        old = new
        new = old - np.linalg.solve(hess, -np.dot(y - fitted, A) / nobs)
        if np.allclose(_probabilities(A, new) - y, 0):
            separated = True
        steps += 1
    return new, steps != NEWTON_MAXITER, separated


def _cluster_cov(y: np.ndarray, A: np.ndarray, params: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """The cluster-robust covariance at ``params`` as statsmodels' ``cov_cluster`` gives it:
    ``H^-1 S H^-1'`` with ``S`` the cross-products of the per-cluster sums of the observations'
    scores, times ``G/(G-1) * (N-1)/(N-K)``. The Hessian is inverted twice, as statsmodels does
    (the model's covariance first), so that a singular one raises where it raises there."""
    nobs, k = A.shape
    fitted = _probabilities(A, params)
    with np.errstate(over="ignore", invalid="ignore"):  # a separated fit's: reported, not warned
        hess = -np.dot(fitted * (1 - fitted) * A.T, A)
        np.linalg.inv(-hess / nobs)  # statsmodels' non-robust covariance: raises when singular
        bread = np.linalg.inv(hess)
        scores = (y - fitted)[:, None] * A
        sums = np.array([np.bincount(codes, weights=scores[:, c]) for c in range(k)]).T
        cov = np.dot(np.dot(bread, np.dot(sums.T, sums)), bread.T)
        groups = len(np.unique(codes))
        cov *= groups / (groups - 1.0) * ((nobs - 1.0) / float(nobs - k))
    return cov


def _two_sided(z: np.ndarray) -> np.ndarray:
    """Two-sided normal p-values of ``|z|``: ``2 * scipy.stats.norm.sf(z)``, which is
    ``2 * ndtr(-z)`` (SciPy's ``_norm_sf``), from ``scipy.special`` alone."""
    from scipy.special import ndtr

    return 2.0 * ndtr(-z)
