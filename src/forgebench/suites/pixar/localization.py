"""PIXAR pixel-localization metrics, accumulated per image (memory independent of dataset size).

Seed 003 names the metrics (Tables 2, 3, 5: Recall, F1-Score, AUC, g-IoU, IoU; size classes in
Fig. 14) but gives no formulas; the definitions below are PIXAR's public evaluation conventions
(their released evaluation script), which are the reference where the seed is silent:

- A prediction is binarised at ``threshold`` (0.5): a score map pixel is tampered when
  ``score >= threshold`` (PIXAR: ``pred_scores >= 0.5``); a mask is tampered where nonzero.
- **gIoU**: the mean over images of the per-image IoU = |T & P| / |T | P|; an image whose truth
  and prediction are both empty (union 0) scores 1. (PIXAR adds 1e-5 to the union; we use the
  exact ratio.)
- **cIoU** ("IoU" in the tables): pooled intersection over pooled union across all images.
- **precision / recall / F1**: over all pixels pooled across images, TP / (TP + FP),
  TP / (TP + FN) and their harmonic mean; a zero denominator gives 0 (as PIXAR).
- **AUC**: pixel ROC-AUC of score maps, pooled over all pixels of all images. Streaming form:
  fixed-bin histograms of the scores of truth-positive and truth-negative pixels
  (``bins`` = 10,000 by default, bin ``min(floor(s * bins), bins - 1)``; PIXAR uses 512 bins),
  then the trapezoidal ROC over bin edges, which equals the Mann-Whitney statistic of the binned
  scores (pairs in one bin count 1/2). Approximation: it differs from the exact AUC of the raw
  scores by at most half the share of (positive, negative) pairs that share a bin,
  ``tie_bound = 0.5 * sum_b pos_b * neg_b / (P * N)``, reported alongside. Undefined (None) when
  no positive or no negative pixel was seen.
- **size classes** (seed 003 Fig. 14): by the number of changed truth pixels, *small* below
  23,000, *medium* 23,000 up to (not including) 50,000, *large* at least 50,000. (Where a
  reading of "medium up to 50,000" could differ, we follow the seed's "at least 50000" for large.) A
  class without images reports None for every metric.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

SMALL_BELOW = 23_000
"""Small edits have fewer than this many changed truth pixels (seed 003 Fig. 14)."""
LARGE_FROM = 50_000
"""Large edits have at least this many changed truth pixels (seed 003 Fig. 14)."""
SIZE_CLASSES: tuple[str, ...] = ("small", "medium", "large")
DEFAULT_BINS = 10_000


def size_class(n_changed: int) -> str:
    """The edit-size class of a truth map with ``n_changed`` changed pixels."""
    if n_changed < SMALL_BELOW:
        return "small"
    return "medium" if n_changed < LARGE_FROM else "large"


def _ratio(a: float, b: float) -> float:
    return a / b if b else 0.0


def iou(truth: np.ndarray, pred: np.ndarray) -> float:
    """Per-image IoU of two boolean maps; 1.0 when both are empty."""
    inter = int(np.count_nonzero(truth & pred))
    union = int(np.count_nonzero(truth)) + int(np.count_nonzero(pred)) - inter
    return inter / union if union else 1.0


def pixel_f1(truth: np.ndarray, pred: np.ndarray) -> float:
    """Per-image pixel F1 (Dice) of two boolean maps; 1.0 when both are empty."""
    tp = int(np.count_nonzero(truth & pred))
    denom = int(np.count_nonzero(truth)) + int(np.count_nonzero(pred))
    return 2.0 * tp / denom if denom else 1.0


def per_pair(stems: Iterable[str], values: Iterable[tuple[float, float]]) -> list[dict[str, Any]]:
    """``[{"pair", "iou", "f1"}]`` (percent) of each scored image, in the order scored."""
    return [
        {"pair": s, "iou": 100.0 * i, "f1": 100.0 * f}
        for s, (i, f) in zip(stems, values, strict=True)
    ]


def exact_auc(scores: np.ndarray, truth: np.ndarray) -> float | None:
    """Exact ROC-AUC by ranks (Mann-Whitney U with average ranks for ties); None if undefined."""
    from scipy.stats import rankdata

    s = np.asarray(scores, dtype=np.float64).ravel()
    t = np.asarray(truth).ravel() != 0
    p, n = int(t.sum()), int((~t).sum())
    if not p or not n:
        return None
    ranks = rankdata(s)
    return float((ranks[t].sum() - p * (p + 1) / 2) / (p * n))


EXACT_FLOAT_COUNTS = 1 << 24
"""OpenCV's histogram hands its counts back as float32: exact below 2^24 pixels an image."""


