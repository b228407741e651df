"""Score predicted tamper maps against PIXAR truth label maps (files or arrays).

Predictions are mask PNGs (nonzero = tampered) or score maps (``.npy``, floats in [0, 1]) sharing
the truth maps' file stems. Every truth map is scored: a missing prediction counts as an empty
one (a score map of zeros when the other predictions are score maps) and is reported in
``missing``; a prediction whose size differs from its truth is resized nearest-neighbour and
reported in ``resized``. Metrics and their sources: :mod:`forgebench.suites.pixar.localization`.

The returned dictionary holds percentages (0-100, as the paper's tables) for every rate::

    {"giou", "ciou", "precision", "recall", "f1", "auc" (only when all predictions are score
     maps), "auc_tie_bound", "by_size": {"small": {...}, "medium": {...}, "large": {...}},
     "n_images", "threshold", "resized": [stems], "missing": [stems], "extra": [stems]}
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from forgebench.suites.pixar.localization import DEFAULT_BINS, LocalizationAccumulator, as_percent
from forgebench.suites.pixar.pairs import PairsError, read_mask, read_score_map


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
    for stem, truth, pred in items:
        t = np.asarray(truth)
        t = t if t.dtype == bool else t != 0
        if t.ndim != 2:
            raise ValueError(f"{stem}: truth must be 2-D, got shape {t.shape}")
        if pred is None:
            missing.append(stem)
            if acc.n_score_maps or acc.n_masks:
                acc.add(t, _empty_like(acc, t))
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
    for _, t in pending:
        acc.add(t, _empty_like(acc, t))
    out = as_percent(acc.result())
    out["threshold"] = threshold
    out["resized"] = resized
    out["missing"] = missing
    return out


def _empty_like(acc: LocalizationAccumulator, t: np.ndarray) -> np.ndarray:
    if acc.n_score_maps and not acc.n_masks:
        return np.zeros(t.shape, dtype=np.float32)
    return np.zeros(t.shape, dtype=bool)


def _index(folder: Path, suffixes: tuple[str, ...], what: str) -> dict[str, Path]:
    if not folder.is_dir():
        raise PairsError(f"{folder}: no such {what} folder")
    out: dict[str, Path] = {}
    for p in sorted(folder.iterdir()):
        if p.is_file() and p.suffix.lower() in suffixes:
            if p.stem in out:
                raise PairsError(f"{folder}: two {what} files for the stem {p.stem!r}")
            out[p.stem] = p
    return out


def score_folder(
    truth_dir: str | Path,
    pred_dir: str | Path,
    threshold: float = 0.5,
    bins: int = DEFAULT_BINS,
) -> dict[str, Any]:
    """Score a folder of predictions (``<stem>.png`` masks or ``<stem>.npy`` score maps) against
    a folder of truth label maps (``<stem>.png``). Raises :class:`PairsError` for bad input."""
    truths = _index(Path(truth_dir), (".png",), "truth")
    if not truths:
        raise PairsError(f"{truth_dir}: no truth label maps (*.png)")
    preds = _index(Path(pred_dir), (".png", ".npy"), "prediction")
    extra = sorted(set(preds) - set(truths))

    def items() -> Iterable[tuple[str, np.ndarray, np.ndarray | None]]:
        for stem, tpath in truths.items():
            truth = read_mask(tpath)
            ppath = preds.get(stem)
            if ppath is None:
                yield stem, truth, None
            elif ppath.suffix.lower() == ".npy":
                yield stem, truth, read_score_map(ppath)
            else:
                yield stem, truth, read_mask(ppath)

    out = score_arrays(items(), threshold=threshold, bins=bins)
    out["extra"] = extra
    return out
