"""Score predicted tamper maps against PIXAR truth label maps (files or arrays).

Predictions are mask PNGs (nonzero = tampered) or score maps (``.npy``, floats in [0, 1]) sharing
the truth maps' file stems. Only tampered images are segmented (VILA-Lab/PIXAR
``test_parallel.py``); each image's class comes from an explicit input (:func:`read_classes`, or
the release layout in :mod:`forgebench.suites.pixar.layout`), and without one every truth map is
a tampered image. A missing prediction counts as an empty
one (a score map of zeros when the other predictions are score maps) and is reported in
``missing``; a prediction whose size differs from its truth is resized nearest-neighbour and
reported in ``resized``. Metrics and their sources: :mod:`forgebench.suites.pixar.localization`.

The returned dictionary holds percentages (0-100, as the paper's tables) for every rate::

    {"giou", "ciou", "precision", "recall", "f1", "auc" (only when all predictions are score
     maps), "auc_tie_bound", "by_size": {"small": {...}, "medium": {...}, "large": {...}},
     "n_images" (tampered images segmented), "n_not_tampered", "threshold", "convention",
     "resized": [stems], "missing": [stems], "extra": [stems],
     "image_level" and "combined_f1" (with image-level predictions), "semantic" (with object
     predictions), "pairs": [{"pair", "iou", "f1"}] (each tampered image's own, default
     convention only)}
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from forgebench.run.executor import LocalExecutor
from forgebench.suites.pixar.evaluate import TAMPERED, Item, evaluate
from forgebench.suites.pixar.localization import (
    DEFAULT_BINS,
    LocalizationAccumulator,
    as_percent,
    per_pair,
)
from forgebench.suites.pixar.pairs import PairsError, read_gray, read_mask, read_score_map
from forgebench.suites.pixar.tamper_class import image_class

if TYPE_CHECKING:
    from forgebench.run.executor import Executor


def resize_nearest(pred: np.ndarray, height: int, width: int) -> np.ndarray:
    """``pred`` (bool, integer or float map) resized to ``height x width``, nearest neighbour."""
    if pred.shape == (height, width):
        return pred
    src = pred.astype(np.uint8) if pred.dtype == bool else pred
    out = cv2.resize(src, (width, height), interpolation=cv2.INTER_NEAREST)
    return out.astype(bool) if pred.dtype == bool else out


def score_arrays(
    items: Iterable[tuple[str, np.ndarray, np.ndarray | None]],
    threshold: float = 0.5,
    bins: int = DEFAULT_BINS,
) -> dict[str, Any]:
    """Score ``(stem, truth_mask, prediction)`` triples, one at a time (streaming).

    ``prediction`` is a mask (bool / integer, nonzero = tampered), a float score map in [0, 1],
    or None (missing: an empty prediction). Returns percentages (see the module docstring).
    """
    acc = LocalizationAccumulator(threshold=threshold, bins=bins)
    resized: list[str] = []
    missing: list[str] = []
    pending: list[tuple[str, np.ndarray]] = []  # missing predictions, scored once the kind is known
    order: list[str] = []  # the stems in the order the accumulator scored them
    for stem, truth, pred in items:
        t = np.asarray(truth)
        t = t if t.dtype == bool else t != 0
        if t.ndim != 2:
            raise ValueError(f"{stem}: truth must be 2-D, got shape {t.shape}")
        if pred is None:
            missing.append(stem)
            if acc.n_score_maps or acc.n_masks:
                acc.add(t, _empty_like(acc, t))
                order.append(stem)
            else:
                pending.append((stem, t))
            continue
        p = np.asarray(pred)
        if p.ndim == 3 and p.shape[2] == 1:
            p = p[:, :, 0]
        if p.ndim != 2:
            raise ValueError(f"{stem}: prediction must be 2-D, got shape {p.shape}")
        if p.shape != t.shape:
            p = resize_nearest(p, t.shape[0], t.shape[1])
            resized.append(stem)
        acc.add(t, p)
        order.append(stem)
    for stem, t in pending:
        acc.add(t, _empty_like(acc, t))
        order.append(stem)
    out = as_percent(acc.result())
    out["pairs"] = per_pair(order, acc.per_image)
    out["threshold"] = threshold
    out["resized"] = resized
    out["missing"] = missing
    return out


def _empty_like(acc: LocalizationAccumulator, t: np.ndarray) -> np.ndarray:
    if acc.n_score_maps and not acc.n_masks:
        return np.zeros(t.shape, dtype=np.float32)
    return np.zeros(t.shape, dtype=bool)


def index_files(folder: Path, suffixes: tuple[str, ...], what: str) -> dict[str, Path]:
    """Files of ``folder`` with the given suffixes by stem; two files per stem is an error."""
    if not folder.is_dir():
        raise PairsError(f"{folder}: no such {what} folder")
    out: dict[str, Path] = {}
    for p in sorted(folder.iterdir()):
        if p.is_file() and p.suffix.lower() in suffixes:
            if p.stem in out:
                raise PairsError(f"{folder}: two {what} files for the stem {p.stem!r}")
            out[p.stem] = p
    return out


def read_classes(path: str | Path) -> dict[str, int]:
    """A CSV ``image,class`` (class: real / full_synthetic / tampered or 0 / 1 / 2) -> stem: index."""
    p = Path(path)
    try:
        with p.open(newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            fields = [f.strip() for f in (reader.fieldnames or [])]
            if "image" not in fields or "class" not in fields:
                raise PairsError(f"{p}: needs the columns image,class (found {fields})")
            rows = [{(k or "").strip(): (v or "").strip() for k, v in r.items()} for r in reader]
    except (OSError, UnicodeDecodeError) as exc:
        raise PairsError(f"{p}: cannot read as a UTF-8 CSV ({exc})") from exc
    out: dict[str, int] = {}
    for line, row in enumerate(rows, start=2):
        stem = Path(row.get("image", "")).stem
        if not stem:
            raise PairsError(f"{p}:{line}: empty image")
        if stem in out:
            raise PairsError(f"{p}:{line}: image {stem!r} repeats")
        raw = row.get("class", "")
        try:
            out[stem] = image_class(int(raw) if raw.isdigit() else raw)
        except ValueError as exc:
            raise PairsError(f"{p}:{line}: {exc}") from exc
    return out


def read_prediction(path: Path | None, bounded: bool) -> np.ndarray | None:
    """A ``.npy`` score map or a mask PNG, or None."""
    if path is None:
        return None
    if path.suffix.lower() == ".npy":
        return read_score_map(path, bounded=bounded)
    return read_mask(path)


def load_scored(
    job: tuple[str | None, str | None, bool],
) -> tuple[np.ndarray | None, np.ndarray | None]:
    """One image's truth map and prediction, decoded (``(None, None)`` for an image without a
    truth map); runs on an executor's workers."""
    tpath, ppath, release = job
    if tpath is None:
        return None, None
    truth = read_gray(tpath) if release else read_mask(tpath)
    return truth, read_prediction(Path(ppath) if ppath else None, bounded=not release)


