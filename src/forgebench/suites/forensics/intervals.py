"""95% bootstrap intervals of Forensics' headline numbers (seed 002 reports none).

For every model, ``acc`` on ``all`` and the five ``persp`` scores of probe ``MCQ`` under
``full`` are recomputed on bootstrap replicates of the items (items drawn with replacement,
:func:`forgebench.analysis.bootstrap.resampled_sums`), each replicate's perspective score computed
as :mod:`.scores` defines it (mean over the perspective's values of the mean type-code accuracy);
a type code with no item in a replicate is left out of that replicate's means. An item asked but
not answered counts as wrong, as in the metrics. The interval is the percentile interval.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from forgebench.analysis.bootstrap import BootstrapConfig, percentile_interval, resampled_sums
from forgebench.run.store import Store
from forgebench.suites.forensics.run_score import OUTCOMES
from forgebench.suites.forensics.scores import BENCHMARK
from forgebench.suites.forensics.taxonomy import PERSPECTIVES

PROBE, CONDITION = "MCQ", "full"


def _outcomes(run_dir: Path) -> pd.DataFrame:
    """model, item_id, type_code, correct for every current MCQ/full task of the run: as the
    metrics stage wrote them (``run_score.OUTCOMES``), else read from the store column-wise (a
    25-model run of the release holds 1.6 million tasks)."""
    import pyarrow.compute as pc

    if (run_dir / OUTCOMES).is_file():
        frame = pd.read_parquet(run_dir / OUTCOMES)
        frame = frame[(frame["probe"] == PROBE) & (frame["condition"] == CONDITION)]
        return frame[["model", "item_id", "type_code", "correct"]].reset_index(drop=True)

    with Store.open(run_dir, create=False) as store:
        table = store.task_columns(BENCHMARK, extra=("answer", "type_code"))
    keep = pc.and_(pc.equal(table["probe"], PROBE), pc.equal(table["condition"], CONDITION))
    table = table.filter(keep)
    right = pc.equal(table["verdict"], pc.fill_null(table["extra.answer"], ""))
    return pd.DataFrame(
        {
            "model": table["model"].to_numpy(zero_copy_only=False),
            "item_id": table["item_id"].to_numpy(zero_copy_only=False),
            "type_code": pc.fill_null(table["extra.type_code"], "").to_numpy(zero_copy_only=False),
            "correct": pc.fill_null(right, False).to_numpy(zero_copy_only=False).astype(bool),
        }
    )


def _persp(acc: np.ndarray, codes: list[str]) -> dict[str, np.ndarray]:
    """Perspective scores from accuracies ``acc`` (... x codes); NaN codes are left out (an
    all-NaN mean is NaN, without numpy's warning)."""
    out: dict[str, np.ndarray] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for pos, perspective in enumerate(PERSPECTIVES):
            values = sorted({c.split("-")[pos] for c in codes})
            per_value = [
                np.nanmean(
                    acc[..., [j for j, c in enumerate(codes) if c.split("-")[pos] == v]], axis=-1
                )
                for v in values
            ]
            out[perspective] = np.nanmean(np.stack(per_value, axis=-1), axis=-1)
    return out


def headline_intervals(run_dir: Path, config: BootstrapConfig | None = None) -> pd.DataFrame:
    """One row per model and headline metric of the run (see :func:`intervals`)."""
    return intervals(_outcomes(run_dir), config)


def intervals(frame: pd.DataFrame, config: BootstrapConfig | None = None) -> pd.DataFrame:
    """One row per model and headline metric: probe, condition, subset, metric, value, lo, hi,
    n (items), from one row per asked MCQ/full task (model, item_id, type_code, correct)."""
    cfg = config or BootstrapConfig(reps=1000, cluster="item_id")
    cols = ["model", "probe", "condition", "subset", "metric", "value", "lo", "hi", "n"]
    if frame.empty:
        return pd.DataFrame(columns=cols)
    # each row's position among the sorted names (hashed, not a sort of 1.6 million strings);
    # the items' positions keep their sorted order, so the replicates draw them as before
    m_pos, model_names = pd.factorize(frame["model"].astype(str), sort=True)
    c_pos, code_names = pd.factorize(frame["type_code"].astype(str), sort=True)
    item_pos, _items = pd.factorize(frame["item_id"].astype(str), sort=True)
    models, codes = [str(m) for m in model_names], [str(c) for c in code_names]
    cells = m_pos * len(codes) + c_pos
    values = np.stack([frame["correct"].to_numpy(dtype=float), np.ones(len(frame))], axis=1)
    point, boot = resampled_sums(item_pos, cells, values, cfg)
    shape = (len(models), len(codes))
    p_right, p_n = point[:, 0].reshape(shape), point[:, 1].reshape(shape)
    b_right = boot[:, :, 0].reshape(-1, *shape)
    b_n = boot[:, :, 1].reshape(-1, *shape)
    with np.errstate(invalid="ignore", divide="ignore"):
        p_acc = np.where(p_n > 0, 100.0 * p_right / p_n, np.nan)
        b_acc = np.where(b_n > 0, 100.0 * b_right / b_n, np.nan)
        p_all = 100.0 * p_right.sum(axis=1) / p_n.sum(axis=1)
        b_all = 100.0 * b_right.sum(axis=2) / b_n.sum(axis=2)
    rows = []
    lo, hi = percentile_interval(b_all, cfg.level)
    for i, model in enumerate(models):
        rows.append(
            (model, PROBE, CONDITION, "all", "acc", p_all[i], lo[i], hi[i], int(p_n[i].sum()))
        )
    p_persp, b_persp = _persp(p_acc, codes), _persp(b_acc, codes)
    for perspective in PERSPECTIVES:
        lo, hi = percentile_interval(b_persp[perspective], cfg.level)
        for i, model in enumerate(models):
            rows.append(
                (
                    model,
                    PROBE,
                    CONDITION,
                    perspective,
                    "persp",
                    p_persp[perspective][i],
                    lo[i],
                    hi[i],
                    int(p_n[i].sum()),
                )
            )
    return pd.DataFrame(rows, columns=cols)
