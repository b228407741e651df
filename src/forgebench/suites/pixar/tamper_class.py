"""PIXAR image-level classification and semantic (object-class) accuracy, accumulated streaming.

Image level (seed 003 Table 4; definitions from PIXAR's public evaluation conventions): each image
is *real*, *fully synthetic* or *tampered*. A 3 x 3 confusion matrix (rows = truth, columns =
prediction) gives per-class precision TP / (TP + FP), recall TP / (TP + FN) and F1, with 0 for a
zero denominator. Table 4 reports a binary Real / Fake view; there *fake* = fully synthetic or
tampered, and its "Overall" column is the unweighted mean of the Real and Fake values (e.g.
CnnSpot precision (15.2 + 84.4) / 2 = 49.8), which :meth:`ImageClassAccumulator.result` gives too.

Semantic classification (seed 003 Tables 2 and 5, "Top-1 / Top-5 Acc"; PIXAR's convention): on
tampered images whose truth names at least one of the 81 classes (80 COCO + background), a
prediction ranks classes; top-k is a hit when any truth class is among the first k. Images with no
truth class are not counted.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from forgebench.suites.pixar.taxonomy import CLASSES, canonical_class

IMAGE_CLASSES: tuple[str, ...] = ("real", "full_synthetic", "tampered")
"""Image-level classes in PIXAR's index order (0, 1, 2)."""

_ALIASES = {
    "real": "real", "authentic": "real", "original": "real",
    "full_synthetic": "full_synthetic", "fully synthetic": "full_synthetic",
    "fully_synthetic": "full_synthetic", "full synthetic": "full_synthetic",
    "synthetic": "full_synthetic", "fake": "full_synthetic",
    "tampered": "tampered", "edited": "tampered", "forged": "tampered",
}  # fmt: skip


def image_class(value: str | int) -> int:
    """Index (0 real, 1 fully synthetic, 2 tampered) of a class name or index."""
    if isinstance(value, int | np.integer):
        if 0 <= int(value) < 3:
            return int(value)
        raise ValueError(f"image class index must be 0, 1 or 2, got {value}")
    key = " ".join(str(value).strip().lower().split())
    if key in _ALIASES:
        return IMAGE_CLASSES.index(_ALIASES[key])
    raise ValueError(f"unknown image class {value!r}; known: {', '.join(IMAGE_CLASSES)}")


def _prf(tp: float, fp: float, fn: float) -> dict[str, float]:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0}


@dataclass
class ImageClassAccumulator:
    """Confusion matrix of real / fully-synthetic / tampered (rows truth, columns prediction)."""

    confusion: np.ndarray = field(default_factory=lambda: np.zeros((3, 3), dtype=np.int64))

    def add(self, truth: str | int, pred: str | int) -> None:
        self.confusion[image_class(truth), image_class(pred)] += 1

    def result(self) -> dict[str, Any]:
        """Fractions: accuracy, per-class P/R/F1, the binary Real/Fake view and the matrix."""
        cm = self.confusion
        total = int(cm.sum())
        per_class = {}
        for i, name in enumerate(IMAGE_CLASSES):
            tp = float(cm[i, i])
            per_class[name] = _prf(tp, float(cm[:, i].sum()) - tp, float(cm[i, :].sum()) - tp)
        # binary: real (0) vs fake (1 or 2)
        tn_real = float(cm[0, 0])
        fake_as_fake = float(cm[1:, 1:].sum())
        real_as_fake = float(cm[0, 1:].sum())
        fake_as_real = float(cm[1:, 0].sum())
        real = _prf(tn_real, fake_as_real, real_as_fake)
        fake = _prf(fake_as_fake, real_as_fake, fake_as_real)
        overall = {k: (real[k] + fake[k]) / 2 for k in real}
        return {
            "n": total,
            "accuracy": float(np.trace(cm)) / total if total else 0.0,
            "per_class": per_class,
            "binary": {"real": real, "fake": fake, "overall": overall},
            "confusion": cm.tolist(),
        }


def ranked_classes(pred: Sequence[str] | np.ndarray) -> list[str]:
    """Canonical class names in rank order from ranked names or an 81-long score vector.

    Unknown names are dropped and repeats keep their first rank.
    """
    if isinstance(pred, np.ndarray) and pred.dtype.kind in "fiu":
        scores = pred.ravel()
        if scores.size != len(CLASSES):
            raise ValueError(
                f"a class score vector needs {len(CLASSES)} entries, got {scores.size}"
            )
        order = np.argsort(-scores, kind="stable")
        return [CLASSES[i] for i in order]
    out: list[str] = []
    for name in pred:
        c = canonical_class(str(name))
        if c is not None and c not in out:
            out.append(c)
    return out


@dataclass
class SemanticAccumulator:
    """Top-1 / top-5 semantic accuracy over the 81 PIXAR classes."""

    n: int = 0
    hit1: int = 0
    hit5: int = 0
    skipped: int = 0

    def add(self, truth: str | Iterable[str], pred: Sequence[str] | np.ndarray) -> None:
        """One tampered image: its truth class(es) and the ranked prediction."""
        names = [truth] if isinstance(truth, str) else list(truth)
        gold = {c for c in (canonical_class(t) for t in names) if c is not None}
        if not gold:
            self.skipped += 1
            return
        ranked = ranked_classes(pred)
        self.n += 1
        self.hit1 += bool(gold & set(ranked[:1]))
        self.hit5 += bool(gold & set(ranked[:5]))

    def result(self) -> dict[str, Any]:
        """Fractions: top1, top5 and the number of images counted."""
        return {
            "top1": self.hit1 / self.n if self.n else 0.0,
            "top5": self.hit5 / self.n if self.n else 0.0,
            "n": self.n,
        }
