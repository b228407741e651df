"""One PIXAR evaluation over mixed images: segmentation, image level, semantic, combined F1.

Follows VILA-Lab/PIXAR ``test_parallel.py``: every image enters the 3-class image-level
classification (Real / Full Synthetic / Tampered, in that index order); **only tampered images**
enter the segmentation metrics (gIoU, cIoU, pixel P/R/F1, AUC) and the semantic (object-class)
metrics. An image's class comes from an explicit input (a class column or the release layout's
folders), never from its map: a tampered image whose truth is empty is scored (IoU 1 when the
prediction is empty too), as the script does.

``convention`` is ``"default"`` (:mod:`~forgebench.suites.pixar.localization`) or
``"pixar-release"`` (:mod:`~forgebench.suites.pixar.release`, which lists the differences).
All rates in the result are percentages (0-100).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from forgebench.suites.pixar.localization import (
    DEFAULT_BINS,
    SIZE_CLASSES,
    LocalizationAccumulator,
    as_percent,
    per_pair,
    size_class,
)
from forgebench.suites.pixar.pairs import PairsError
from forgebench.suites.pixar.release import (
    N_CLASSES,
    ReleaseSegmentation,
    SemanticCounts,
    combined_f1,
    multi_hot,
    release_truth,
)
from forgebench.suites.pixar.tamper_class import IMAGE_CLASSES, ImageClassAccumulator, image_class
from forgebench.suites.pixar.taxonomy import CLASS_INDEX, CLASSES, canonical_class

CONVENTIONS: tuple[str, ...] = ("default", "pixar-release")
TAMPERED = 2
OBJ_THRESHOLD = 0.5
"""A class score >= this marks the class as predicted (the script's ``--obj_threshold``)."""

ObjPred = np.ndarray | Sequence[str]
"""An object prediction: 81 class probabilities, or class names in rank order (all predicted)."""


@dataclass
class Item:
    """One image of an evaluation."""

    stem: str
    cls: int
    """Truth class: 0 real, 1 fully synthetic, 2 tampered."""
    truth: np.ndarray | None = None
    """Tampered only: the truth map (``uint8`` 0..255 or bool)."""
    pred: np.ndarray | None = None
    """Tampered only: mask (bool / int) or float map (probabilities; logits in pixar-release)."""
    pred_cls: int | None = None
    objects: Sequence[int] | None = None
    """Tampered only: truth class indices (None: no metadata, an empty truth vector)."""
    pred_objects: ObjPred | None = None


def objects_vector(pred: ObjPred | None) -> tuple[np.ndarray, list[int]]:
    """(multi-hot predicted set, class indices by rank) of an object prediction."""
    if pred is None:
        return np.zeros(N_CLASSES, dtype=bool), []
    if isinstance(pred, np.ndarray) and pred.dtype.kind in "fiu":
        s = pred.astype(np.float64).ravel()
        if s.size != N_CLASSES:
            raise ValueError(f"a class score vector needs {N_CLASSES} entries, got {s.size}")
        return s >= OBJ_THRESHOLD, [int(i) for i in np.argsort(-s, kind="stable")]
    ranking: list[int] = []
    for name in pred:
        c = canonical_class(str(name))
        if c is not None and CLASS_INDEX[c] not in ranking:
            ranking.append(CLASS_INDEX[c])
    return multi_hot(ranking), ranking


def _resize_nearest(pred: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    src = pred.astype(np.uint8) if pred.dtype == bool else pred
    out = cv2.resize(src, (shape[1], shape[0]), interpolation=cv2.INTER_NEAREST)
    return out.astype(bool) if pred.dtype == bool else out


class _Seg:
    """Segmentation blocks (all + size classes) of either convention."""

    def __init__(self, convention: str, threshold: float, bins: int) -> None:
        self.release = convention == "pixar-release"
        self.default = LocalizationAccumulator(threshold=threshold, bins=bins)
        self.blocks = {k: ReleaseSegmentation() for k in ("all", *SIZE_CLASSES)}
        self.kinds: set[str] = set()

    def truth(self, raw: np.ndarray) -> np.ndarray:
        if self.release:
            return release_truth(raw)
        return np.asarray(raw) != 0

    def add(self, t: np.ndarray, p: np.ndarray) -> None:
        self.kinds.add("score" if np.issubdtype(p.dtype, np.floating) else "mask")
        if not self.release:
            self.default.add(t, p)
            return
        self.blocks["all"].add(t, p)
        self.blocks[size_class(int(np.count_nonzero(t)))].add(t, p)

    def result(self) -> dict[str, Any]:
        if not self.release:
            return as_percent(self.default.result())
        out = self.blocks["all"].metrics()
        has_auc = self.blocks["all"].has_auc
        out["by_size"] = {k: self.blocks[k].metrics(has_auc) for k in SIZE_CLASSES}
        return as_percent(out)


def evaluate(
    items: Iterable[Item],
    convention: str = "default",
    threshold: float = 0.5,
    bins: int = DEFAULT_BINS,
) -> dict[str, Any]:
    """Score the items (streaming); percentages. See the module docstring."""
    if convention not in CONVENTIONS:
        raise ValueError(f"unknown convention {convention!r}; known: {', '.join(CONVENTIONS)}")
    seg = _Seg(convention, threshold, bins)
    images = ImageClassAccumulator()
    semantic = SemanticCounts()
    resized: list[str] = []
    missing: list[str] = []
    no_class: list[str] = []
    pending: list[tuple[str, np.ndarray]] = []
    order: list[str] = []  # the stems in the order segmented
    n_other = 0
    any_obj = False
    for it in items:
        if it.pred_cls is None:
            no_class.append(it.stem)
        else:
            images.add(it.cls, it.pred_cls)
        if it.cls != TAMPERED:
            n_other += 1
            continue
        if it.pred_objects is not None:
            any_obj = True
        predicted, ranking = objects_vector(it.pred_objects)
        semantic.add(multi_hot(it.objects or ()), predicted, ranking)
        if it.truth is None:
            raise ValueError(f"{it.stem}: a tampered image needs a truth map")
        t = seg.truth(it.truth)
        if it.pred is None:
            missing.append(it.stem)
            pending.append((it.stem, t))
            continue
        p = np.asarray(it.pred)
        if p.ndim == 3 and p.shape[2] == 1:
            p = p[:, :, 0]
        if p.ndim != 2:
            raise ValueError(f"{it.stem}: prediction must be 2-D, got shape {p.shape}")
        if p.shape != t.shape:
            p = _resize_nearest(p, t.shape)
            resized.append(it.stem)
        seg.add(t, p)
        order.append(it.stem)
    score_kind = seg.kinds == {"score"}
    for stem, t in pending:
        seg.add(t, np.zeros(t.shape, np.float32) if score_kind else np.zeros(t.shape, bool))
        order.append(stem)
    out = seg.result()
    if not seg.release:  # each pair's own IoU and F1 (the release's arithmetic keeps none)
        out["pairs"] = per_pair(order, seg.default.per_image)
    out.update(
        convention=convention, threshold=threshold, resized=resized, missing=missing,
        n_not_tampered=n_other,
    )  # fmt: skip
    cm = images.confusion
    if cm.sum():
        il = images.result()
        out["image_level"] = {
            "accuracy": 100.0 * il["accuracy"],
            "per_class": {
                k: {m: 100.0 * v for m, v in d.items()} for k, d in il["per_class"].items()
            },
            "confusion": il["confusion"],
            "classes": list(IMAGE_CLASSES),
            "n": il["n"],
            "no_prediction": no_class,
        }
        if out.get("ciou") is not None:
            out["combined_f1"] = 100.0 * combined_f1(
                out["ciou"] / 100.0, il["accuracy"], convention
            )
    if any_obj:
        sem = semantic.result(convention)
        out["semantic"] = {k: (v if k.startswith("n") else 100.0 * v) for k, v in sem.items()}
    return out


def read_pred_labels(path: str | Path) -> dict[str, dict[str, Any]]:
    """A JSONL of image-level predictions: ``{"image", "class"?, "objects"?}`` per line.

    ``image`` is the image's stem (or a path; its stem is used); ``class`` a class name or index
    (real / full_synthetic / tampered); ``objects`` a mapping class -> probability (81 classes,
    absent = 0) or a list of class names in rank order (each predicted). Raises
    :class:`PairsError` naming the file and line for a bad line.
    """
    p = Path(path)
    out: dict[str, dict[str, Any]] = {}
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise PairsError(f"{p}: cannot read ({exc})") from exc
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            stem = Path(str(rec["image"])).stem
            entry: dict[str, Any] = {}
            if rec.get("class") is not None:
                entry["class"] = image_class(rec["class"])
            obj = rec.get("objects")
            if isinstance(obj, Mapping):
                vec = np.zeros(N_CLASSES, dtype=np.float64)
                for name, score in obj.items():
                    c = canonical_class(str(name))
                    if c is None:
                        raise ValueError(f"unknown object class {name!r}")
                    vec[CLASSES.index(c)] = float(score)
                entry["objects"] = vec
            elif isinstance(obj, list):
                entry["objects"] = [str(x) for x in obj]
            elif obj is not None:
                raise ValueError("objects must be a mapping or a list")
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise PairsError(f"{p}:{n}: bad prediction line ({exc})") from exc
        if stem in out:
            raise PairsError(f"{p}:{n}: image {stem!r} repeats")
        out[stem] = entry
    return out
