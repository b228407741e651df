"""PIXAR's released evaluation arithmetic (``--convention pixar-release``).

Reproduces VILA-Lab/PIXAR ``test_parallel.py`` (``evaluate_worker`` and ``compute_and_print``),
with the truth as ``utils/PIXAR_Set.py`` loads it. Where our default convention
(:mod:`forgebench.suites.pixar.localization`) differs, the difference is named here:

- **Truth**: the 0/255 *soft* mask (``soft_masks/<stem>_mask.png``; the hard mask when absent),
  resized so its longest side is 1024 (SAM's ``ResizeLongestSide``: PIL bilinear, new side
  ``int(side * scale + 0.5)``), divided by 255 and truncated to int: only pixels still at 255
  after resizing count. *Default*: any nonzero pixel of the truth map, at its own size.
- **gIoU / cIoU** binarise the model's mask logits at ``> 0``; per image
  ``inter / (union + 1e-5)``, plus 1 when the union is empty; cIoU is
  ``sum(inter) / (sum(union) + 1e-10)``. *Default*: score >= threshold, exact ratios.
- **Pixel precision / recall / F1** binarise ``sigmoid(logits) >= 0.5`` (the script applies the
  sigmoid only when a map leaves [0, 1]; a map inside [0, 1] is taken as probabilities), with
  ``1e-12`` added to each denominator.
- **AUC**: 512-bin histograms, bin ``int(s * 511)``; the ROC is built from the bins in
  descending order and integrated by the trapezoid rule starting at the top bin's point, not at
  (0, 0), so (positive, negative) pairs sharing the top bin count 0 instead of 1/2.
  *Default*: 10,000 bins, bin ``int(s * 10000)``, from (0, 0). The bound reported with it,
  ``auc_tie_bound``, covers that: half the shared-bin pair share of the other bins plus the
  whole share of the top bin.
- **Semantic** (tampered images only; the 81-long multi-hot truth from ``metadata/*_cls.json``):
  a class is predicted when its probability is >= 0.5; micro P/R/F1 over all (image, class)
  cells; macro P/R/F1 average all 81 classes, absent ones included (as 0); subset accuracy
  divides by all tampered images, top-1/top-5 only by those with at least one true class.
  *Default*: macro over the classes present in the truth or a prediction, subset accuracy over
  the images with at least one true class (the top-k population).
- **Combined F1** = ``2 * cIoU * acc / (cIoU + acc + 1e-10)``, ``acc`` the 3-class image
  accuracy (fraction).

One deliberate departure: a score map already inside [0, 1] is binarised for gIoU at ``> 0.5``
(``logit > 0`` for a probability); the script compares its raw model output, always logits in
the released model, with ``> 0``, which for probabilities would mark every nonzero pixel.
A block without positive or without negative pixels reports AUC None (the script prints 0).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from PIL import Image

RELEASE_BINS = 512
RELEASE_SIDE = 1024
N_CLASSES = 81


def longest_side_shape(h: int, w: int, side: int = RELEASE_SIDE) -> tuple[int, int]:
    """SAM's ``ResizeLongestSide.get_preprocess_shape``: (new_h, new_w)."""
    scale = side * 1.0 / max(h, w)
    return int(h * scale + 0.5), int(w * scale + 0.5)


def release_truth(soft_mask: np.ndarray, side: int = RELEASE_SIDE) -> np.ndarray:
    """The script's truth from a 0..255 ``uint8`` soft mask: boolean, longest side ``side``."""
    m = np.asarray(soft_mask)
    if m.dtype == bool:
        m = np.where(m, 255, 0).astype(np.uint8)
    if m.dtype != np.uint8 or m.ndim != 2:
        raise ValueError(f"a soft mask must be a 2-D uint8 array, got {m.dtype} {m.shape}")
    nh, nw = longest_side_shape(m.shape[0], m.shape[1], side=side)
    img = Image.fromarray(m, mode="L")
    if (nw, nh) != img.size:
        img = img.resize((nw, nh), Image.Resampling.BILINEAR)
    return (np.asarray(img) / 255.0).astype(np.int64) == 1