def score_folder(
    truth_dir: str | Path,
    pred_dir: str | Path,
    threshold: float = 0.5,
    bins: int = DEFAULT_BINS,
    classes: Mapping[str, int] | None = None,
    pred_labels: Mapping[str, Mapping[str, Any]] | None = None,
    convention: str = "default",
    executor: Executor | None = None,
) -> dict[str, Any]:
    """Score a folder of predictions (``<stem>.png`` masks or ``<stem>.npy`` score maps) against
    a folder of truth label maps (``<stem>.png``). Raises :class:`PairsError` for bad input.

    ``classes`` (stem -> 0 real, 1 fully synthetic, 2 tampered) names every image's class; only
    tampered images are segmented (VILA-Lab/PIXAR ``test_parallel.py``), and a real or fully
    synthetic image needs no truth map. Without it every truth map is a tampered image (what
    ``pixar label`` writes). ``pred_labels`` (:func:`~forgebench.suites.pixar.evaluate.
    read_pred_labels`) adds the image-level and semantic metrics. Files are decoded on
    ``executor`` (default: this process; ``run/executor.py``) and evaluated here in class order,
    so every executor gives the same numbers.
    """
    runner = executor if executor is not None else LocalExecutor()
    truths = index_files(Path(truth_dir), (".png",), "truth")
    if not truths:
        raise PairsError(f"{truth_dir}: no truth label maps (*.png)")
    preds = index_files(Path(pred_dir), (".png", ".npy"), "prediction")
    if classes is None:
        classes = dict.fromkeys(truths, TAMPERED)
    no_truth = sorted(s for s, c in classes.items() if c == TAMPERED and s not in truths)
    if no_truth:
        raise PairsError(
            f"{truth_dir}: no truth map for tampered image(s) {', '.join(no_truth[:5])}"
        )
    unclassed = sorted(set(truths) - set(classes))
    if unclassed:
        raise PairsError(f"truth maps without a class: {', '.join(unclassed[:5])}")
    labels = pred_labels or {}
    extra = sorted(set(preds) - {s for s, c in classes.items() if c == TAMPERED})
    release = convention == "pixar-release"

    def items() -> Iterable[Item]:
        order = list(classes.items())
        jobs = [
            (
                str(truths[stem]) if cls == TAMPERED else None,
                str(preds[stem]) if cls == TAMPERED and stem in preds else None,
                release,
            )
            for stem, cls in order
        ]
        decoded = runner.map(load_scored, jobs)
        for (stem, cls), (truth, pred) in zip(order, decoded, strict=True):
            lab = labels.get(stem, {})
            item = Item(stem, cls, pred_cls=lab.get("class"), pred_objects=lab.get("objects"))
            if cls == TAMPERED:
                item.truth, item.pred = truth, pred
            yield item

    try:
        out = evaluate(items(), convention=convention, threshold=threshold, bins=bins)
    except ValueError as exc:
        raise PairsError(str(exc)) from exc
    out["extra"] = extra
    located(out, truths, preds)
    return out


def located(out: dict[str, Any], truths: Mapping[str, Path], preds: Mapping[str, Path]) -> None:
    """Each of ``out["pairs"]`` with the paths of its truth map and prediction (each None where
    there is none),
    for the run store (``pixar score --out``: :mod:`forgebench.run.store.pairs`)."""
    for rec in out.get("pairs", ()):
        truth = truths.get(rec["pair"])
        rec["truth"] = str(truth) if truth is not None else None
        pred = preds.get(rec["pair"])
        rec["pred"] = str(pred) if pred is not None else None
