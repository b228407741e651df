"""PIXAR localisation scored under the IMDL-BenCo convention (``--convention imdl``).

The image-manipulation detection and localisation community reports its numbers the way
IMDL-BenCo (scu-zjz/IMDLBenCo) computes them; this module follows its evaluators, read from
``IMDLBenCo/evaluation/F1.py``, ``IOU.py``, ``AUC.py`` and ``Accuracy.py``, the tester
(``IMDLBenCo/training_scripts/tester/tester.py``) and the dataset reader
(``IMDLBenCo/datasets/abstract_dataset.py``, ``iml_datasets.py`` ``JsonDataset``):

Pixel level, **one value per image, averaged over the tampered images** (the tester sums the
per-image values of a batch and divides by the images seen):

- a map is binarised at ``score > threshold`` (strictly greater; threshold 0.5), a mask PNG is
  its nonzero pixels;
- F1 (``F1.py`` ``PixelF1``): ``P = TP / (TP + FP + 1e-8)``, ``R = TP / (TP + FN + 1e-8)``,
  ``F1 = 2PR / (P + R + 1e-8)``: an image with an empty prediction scores 0;
- IoU (``IOU.py`` ``PixelIOU``): ``TP / (|pred| + |truth| - TP + 1e-8)``;
- AUC (``AUC.py`` ``PixelAUC``): the ROC area of the map's scores against the mask; **an image
  whose mask has no tampered pixel scores 0.0** (as the evaluator returns). IMDL-BenCo integrates
  the curve of the scores sorted by ``torch.argsort`` without grouping ties; we count a tie as
  half (the Mann-Whitney area, sklearn's ``roc_auc_score``): the same number for a map without
  tied scores across the two classes (agreement within 1e-7 on ``tests/fixtures/imdl_reference``).
  On a tied map (a binary mask, what a VLM's rasterized answer is) IMDL-BenCo's figure is the
  area of the path through the ties in whatever order ``torch.argsort`` leaves them: on that
  fixture's four 64 x 96 masks (imdlbenco 0.1.45, torch 2.13.0+cpu) 0.04 to 0.06 below the
  tie-aware area, which we keep, as it does not depend on a sort's order. A mask without an untampered pixel has no ROC
  (IMDL-BenCo divides by zero): that image is left out of the AUC mean, whose ``n`` says so;
- accuracy (``Accuracy.py`` ``PixelAccuracy``): ``(TP + TN) / pixels``.

The polarity-free variant (``mode="double"`` of each evaluator) keeps the better of the map and
its inverse, each as IMDL-BenCo inverts it: F1 and accuracy invert the *binarised* prediction
(``max(F1(TP, FP, FN), F1(FN, TN, TP))``, ``max(acc, 1 - acc)``), IoU and AUC invert the *scores*
(``IoU(1 - map > threshold)``, ``AUC(1 - map)``), so a pixel scored exactly at the threshold is
positive in neither IoU but in the inverted F1.

Which images enter the pixel means: IMDL-BenCo's tester averages over every image its loader
gives; its pixel-level protocols test on tampered images only. We average over the tampered
images (label 1) and score authentic ones at image level only, which is IMDL-BenCo's number on a
manifest of the tampered images.

Image level, one score per image: the detector's own score where it gives one (a LOC reply's
``"tampered"``: 1 for true, 0 for false), else the **maximum of its map** (a mask: 1 when it marks
any pixel). Label 1 = tampered: a manifest's
``"Negative"`` is 0 and a mask with any nonzero pixel is 1, as ``abstract_dataset.py`` sets it
after the test transforms; a PIXAR pair is tampered when its truth label has a changed pixel.
At ``score > threshold``: F1 (``F1.py`` ``ImageF1``: ``P = TP / (TP + FP + 1e-9)``, ``R = TP /
(TP + FN + 1e-9)``, ``F1 = 2PR / (P + R + 1e-9)``), accuracy (``Accuracy.py``
``ImageAccuracy``); AUC (``AUC.py`` ``ImageAUC``: sklearn's ``roc_auc_score``, undefined with one
class: no row). IMDL-BenCo has no AP, MCC, TPR or TNR; they follow scikit-learn
(``average_precision_score``; ``matthews_corrcoef``, 0 when a margin is empty; recall of each
class, no row when the class is absent).

IMDL-BenCo prints fractions (0-1); the metrics.csv rows (their own names, :data:`METRICS`, probe
``LOC``, condition ``full``, subset ``all``, ``n`` = the images averaged (pixel) or scored
(image)) hold percentages, as every rate of metrics.csv does (MCC, not a rate, as it is); the
printed summary keeps IMDL-BenCo's fractions.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from forgebench.report.table import Column, Table, num, text
from forgebench.results.metrics_csv import Scope

PREFIX = "imdl_"
"""Every row of this convention has a metric name starting with this."""
CONVENTION = "imdl"
THRESHOLD = 0.5
PIXEL_EPS = 1e-8
"""``F1.py`` ``PixelF1.Cal_F1`` and ``IOU.py`` ``Cal_IOU``."""
IMAGE_EPS = 1e-9
"""``F1.py`` ``ImageF1.epoch_update``."""

PIXEL_METRICS: tuple[str, ...] = ("f1", "iou", "auc", "acc")
IMAGE_METRICS: tuple[str, ...] = ("auc", "f1", "acc", "ap", "mcc", "tpr", "tnr")
METRICS: tuple[str, ...] = (
    *(f"{PREFIX}pixel_{m}" for m in PIXEL_METRICS),
    *(f"{PREFIX}pixel_{m}_free" for m in PIXEL_METRICS),
    *(f"{PREFIX}image_{m}" for m in IMAGE_METRICS),
)
"""The metric names, in the order rows are written."""


def binarise(pred: np.ndarray, threshold: float = THRESHOLD) -> np.ndarray:
    """A prediction as IMDL-BenCo thresholds it: a mask (bool / integer) is its nonzero pixels, a
    float map is ``map > threshold``."""
    p = np.asarray(pred)
    if p.dtype == bool:
        return p
    if np.issubdtype(p.dtype, np.floating):
        return p > threshold
    return p != 0


def _scores(pred: np.ndarray) -> np.ndarray:
    """A prediction's per-pixel scores (a mask's are 0 / 1)."""
    p = np.asarray(pred)
    if np.issubdtype(p.dtype, np.floating):
        return p
    return (p != 0).astype(np.float32)


def _f1(tp: float, fp: float, fn: float, eps: float) -> float:
    precision = tp / (tp + fp + eps)
    recall = tp / (tp + fn + eps)
    return 2 * precision * recall / (precision + recall + eps)


def _iou(pred: np.ndarray, truth: np.ndarray) -> float:
    inter = float(np.count_nonzero(pred & truth))
    union = float(np.count_nonzero(pred)) + float(np.count_nonzero(truth)) - inter
    return inter / (union + PIXEL_EPS)


def roc_auc(labels: np.ndarray, scores: np.ndarray) -> float | None:
    """The ROC area of ``scores`` against boolean ``labels``, a tie counted half (Mann-Whitney,
    as scikit-learn's ``roc_auc_score``); None when a class is absent."""
    y = np.asarray(labels, dtype=bool).ravel()
    s = np.asarray(scores, dtype=np.float64).ravel()
    n_pos = int(np.count_nonzero(y))
    n_neg = y.size - n_pos
    if n_pos == 0 or n_neg == 0:
        return None
    _, inverse, counts = np.unique(s, return_inverse=True, return_counts=True)
    pos = np.bincount(inverse.ravel(), weights=y.astype(np.float64), minlength=counts.size)
    neg = counts - pos
    below = np.cumsum(neg) - neg  # negatives scored strictly lower, ascending score groups
    return float(np.sum(pos * (below + 0.5 * neg)) / (n_pos * n_neg))


def average_precision(labels: np.ndarray, scores: np.ndarray) -> float | None:
    """scikit-learn's ``average_precision_score``: ``sum_n (R_n - R_{n-1}) P_n`` over the distinct
    scores, highest first; None without a positive."""
    y = np.asarray(labels, dtype=bool).ravel()
    s = np.asarray(scores, dtype=np.float64).ravel()
    n_pos = int(np.count_nonzero(y))
    if n_pos == 0:
        return None
    order = np.argsort(-s, kind="stable")
    s, y = s[order], y[order]
    last = np.r_[np.flatnonzero(np.diff(s)), y.size - 1]  # the last index of each score group
    tp = np.cumsum(y)[last].astype(np.float64)
    seen = (last + 1).astype(np.float64)
    precision = tp / seen
    recall = tp / n_pos
    return float(np.sum(np.diff(np.r_[0.0, recall]) * precision))


def pixel_values(
    truth: np.ndarray, pred: np.ndarray, threshold: float = THRESHOLD
) -> dict[str, float | None]:
    """One image's pixel F1, IoU, AUC and accuracy and their polarity-free variants (``*_free``)
    under IMDL-BenCo's arithmetic (module docstring); ``auc`` is None for a mask without an
    untampered pixel. ``truth``: boolean mask; ``pred``: mask or score map of the same shape."""
    t = np.asarray(truth) != 0
    p = np.asarray(pred)
    b = binarise(p, threshold)
    tp = float(np.count_nonzero(b & t))
    fp = float(np.count_nonzero(b & ~t))
    fn = float(np.count_nonzero(~b & t))
    tn = float(t.size) - tp - fp - fn
    scores = _scores(p)
    if not t.any():
        auc: float | None = 0.0  # AUC.py PixelAUC.Cal_AUC: no tampered pixel -> 0.0
        auc_inv: float | None = 0.0
    else:
        auc = roc_auc(t, scores)
        auc_inv = None if auc is None else roc_auc(t, 1.0 - scores)
    acc = (tp + tn) / t.size
    inverted = (1.0 - scores) > threshold if np.issubdtype(p.dtype, np.floating) else ~b
    return {
        "f1": _f1(tp, fp, fn, PIXEL_EPS),
        "iou": _iou(b, t),
        "auc": auc,
        "acc": acc,
        "f1_free": max(_f1(tp, fp, fn, PIXEL_EPS), _f1(fn, tn, tp, PIXEL_EPS)),
        "iou_free": max(_iou(b, t), _iou(inverted, t)),
        "auc_free": None if auc is None or auc_inv is None else max(auc, auc_inv),
        "acc_free": max(acc, (fp + fn) / t.size),
    }


def image_score(pred: np.ndarray | None) -> float:
    """An image's score from its map: the maximum (a mask: 1.0 when it marks a pixel, an absent
    prediction: 0.0)."""
    if pred is None or np.asarray(pred).size == 0:
        return 0.0
    return float(np.max(_scores(np.asarray(pred))))


def image_values(
    labels: np.ndarray, scores: np.ndarray, threshold: float = THRESHOLD
) -> dict[str, float | None]:
    """Image-level AUC, F1, accuracy, AP, MCC, TPR and TNR (module docstring); None where
    undefined (no row)."""
    y = np.asarray(labels, dtype=bool).ravel()
    s = np.asarray(scores, dtype=np.float64).ravel()
    if y.size == 0:
        return dict.fromkeys(IMAGE_METRICS)
    hit = s > threshold
    tp = float(np.count_nonzero(hit & y))
    fp = float(np.count_nonzero(hit & ~y))
    fn = float(np.count_nonzero(~hit & y))
    tn = float(y.size) - tp - fp - fn
    denom = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
    return {
        "auc": roc_auc(y, s),
        "f1": _f1(tp, fp, fn, IMAGE_EPS),
        "acc": (tp + tn) / y.size,
        "ap": average_precision(y, s),
        "mcc": (tp * tn - fp * fn) / math.sqrt(denom) if denom else 0.0,
        "tpr": tp / (tp + fn) if tp + fn else None,
        "tnr": tn / (tn + fp) if tn + fp else None,
    }


@dataclass
class ImdlAccumulator:
    """IMDL-BenCo's numbers over images added one at a time (one map in memory at a time)."""

    threshold: float = THRESHOLD
    sums: dict[str, float] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    labels: list[bool] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)

    def add(
        self,
        truth: np.ndarray | None,
        pred: np.ndarray | None,
        *,
        tampered: bool | None = None,
        score: float | None = None,
    ) -> None:
        """One image: its boolean truth mask (None: authentic, no mask), its prediction (mask or
        score map at the truth's size; None: nothing predicted), whether it is tampered (default:
        the truth has a tampered pixel) and the detector's own image score (default: the map's
        maximum)."""
        t = None if truth is None else np.asarray(truth) != 0
        label = bool(tampered) if tampered is not None else bool(t is not None and t.any())
        if label:
            if t is None:
                raise ValueError("a tampered image needs its mask")
            p = pred if pred is not None else np.zeros(t.shape, dtype=bool)
            for name, value in pixel_values(t, p, self.threshold).items():
                if value is not None:
                    self.sums[name] = self.sums.get(name, 0.0) + float(value)
                    self.counts[name] = self.counts.get(name, 0) + 1
        self.labels.append(label)
        self.scores.append(float(score) if score is not None else image_score(pred))

    def result(self) -> dict[str, Any]:
        """``pixel`` (name -> mean over the tampered images, None when there is none), ``image``
        (:func:`image_values`), ``n_pixel`` (name -> images averaged), ``n_images``,
        ``n_tampered``."""
        pixel_names = (*PIXEL_METRICS, *(f"{m}_free" for m in PIXEL_METRICS))
        pixel = {
            m: (self.sums[m] / self.counts[m] if self.counts.get(m) else None) for m in pixel_names
        }
        return {
            "convention": CONVENTION,
            "threshold": self.threshold,
            "pixel": pixel,
            "n_pixel": {m: self.counts.get(m, 0) for m in pixel_names},
            "image": image_values(np.array(self.labels), np.array(self.scores), self.threshold),
            "n_images": len(self.labels),
            "n_tampered": int(sum(self.labels)),
        }