def release_scores(raw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(probability map, gIoU map) from a mask output: logits, or probabilities in [0, 1]."""
    x = np.asarray(raw, dtype=np.float32)
    if float(x.min()) < 0.0 or float(x.max()) > 1.0:
        with np.errstate(over="ignore"):
            probs = (1.0 / (1.0 + np.exp(-x))).astype(np.float32)
        return probs, x > 0
    return np.clip(x, 0.0, 1.0), x > 0.5


def release_roc_auc(pos: np.ndarray, neg: np.ndarray) -> float | None:
    """The script's histogram ROC-AUC (descending bins, trapezoid from the top bin's point)."""
    p, n = float(pos.sum()), float(neg.sum())
    if not p or not n:
        return None
    tpr = np.cumsum(pos[::-1].astype(np.float64)) / (p + 1e-12)
    fpr = np.cumsum(neg[::-1].astype(np.float64)) / (n + 1e-12)
    return float(np.sum((tpr[1:] + tpr[:-1]) * 0.5 * (fpr[1:] - fpr[:-1])))


def _div(a: float, b: float) -> float:
    return a / (b + 1e-12) if b > 0 else 0.0


@dataclass
class ReleaseSegmentation:
    """gIoU, cIoU, pixel P/R/F1 and AUC of a set of tampered images, as the script sums them."""

    n: int = 0
    iou_sum: float = 0.0
    inter: int = 0
    union: int = 0
    tp: int = 0
    fp: int = 0
    fn: int = 0
    n_score_maps: int = 0
    n_masks: int = 0
    pos: np.ndarray = field(default_factory=lambda: np.zeros(RELEASE_BINS, dtype=np.int64))
    neg: np.ndarray = field(default_factory=lambda: np.zeros(RELEASE_BINS, dtype=np.int64))

    def add(self, truth: np.ndarray, pred: np.ndarray) -> float:
        """One image: boolean truth and a mask (bool / int) or a float map; returns its IoU."""
        t = np.asarray(truth, dtype=bool)
        p_in = np.asarray(pred)
        if p_in.shape != t.shape:
            raise ValueError(f"prediction shape {p_in.shape} differs from truth {t.shape}")
        scores: np.ndarray | None = None
        if np.issubdtype(p_in.dtype, np.floating):
            scores, seg = release_scores(p_in)
            binary = scores >= 0.5
            self.n_score_maps += 1
        else:
            seg = binary = p_in != 0
            self.n_masks += 1
        inter = int(np.count_nonzero(t & seg))
        union = int(np.count_nonzero(t | seg))
        value = inter / (union + 1e-5) + (1.0 if union == 0 else 0.0)
        self.n += 1
        self.iou_sum += value
        self.inter += inter
        self.union += union
        self.tp += int(np.count_nonzero(binary & t))
        self.fp += int(np.count_nonzero(binary & ~t))
        self.fn += int(np.count_nonzero(~binary & t))
        if scores is not None:
            idx = np.clip((scores * np.float32(RELEASE_BINS - 1)).astype(np.int64), 0, None)
            np.minimum(idx, RELEASE_BINS - 1, out=idx)
            self.pos += np.bincount(idx[t], minlength=RELEASE_BINS)
            self.neg += np.bincount(idx[~t], minlength=RELEASE_BINS)
        return value

    @property
    def has_auc(self) -> bool:
        return self.n_score_maps > 0 and self.n_masks == 0

    def tie_bound(self) -> float | None:
        """Max |release AUC - exact AUC| (see the module docstring)."""
        p, n = float(self.pos.sum()), float(self.neg.sum())
        if not p or not n:
            return None
        shared = self.pos.astype(np.float64) * self.neg
        return float(0.5 * shared[:-1].sum() + shared[-1]) / (p * n)

    def metrics(self, has_auc: bool | None = None) -> dict[str, Any]:
        """Fractions: giou, ciou, precision, recall, f1 (None without images), auc, n_images.

        ``has_auc`` overrides whether AUC is reported (a size block follows the overall one)."""
        prec, rec = _div(self.tp, self.tp + self.fp), _div(self.tp, self.tp + self.fn)
        f1 = 2 * prec * rec / (prec + rec + 1e-12) if prec + rec > 0 else 0.0
        out: dict[str, Any] = {
            "giou": self.iou_sum / self.n if self.n else 0.0,
            "ciou": self.inter / (self.union + 1e-10),
            "precision": prec,
            "recall": rec,
            "f1": f1,
        }
        if not self.n:
            out = dict.fromkeys(out)
        if self.has_auc if has_auc is None else has_auc:
            out["auc"] = release_roc_auc(self.pos, self.neg)
            out["auc_tie_bound"] = self.tie_bound()
        out["n_images"] = self.n
        return out


def multi_hot(names: Sequence[int]) -> np.ndarray:
    """An 81-long boolean vector with the given class indices set."""
    v = np.zeros(N_CLASSES, dtype=bool)
    v[list(names)] = True
    return v


@dataclass
class SemanticCounts:
    """Multi-label counts over the 81 classes for tampered images (both conventions)."""

    tp: np.ndarray = field(default_factory=lambda: np.zeros(N_CLASSES, dtype=np.int64))
    fp: np.ndarray = field(default_factory=lambda: np.zeros(N_CLASSES, dtype=np.int64))
    fn: np.ndarray = field(default_factory=lambda: np.zeros(N_CLASSES, dtype=np.int64))
    rows: int = 0
    exact: int = 0
    exact_valid: int = 0
    hit1: int = 0
    hit5: int = 0
    den: int = 0

    def add(self, truth: np.ndarray, predicted: np.ndarray, ranking: Sequence[int]) -> None:
        """One tampered image: multi-hot truth, multi-hot prediction, class indices by rank."""
        t, p = np.asarray(truth, dtype=bool), np.asarray(predicted, dtype=bool)
        self.tp += t & p
        self.fp += p & ~t
        self.fn += t & ~p
        self.rows += 1
        same = bool(np.array_equal(t, p))
        self.exact += same
        if t.any():
            self.den += 1
            self.exact_valid += same
            self.hit1 += bool(t[list(ranking[:1])].any()) if ranking else False
            self.hit5 += bool(t[list(ranking[:5])].any()) if ranking else False

    def result(self, convention: str = "default") -> dict[str, Any]:
        """Fractions: micro_/macro_ precision, recall, f1, subset_accuracy, top1, top5, n."""
        release = convention == "pixar-release"
        tp, fp, fn = self.tp.astype(np.float64), self.fp.astype(np.float64), self.fn
        if release:
            stp, sfp, sfn = tp.sum(), fp.sum(), float(fn.sum())
            mp, mr = _div(stp, stp + sfp), _div(stp, stp + sfn)
            mf = 2 * mp * mr / (mp + mr + 1e-12) if mp + mr > 0 else 0.0
            pc = tp / (tp + fp + 1e-12)
            rc = tp / (tp + fn + 1e-12)
            fc = 2 * pc * rc / (pc + rc + 1e-12)
            keep = np.ones(N_CLASSES, dtype=bool)
            subset = self.exact / self.rows if self.rows else 0.0
        else:
            stp, sfp, sfn = tp.sum(), fp.sum(), float(fn.sum())
            mp = stp / (stp + sfp) if stp + sfp else 0.0
            mr = stp / (stp + sfn) if stp + sfn else 0.0
            mf = 2 * mp * mr / (mp + mr) if mp + mr else 0.0
            with np.errstate(invalid="ignore", divide="ignore"):
                pc = np.where(tp + fp > 0, tp / np.maximum(tp + fp, 1), 0.0)
                rc = np.where(tp + fn > 0, tp / np.maximum(tp + fn, 1), 0.0)
                fc = np.where(pc + rc > 0, 2 * pc * rc / np.where(pc + rc > 0, pc + rc, 1), 0.0)
            keep = (tp + fp + fn) > 0
            subset = self.exact_valid / self.den if self.den else 0.0
        k = int(keep.sum())
        return {
            "micro_precision": mp,
            "micro_recall": mr,
            "micro_f1": mf,
            "macro_precision": float(pc[keep].mean()) if k else 0.0,
            "macro_recall": float(rc[keep].mean()) if k else 0.0,
            "macro_f1": float(fc[keep].mean()) if k else 0.0,
            "subset_accuracy": subset,
            "top1": self.hit1 / self.den if self.den else 0.0,
            "top5": self.hit5 / self.den if self.den else 0.0,
            "n": self.den,
            "n_tampered": self.rows,
            "n_macro_classes": k,
        }


def combined_f1(ciou: float, accuracy: float, convention: str = "default") -> float:
    """Harmonic mean of cIoU and 3-class accuracy (fractions); the script adds 1e-10."""
    if convention == "pixar-release":
        return 2 * ciou * accuracy / (ciou + accuracy + 1e-10) if ciou + accuracy > 0 else 0.0
    return 2 * ciou * accuracy / (ciou + accuracy) if ciou + accuracy else 0.0
