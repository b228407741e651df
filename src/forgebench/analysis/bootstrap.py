"""Cluster-bootstrap confidence intervals for the headline rates (seed 000 reports none).

Items of one seed (the forgery, its anchor-free control and its untouched original) share the
scene, so they are not independent; the bootstrap therefore resamples *seeds* (``seed_id``
clusters) with replacement and recomputes each rate as a ratio of resampled sums. For every
model x probe x condition it gives percentile 95% intervals of

- ``det``: forged items judged FAKE / forged items (strict: misses count as not detected),
- ``auth``: authentic items judged REAL / authentic items,
- ``bal``: (det + auth) / 2,
- ``kgr``: forged items graded E3 or E4 / forged items.

Choices where the paper is silent: one common set of resampled seeds serves every model, probe
and condition of a replicate (so differences between arms are bootstrapped jointly); a replicate
in which a cell's denominator is zero gives NaN for that cell and is ignored by the percentiles;
the generator is ``numpy.random.default_rng(seed)`` so intervals are reproducible.

The work is vectorised: per-cluster sums are computed once (clusters x cells), each replicate
is a vector of multinomial cluster counts, and all replicates are one matrix product.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

RATES: tuple[str, ...] = ("det", "auth", "bal", "kgr")
"""The rates bootstrapped, as named in ``metrics.csv``."""

_OUT_COLUMNS = ("model", "probe", "condition", "metric", "value", "lo", "hi", "n", "clusters")


@dataclass(frozen=True)
class BootstrapConfig:
    """How the bootstrap runs."""

    reps: int = 2000
    """Number of bootstrap replicates."""
    level: float = 0.95
    """Confidence level of the percentile interval."""
    seed: int = 0
    """Seed of the random generator."""
    cluster: str = "seed_id"
    """Column whose values are resampled as clusters."""


def _prepare(frame: pd.DataFrame, cluster: str) -> pd.DataFrame:
    """Per-row indicators of the four numerators and two denominators."""
    need = ["model", "probe", "condition", "label", "correct"]
    missing = [c for c in need if c not in frame.columns]
    if missing:
        raise KeyError(f"frame lacks column(s) {', '.join(missing)}")
    used = [*need, cluster, *(["level"] if "level" in frame.columns else [])]
    keep = frame["label"].isin(["forged", "authentic"]) & frame["probe"].isin(["L0", "L1", "L-adv"])
    df = frame[list(dict.fromkeys(used))][keep]  # only these columns are copied
    forged = (df["label"] == "forged").to_numpy()
    correct = df["correct"].astype("boolean").fillna(False).to_numpy(dtype=bool)
    if "level" in df.columns:
        level = pd.to_numeric(df["level"], errors="coerce").fillna(0).to_numpy()
    else:
        level = np.zeros(len(df))
    return pd.DataFrame(
        {
            "model": df["model"].to_numpy(),
            "probe": df["probe"].to_numpy(),
            "condition": df["condition"].to_numpy(),
            "cluster": df[cluster].astype(str).to_numpy(),
            "n_forged": forged.astype(float),
            "n_auth": (~forged).astype(float),
            "det": (forged & correct).astype(float),
            "auth": (~forged & correct).astype(float),
            "kgr": (forged & (level >= 3)).astype(float),
        }
    )


def _sorted_codes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(values, return_inverse=True)``, sorting only the distinct values when they
    are all strings (a few hundred seeds, not every row)."""
    if not all(type(v) is str for v in values):
        return np.unique(values, return_inverse=True)
    codes, distinct = pd.factorize(values)
    order = np.argsort(np.asarray(distinct, dtype=object))
    rank = np.empty(len(order), dtype=np.intp)
    rank[order] = np.arange(len(order))
    return np.asarray(distinct, dtype=object)[order], rank[codes]