def scope(benchmark: str, models: Iterable[str], convention: str) -> Scope:
    """The metrics.csv rows a writer of ``models`` owns under ``convention``: the ``imdl_*`` rows
    under ``imdl``, every other row of the benchmark under PIXAR's own, so a re-score under one
    convention never removes the other's rows."""
    if convention == CONVENTION:
        return Scope.of(benchmark, models=models, include=PREFIX)
    return Scope.of(benchmark, models=models, exclude=PREFIX)


RAW_METRICS = frozenset({f"{PREFIX}image_mcc"})
"""The one ``imdl_*`` number that is not a rate (a correlation in [-1, 1]): written as it is;
every other is a percentage in metrics.csv, as PIXAR's own rows are."""


def imdl_rows(result: Mapping[str, Any], model: str) -> list[dict[str, Any]]:
    """metrics.csv rows of one :meth:`ImdlAccumulator.result` (benchmark ``pixar``, probe
    ``LOC``, condition ``full``, subset ``all``); an undefined value has no row."""
    # lazy: .results imports this module at its head (tables_from_rows), a circle at the top
    from forgebench.suites.pixar.results import BENCHMARK, PROBE

    rows: list[dict[str, Any]] = []

    def add(metric: str, value: Any, n: int) -> None:
        if value is not None:  # rates as percentages (the metrics.csv contract); MCC as it is
            shown = float(value) if metric in RAW_METRICS else 100.0 * float(value)
            rows.append({"benchmark": BENCHMARK, "model": model, "probe": PROBE,
                         "condition": "full", "subset": "all", "metric": metric,
                         "value": shown, "n": int(n), "judge": ""})  # fmt: skip

    for m, value in result["pixel"].items():
        add(f"{PREFIX}pixel_{m}", value, result["n_pixel"][m])
    for m in IMAGE_METRICS:
        add(f"{PREFIX}image_{m}", result["image"].get(m), result["n_images"])
    order = {name: i for i, name in enumerate(METRICS)}
    return sorted(rows, key=lambda r: order[r["metric"]])


