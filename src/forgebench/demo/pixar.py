"""The demo's PIXAR part: pixel labels of each forgery of a Mandela-format dataset against its
seed's original, scored against a detector's score maps (the demo uses ``builtin/artefact``).

Every forged item whose seed has an authentic original is a pair. The truth is the pixel label
of seed 003 (mean absolute RGB difference > tau, ``construct/pixels.py``); the prediction is the
detector's score map in [0, 1]. Label maps and score maps are written under ``RUN/pixar/`` so
``forgebench pixar score --truth RUN/pixar/labels --pred RUN/pixar/pred`` reproduces the numbers,
and the rows go into ``RUN/metrics.csv`` with ``benchmark = pixar`` (the detector's rows: the
PIXAR section of ``forgebench report`` shows them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from forgebench.construct.pixels import DEFAULT_TAU, label_u8
from forgebench.report.site_images import safe_name
from forgebench.results.metrics_csv import Scope, write_metrics
from forgebench.suites.mandela.contract import Dataset, load_dataset
from forgebench.suites.pixar.results import BENCHMARK, pixar_metrics_rows
from forgebench.suites.pixar.scoring import score_arrays
from forgebench.util.atomic import atomic_open

ScoreMap = Callable[[np.ndarray], np.ndarray]


@dataclass
class PixarDemoResult:
    """What :func:`score_pixar` scored (its rows go to metrics.csv by :func:`write_pixar`)."""

    results: dict[str, Any]
    rows: list[dict[str, Any]]
    n_pairs: int


def _rgb(path: Path) -> np.ndarray:
    with Image.open(path) as im:
        return np.asarray(im.convert("RGB"))


def _pairs(ds: Dataset) -> Iterator[tuple[str, Path, Path]]:
    originals = {it.seed_id: it for it in ds.items if it.label == "authentic"}
    for it in ds.items:
        orig = originals.get(it.seed_id)
        if it.label == "forged" and orig is not None:
            yield it.id, ds.root / orig.image, ds.root / it.image


def score_pixar(
    dataset_root: Path,
    run_dir: Path,
    score_map: ScoreMap,
    *,
    model: str,
    tau: float = DEFAULT_TAU,
) -> PixarDemoResult:
    """Label every forgery against its original and score the detector's maps; the label and
    score maps are written (each file whole or not at all), metrics.csv is left to
    :func:`write_pixar`. Nothing here reads the run's answers, so it may run before them."""
    ds = load_dataset(dataset_root)
    labels_dir = run_dir / "pixar" / "labels"
    pred_dir = run_dir / "pixar" / "pred"
    labels_dir.mkdir(parents=True, exist_ok=True)
    pred_dir.mkdir(parents=True, exist_ok=True)
    n = 0

    def triples() -> Iterator[tuple[str, np.ndarray, np.ndarray]]:
        nonlocal n
        for item_id, orig_path, edit_path in _pairs(ds):
            stem = safe_name(item_id)
            original, edited = _rgb(orig_path), _rgb(edit_path)
            label = label_u8(original, edited, tau)
            with atomic_open(labels_dir / f"{stem}.png", "wb", durable=False) as fh:
                Image.fromarray(label).save(fh, format="PNG")
            if edited.shape[:2] != original.shape[:2]:
                edited = np.asarray(Image.fromarray(edited).resize(original.shape[1::-1]))
            pred = np.clip(score_map(edited).astype(np.float32), 0.0, 1.0)
            with atomic_open(pred_dir / f"{stem}.npy", "wb", durable=False) as fh:
                np.save(fh, pred)
            n += 1
            yield stem, label != 0, pred

    results = score_arrays(triples())
    return PixarDemoResult(results=results, rows=pixar_metrics_rows(results, model), n_pairs=n)


def write_pixar(run_dir: Path, scored: PixarDemoResult, *, model: str) -> None:
    """The rows of :func:`score_pixar` into ``RUN/metrics.csv`` (replacing that model's PIXAR
    rows only)."""
    write_metrics(run_dir, scored.rows, Scope.of(BENCHMARK, models=[model], exclude="imdl_"))