def cluster_bootstrap(frame: pd.DataFrame, config: BootstrapConfig | None = None) -> pd.DataFrame:
    """Percentile CIs of det, auth, bal and kgr per model x probe x condition.

    ``frame`` is the row-level frame (``analysis.frame.load_frame``): one row per answered task
    with model, probe, condition, label, correct, level and the cluster column (``seed_id``).
    Only the REAL/FAKE probes (L0, L1, L-adv) are used. Returns one row per model, probe,
    condition and rate with ``value`` (the point estimate, %), ``lo`` and ``hi`` (%), ``n`` (the
    rate's denominator) and ``clusters`` (seeds in the cell).
    """
    cfg = config or BootstrapConfig()
    if cfg.cluster not in frame.columns:
        raise KeyError(f"frame lacks the cluster column {cfg.cluster!r}")
    df = _prepare(frame, cfg.cluster)
    cols = ["n_forged", "n_auth", "det", "auth", "kgr"]
    if df.empty:
        return pd.DataFrame(columns=list(_OUT_COLUMNS))
    clusters, cluster_idx = _sorted_codes(df["cluster"].to_numpy())
    cell_keys = df[["model", "probe", "condition"]].drop_duplicates().reset_index(drop=True)
    cell_idx = (
        df[["model", "probe", "condition"]]
        .merge(cell_keys.reset_index(), on=["model", "probe", "condition"], how="left")["index"]
        .to_numpy()
    )
    n_cl, n_cells = len(clusters), len(cell_keys)
    # sums[cluster, cell, quantity]
    flat = cluster_idx * n_cells + cell_idx
    sums = np.zeros((n_cl * n_cells, len(cols)))
    values = df[cols].to_numpy()
    for j in range(len(cols)):
        sums[:, j] = np.bincount(flat, weights=values[:, j], minlength=n_cl * n_cells)
    sums = sums.reshape(n_cl, n_cells * len(cols))
    present = (sums.reshape(n_cl, n_cells, len(cols))[:, :, :2].sum(axis=2) > 0).sum(axis=0)

    rng = np.random.default_rng(cfg.seed)
    weights = rng.multinomial(n_cl, np.full(n_cl, 1.0 / n_cl), size=cfg.reps).astype(float)
    boot = (weights @ sums).reshape(cfg.reps, n_cells, len(cols))
    point = sums.sum(axis=0).reshape(n_cells, len(cols))

    def rates(arr: np.ndarray) -> dict[str, np.ndarray]:
        with np.errstate(invalid="ignore", divide="ignore"):
            nf, na = arr[..., 0], arr[..., 1]
            det = np.where(nf > 0, 100.0 * arr[..., 2] / nf, np.nan)
            auth = np.where(na > 0, 100.0 * arr[..., 3] / na, np.nan)
            kgr = np.where(nf > 0, 100.0 * arr[..., 4] / nf, np.nan)
            return {"det": det, "auth": auth, "bal": (det + auth) / 2.0, "kgr": kgr}

    pt, bt = rates(point), rates(boot)
    alpha = (1.0 - cfg.level) / 2.0
    denominators = {
        "det": point[:, 0],
        "auth": point[:, 1],
        "bal": point[:, 0] + point[:, 1],
        "kgr": point[:, 0],
    }
    out = []
    for rate in RATES:
        with np.errstate(invalid="ignore"):
            valid = np.isfinite(bt[rate])
            lo = np.full(n_cells, np.nan)
            hi = np.full(n_cells, np.nan)
            ok = valid.any(axis=0)
            whole = valid.all(axis=0)  # in one call; cells with NaN replicates one by one
            for use, quantile in ((whole, np.quantile), (ok & ~whole, np.nanquantile)):
                if use.any():
                    lo[use] = quantile(bt[rate][:, use], alpha, axis=0)
                    hi[use] = quantile(bt[rate][:, use], 1.0 - alpha, axis=0)
        part = cell_keys.copy()
        part["metric"] = rate
        part["value"] = pt[rate]
        part["lo"] = lo
        part["hi"] = hi
        part["n"] = denominators[rate].astype(int)
        part["clusters"] = present
        out.append(part[np.isfinite(pt[rate])])
    return pd.concat(out, ignore_index=True)


def resampled_sums(
    clusters: np.ndarray,
    cells: np.ndarray,
    values: np.ndarray,
    config: BootstrapConfig | None = None,
    *,
    chunk: int = 100,
) -> tuple[np.ndarray, np.ndarray]:
    """Per-cell sums of ``values`` and their cluster-bootstrap replicates, for statistics that
    are functions of such sums (rates, means of rates).

    Row ``i`` belongs to cluster ``clusters[i]`` and cell ``cells[i]`` (integer codes) and carries
    the quantities ``values[i]`` (rows x q). Each replicate draws the clusters with replacement
    (multinomial counts, ``config.seed``), as :func:`cluster_bootstrap` does; the cluster x cell
    sums are kept sparse and the replicates are computed ``chunk`` at a time, so the memory is
    about ``reps x cells x q`` floats for the result. Returns ``point`` (cells x q) and ``boot``
    (reps x cells x q).
    """
    from scipy import sparse

    cfg = config or BootstrapConfig()
    values = np.asarray(values, dtype=float).reshape(len(clusters), -1)
    n_q = values.shape[1]
    _, cl = np.unique(clusters, return_inverse=True)
    n_cl = int(cl.max()) + 1 if len(cl) else 0
    n_cells = int(np.max(cells)) + 1 if len(cells) else 0
    point = np.zeros((n_cells, n_q))
    boot = np.zeros((cfg.reps, n_cells, n_q))
    if n_cl == 0:
        return point, boot
    by_cluster = [
        sparse.coo_matrix((values[:, j], (cl, cells)), shape=(n_cl, n_cells)).tocsr()
        for j in range(n_q)
    ]
    for j, m in enumerate(by_cluster):
        point[:, j] = np.asarray(m.sum(axis=0)).ravel()
    rng = np.random.default_rng(cfg.seed)
    p = np.full(n_cl, 1.0 / n_cl)
    for start in range(0, cfg.reps, chunk):
        stop = min(cfg.reps, start + chunk)
        weights = rng.multinomial(n_cl, p, size=stop - start).astype(float)
        for j, m in enumerate(by_cluster):
            boot[start:stop, :, j] = np.asarray((m.T @ weights.T).T)
    return point, boot


def percentile_interval(
    replicates: np.ndarray, level: float = 0.95
) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval over axis 0, ignoring NaN replicates (NaN where all are NaN)."""
    alpha = (1.0 - level) / 2.0
    reps = np.asarray(replicates, dtype=float)
    lo = np.full(reps.shape[1:], np.nan)
    hi = np.full(reps.shape[1:], np.nan)
    ok = np.isfinite(reps).any(axis=0)
    if ok.any():
        lo[ok] = np.nanquantile(reps[:, ok], alpha, axis=0)
        hi[ok] = np.nanquantile(reps[:, ok], 1.0 - alpha, axis=0)
    return lo, hi