def summary_lines(result: Mapping[str, Any]) -> list[str]:
    """The printed summary of a result: pixel means, then the image level."""

    def fmt(v: Any) -> str:
        return "-" if v is None else f"{v:.4f}"

    px = result["pixel"]
    im = result["image"]
    return [
        f"IMDL-BenCo convention ({result['n_tampered']} tampered of {result['n_images']} images,"
        f" threshold {result['threshold']:g})",
        "pixel (mean per tampered image): " + "  ".join(f"{m} {fmt(px[m])}" for m in PIXEL_METRICS),
        "pixel, polarity-free: " + "  ".join(f"{m} {fmt(px[m + '_free'])}" for m in PIXEL_METRICS),
        "image: " + "  ".join(f"{m} {fmt(im.get(m))}" for m in IMAGE_METRICS),
    ]


TABLE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("Pixel F1", "imdl_pixel_f1"), ("IoU", "imdl_pixel_iou"), ("AUC", "imdl_pixel_auc"),
    ("Acc", "imdl_pixel_acc"), ("F1 free", "imdl_pixel_f1_free"),
    ("IoU free", "imdl_pixel_iou_free"), ("AUC free", "imdl_pixel_auc_free"),
    ("Acc free", "imdl_pixel_acc_free"), ("Image AUC", "imdl_image_auc"),
    ("Image F1", "imdl_image_f1"), ("Image Acc", "imdl_image_acc"), ("AP", "imdl_image_ap"),
    ("MCC", "imdl_image_mcc"), ("TPR", "imdl_image_tpr"), ("TNR", "imdl_image_tnr"),
)  # fmt: skip


def imdl_table(rows: Iterable[Mapping[str, Any]]) -> Any:
    """The report's table of the ``imdl_*`` rows (one line per model, percentages as metrics.csv holds them; MCC as it is),
    or None when there is none."""
    by_model: dict[str, dict[str, float]] = {}
    for r in rows:
        metric = str(r.get("metric") or "")
        if metric.startswith(PREFIX) and r.get("subset") == "all":
            by_model.setdefault(str(r["model"]), {})[metric] = float(r["value"])
    if not by_model:
        return None
    cells = [
        [
            text(model),
            *(num(vals.get(key), 3 if key in RAW_METRICS else 1) for _, key in TABLE_COLUMNS),
        ]
        for model, vals in by_model.items()
    ]
    return Table(
        0, "Localisation under IMDL-BenCo's convention (per-image pixel means over tampered "
        "images at threshold 0.5, their polarity-free variants, image level from the max of "
        "each map; percentages, MCC in [-1, 1])", [Column(h) for h in ("Model", *(c for c, _ in TABLE_COLUMNS))],
        [(None, cells)], slug="pixar_imdl", heading="IMDL-BenCo convention",
    )  # fmt: skip