def bin_counts(scores: np.ndarray, truth: np.ndarray, bins: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-bin pixel counts (truth-negative, truth-positive; int64) of one image's scores, each
    pixel in bin ``min(max(floor(s * bins), 0), bins - 1)`` with the product taken in float32.

    Clamping the float32 product to ``[0, bins - 1]`` before flooring gives the same bin as
    clamping the floored value. OpenCV's uniform histogram over ``[0, bins)`` with ``bins`` bins
    then bins ``floor(v * 1.0 + 0.0) = floor(v)`` (``imgproc/src/histogram.cpp``, ``calcHist_``),
    all pixels and, masked, the truth-positive ones: one pass each, where an index array and
    ``np.bincount`` took several (the NumPy form is kept for images too large for exact float32
    counts)."""
    import cv2

    x = np.multiply(np.asarray(scores, dtype=np.float32), np.float32(bins))
    np.clip(x, 0, bins - 1, out=x)
    t = np.ascontiguousarray(truth, dtype=bool)
    if x.shape != t.shape:
        raise ValueError(f"scores shape {x.shape} differs from truth {t.shape}")
    if x.size >= EXACT_FLOAT_COUNTS or x.size == 0:
        idx = x.astype(np.intp).ravel()
        every = np.bincount(idx, minlength=bins)
        pos = np.bincount(idx[t.ravel()], minlength=bins)
        return every - pos, pos
    flat, mask = x.reshape(1, -1), t.reshape(1, -1).view(np.uint8)
    every = cv2.calcHist([flat], [0], None, [bins], [0, bins]).ravel().astype(np.int64)
    pos = cv2.calcHist([flat], [0], mask, [bins], [0, bins]).ravel().astype(np.int64)
    return every - pos, pos


@dataclass
class AucHistogram:
    """Streaming pixel AUC: score histograms of truth-positive and truth-negative pixels."""

    bins: int = DEFAULT_BINS
    pos: np.ndarray = field(init=False)
    neg: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        if self.bins < 2:
            raise ValueError("bins must be at least 2")
        self.pos = np.zeros(self.bins, dtype=np.int64)
        self.neg = np.zeros(self.bins, dtype=np.int64)

    def add(self, scores: np.ndarray, truth: np.ndarray) -> None:
        """Add one image's score map (floats in [0, 1]) and boolean truth."""
        self.add_counts(*bin_counts(scores, truth, self.bins))

    def add_counts(self, neg: np.ndarray, pos: np.ndarray) -> None:
        """Add per-bin counts of truth-negative and truth-positive pixels (:func:`bin_counts`)."""
        self.neg += neg
        self.pos += pos

    def auc(self) -> float | None:
        """The binned AUC (see the module docstring), None when P or N is 0."""
        p, n = int(self.pos.sum()), int(self.neg.sum())
        if not p or not n:
            return None
        neg_below = np.cumsum(self.neg) - self.neg
        num = float(np.dot(self.pos.astype(np.float64), neg_below + 0.5 * self.neg))
        return num / (p * n)

    def tie_bound(self) -> float | None:
        """Max |binned AUC - exact AUC|: half the share of pos/neg pairs sharing a bin."""
        p, n = int(self.pos.sum()), int(self.neg.sum())
        if not p or not n:
            return None
        return 0.5 * float(np.dot(self.pos.astype(np.float64), self.neg)) / (p * n)


@dataclass
class PixelCounts:
    """Sums behind gIoU, cIoU and pooled precision / recall / F1 for a set of images."""

    n: int = 0
    iou_sum: float = 0.0
    inter: int = 0
    union: int = 0
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, t_sum: int, p_sum: int, inter: int) -> float:
        union = t_sum + p_sum - inter
        value = inter / union if union else 1.0
        self.n += 1
        self.iou_sum += value
        self.inter += inter
        self.union += union
        self.tp += inter
        self.fp += p_sum - inter
        self.fn += t_sum - inter
        return value

    def metrics(self) -> dict[str, float]:
        """Fractions in [0, 1]: giou, ciou, precision, recall, f1."""
        prec, rec = _ratio(self.tp, self.tp + self.fp), _ratio(self.tp, self.tp + self.fn)
        return {
            "giou": _ratio(self.iou_sum, self.n),
            "ciou": _ratio(self.inter, self.union),
            "precision": prec,
            "recall": rec,
            "f1": _ratio(2 * prec * rec, prec + rec),
        }


