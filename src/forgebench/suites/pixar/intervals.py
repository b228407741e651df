"""95% bootstrap intervals of PIXAR's headline numbers (seed 003 reports none).

For every model scored from LOC answers, ``giou`` and ``f1`` of probe ``LOC`` under ``full`` on
``all`` are recomputed on bootstrap replicates of the pairs (pairs drawn with replacement,
:func:`forgebench.analysis.bootstrap.resampled_sums`) from the per-pair pixel counts scoring
wrote (``RUN/pixar/counts/<model>.csv``: changed truth pixels, predicted pixels, both), each as
:mod:`.localization` defines it: gIoU the mean of the pairs' IoU (1 when truth and prediction are
both empty), F1 from precision and recall over the pixels pooled across pairs (0 for a zero
denominator). A pair without a usable answer predicts nothing, as in the metrics. The interval is
the percentile interval.

AUC gets none: a LOC answer is a mask, not a score map, so LOC answers have no AUC, and the AUC
``pixar score`` reports pools the pixel scores of score maps kept outside the run, so the run
holds no per-pair data to resample (:data:`AUC_NOTE`).
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pandas as pd

from forgebench.analysis.bootstrap import BootstrapConfig, percentile_interval, resampled_sums
from forgebench.run.store import Store
from forgebench.suites.pixar.loc_score import COUNTS_DIR, model_dirname

PROBE, CONDITION = "LOC", "full"
COLUMNS = ["model", "probe", "condition", "subset", "metric", "value", "lo", "hi", "n"]
AUC_NOTE = (
    "PIXAR's AUC has no interval: a LOC answer is a mask, not a score map, and the AUC of "
    "pixar score pools pixel scores of score maps the run does not keep, so there is no "
    "per-pair data to resample."
)


def read_counts(run_dir: Path, model: str) -> pd.DataFrame | None:
    """A model's per-pair counts (stem, truth, pred, inter), None when scoring wrote none."""
    path = run_dir / "pixar" / COUNTS_DIR / f"{model_dirname(model)}.csv"
    if not path.is_file():
        return None
    with path.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    frame = pd.DataFrame(rows, columns=["stem", "truth", "pred", "inter"])
    return frame.astype({"truth": np.int64, "pred": np.int64, "inter": np.int64})


def pair_ious(counts: pd.DataFrame) -> np.ndarray:
    """Each pair's IoU (1 when truth and prediction are both empty)."""
    inter = counts["inter"].to_numpy(dtype=float)
    union = counts["truth"].to_numpy(dtype=float) + counts["pred"].to_numpy(dtype=float) - inter
    return np.where(union > 0, inter / np.where(union > 0, union, 1.0), 1.0)


def pooled_f1(inter: np.ndarray, pred: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """F1 from pooled counts (any shape, element-wise), as ``localization.PixelCounts``."""
    tp, fp, fn = inter, pred - inter, truth - inter
    with np.errstate(invalid="ignore", divide="ignore"):
        prec = np.where(tp + fp > 0, tp / (tp + fp), 0.0)
        rec = np.where(tp + fn > 0, tp / (tp + fn), 0.0)
        return np.where(prec + rec > 0, 2 * prec * rec / (prec + rec), 0.0)


def intervals(
    by_model: dict[str, pd.DataFrame], config: BootstrapConfig | None = None
) -> pd.DataFrame:
    """One row per model and metric (giou, f1) from each model's per-pair counts: probe,
    condition, subset, metric, value, lo, hi (percentages), n (pairs)."""
    cfg = config or BootstrapConfig(reps=1000, cluster="stem")
    models = [m for m in sorted(by_model) if len(by_model[m])]
    if not models:
        return pd.DataFrame(columns=COLUMNS)
    frame = pd.concat([by_model[m].assign(model=m) for m in models], ignore_index=True)
    cells = frame["model"].map({m: i for i, m in enumerate(models)}).to_numpy()
    values = np.stack(
        [
            pair_ious(frame),
            np.ones(len(frame)),
            frame["inter"].to_numpy(dtype=float),
            frame["pred"].to_numpy(dtype=float),
            frame["truth"].to_numpy(dtype=float),
        ],
        axis=1,
    )
    point, boot = resampled_sums(frame["stem"].astype(str).to_numpy(), cells, values, cfg)
    with np.errstate(invalid="ignore", divide="ignore"):
        p_giou = 100.0 * point[:, 0] / point[:, 1]
        b_giou = np.where(boot[:, :, 1] > 0, 100.0 * boot[:, :, 0] / boot[:, :, 1], np.nan)
    p_f1 = 100.0 * pooled_f1(point[:, 2], point[:, 3], point[:, 4])
    b_f1 = 100.0 * pooled_f1(boot[:, :, 2], boot[:, :, 3], boot[:, :, 4])
    rows = []
    for metric, p, b in (("giou", p_giou, b_giou), ("f1", p_f1, b_f1)):
        lo, hi = percentile_interval(b, cfg.level)
        for i, model in enumerate(models):
            n = int(point[i, 1])
            rows.append((model, PROBE, CONDITION, "all", metric, p[i], lo[i], hi[i], n))
    return pd.DataFrame(rows, columns=COLUMNS)


def headline_intervals(run_dir: Path, config: BootstrapConfig | None = None) -> pd.DataFrame:
    """The intervals of every model of the run whose LOC answers were scored (see
    :func:`intervals`)."""
    with Store.open(run_dir, create=False) as store:
        models = sorted({r.model for r in store.current_tasks(PROBE)})
    found = {m: read_counts(run_dir, m) for m in models}
    return intervals({m: c for m, c in found.items() if c is not None}, config)