@dataclass
class LocalizationAccumulator:
    """Adds one (truth, prediction) image at a time; :meth:`result` gives every metric."""

    threshold: float = 0.5
    """Score maps are tampered where score >= threshold."""
    bins: int = DEFAULT_BINS
    """Histogram bins of the streaming AUC."""
    all: PixelCounts = field(default_factory=PixelCounts)
    sizes: dict[str, PixelCounts] = field(
        default_factory=lambda: {k: PixelCounts() for k in SIZE_CLASSES}
    )
    n_score_maps: int = 0
    n_masks: int = 0
    per_image: list[tuple[float, float]] = field(default_factory=list)
    """Each image's (IoU, pixel F1) in the order added, fractions (the run store keeps them
    per pair: :mod:`forgebench.run.store.pairs`)."""
    hist: AucHistogram = field(init=False)
    size_hist: dict[str, AucHistogram] = field(init=False)

    def __post_init__(self) -> None:
        if not 0.0 < self.threshold <= 1.0:
            raise ValueError(f"threshold must lie in (0, 1], got {self.threshold}")
        self.hist = AucHistogram(self.bins)
        self.size_hist = {k: AucHistogram(self.bins) for k in SIZE_CLASSES}

    def add(self, truth: np.ndarray, pred: np.ndarray) -> float:
        """Score one image; returns its IoU. ``pred``: a mask (bool / integer, nonzero =
        tampered) or a float score map in [0, 1] of the truth's shape."""
        t = np.asarray(truth)
        t = t if t.dtype == bool else t != 0
        p_in = np.asarray(pred)
        if p_in.shape != t.shape:
            raise ValueError(f"prediction shape {p_in.shape} differs from truth {t.shape}")
        is_score = np.issubdtype(p_in.dtype, np.floating)
        if is_score:
            p = p_in >= self.threshold
            self.n_score_maps += 1
        else:
            p = p_in if p_in.dtype == bool else p_in != 0
            self.n_masks += 1
        t_sum = int(np.count_nonzero(t))
        p_sum = int(np.count_nonzero(p))
        inter = int(np.count_nonzero(np.logical_and(t, p)))
        cls = size_class(t_sum)
        value = self.all.add(t_sum, p_sum, inter)
        self.sizes[cls].add(t_sum, p_sum, inter)
        self.per_image.append((value, 2.0 * inter / (t_sum + p_sum) if t_sum + p_sum else 1.0))
        if is_score:  # one histogram of the image, added to the overall and its class's
            counts = bin_counts(p_in, t, self.bins)
            self.hist.add_counts(*counts)
            self.size_hist[cls].add_counts(*counts)
        return value

    @property
    def has_auc(self) -> bool:
        """AUC is reported only when every prediction was a score map."""
        return self.n_score_maps > 0 and self.n_masks == 0

    def _block(self, counts: PixelCounts, hist: AucHistogram) -> dict[str, Any]:
        """One block of metrics; every value is None for a block without images."""
        out: dict[str, Any] = dict(counts.metrics())
        if not counts.n:
            out = dict.fromkeys(out)
        if self.has_auc:
            out["auc"] = hist.auc()
            out["auc_tie_bound"] = hist.tie_bound()
        out["n_images"] = counts.n
        return out

    def result(self) -> dict[str, Any]:
        """Fractions in [0, 1]: the overall block and ``by_size`` blocks, each with its
        ``auc_tie_bound`` when AUC is reported."""
        out = self._block(self.all, self.hist)
        out["by_size"] = {k: self._block(self.sizes[k], self.size_hist[k]) for k in SIZE_CLASSES}
        return out


RATE_KEYS: tuple[str, ...] = ("giou", "ciou", "precision", "recall", "f1", "auc")
"""The metrics that are rates (shown as percentages)."""


def as_percent(result: dict[str, Any]) -> dict[str, Any]:
    """A copy of a result with every rate (including in ``by_size``) times 100."""
    out: dict[str, Any] = {}
    for k, v in result.items():
        if (k in RATE_KEYS or k == "auc_tie_bound") and v is not None:
            out[k] = 100.0 * float(v)
        elif isinstance(v, dict):
            out[k] = as_percent(v)
        else:
            out[k] = v
    return out
