"""PIXAR on a Mandela-format dataset: pixel labels of each forgery against its seed's original,
scored against a detector's score maps (the demo uses ``builtin/artefact``).

Every forged item whose seed has an authentic original is a pair. The truth is the pixel label
of seed 003 (mean absolute RGB difference > tau, ``construct/pixels.py``); the prediction is the
detector's score map in [0, 1]. Label maps and score maps are written under ``RUN/pixar/`` so
``forgebench pixar score --truth RUN/pixar/labels --pred RUN/pixar/pred`` reproduces the numbers,
and the rows go into ``RUN/metrics.csv`` with ``benchmark = pixar``.
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
from forgebench.suites.pixar.pairs import PairsError
from forgebench.suites.pixar.results import (
    pixar_metrics_rows,
    tables_from_rows,
    write_tables,
)
from forgebench.suites.pixar.scoring import score_arrays
from forgebench.util.jsonl import iter_jsonl
from forgebench.util.paths import outside_reason

ScoreMap = Callable[[np.ndarray], np.ndarray]


@dataclass
class PixarDemoResult:
    """What :func:`run_pixar` scored and wrote."""

    results: dict[str, Any]
    rows: list[dict[str, Any]]
    n_pairs: int
    tables: list[Path]


def _rgb(path: Path) -> np.ndarray:
    with Image.open(path) as im:
        return np.asarray(im.convert("RGB"))


def _pairs(root: Path) -> list[tuple[str, Path, Path]]:
    """(item id, original, forgery) of a Mandela-format ``items.jsonl``: each forged item whose
    seed has an authentic item."""
    rows: list[dict[str, Any]] = []
    path = root / "items.jsonl"
    for lineno, obj, error in iter_jsonl(path):
        if obj is None:
            raise PairsError(f"{path}:{lineno}: {error}")
        image = obj.get("image")
        why = outside_reason(root, image) if isinstance(image, str) else "no image path"
        if why is not None:
            raise PairsError(f"{path}:{lineno}: image: {why}")
        rows.append(obj)
    originals = {r.get("seed_id"): r for r in rows if r.get("label") == "authentic"}
    out = []
    for r in rows:
        orig = originals.get(r.get("seed_id"))
        if r.get("label") == "forged" and orig is not None:
            out.append((str(r["id"]), root / orig["image"], root / r["image"]))
    return out


def merge_metrics(run_dir: Path, rows: list[dict[str, Any]], benchmark: str) -> Path:
    """Replace ``benchmark``'s rows of the models in ``rows`` in ``RUN/metrics.csv``, keeping all others."""
    models = {str(r["model"]) for r in rows}
    return write_metrics(run_dir, rows, Scope.of(benchmark, models=models))


def run_pixar(
    dataset_root: Path,
    run_dir: Path,
    score_map: ScoreMap,
    *,
    model: str,
    tau: float = DEFAULT_TAU,
) -> PixarDemoResult:
    """Label every forgery against its original, score the detector's maps, write the results."""
    pairs = _pairs(Path(dataset_root).resolve())
    labels_dir = run_dir / "pixar" / "labels"
    pred_dir = run_dir / "pixar" / "pred"
    labels_dir.mkdir(parents=True, exist_ok=True)
    pred_dir.mkdir(parents=True, exist_ok=True)
    n = 0

    def triples() -> Iterator[tuple[str, np.ndarray, np.ndarray]]:
        nonlocal n
        for item_id, orig_path, edit_path in pairs:
            stem = safe_name(item_id)
            original, edited = _rgb(orig_path), _rgb(edit_path)
            label = label_u8(original, edited, tau)
            Image.fromarray(label).save(labels_dir / f"{stem}.png")
            if edited.shape[:2] != original.shape[:2]:
                edited = np.asarray(Image.fromarray(edited).resize(original.shape[1::-1]))
            pred = np.clip(score_map(edited).astype(np.float32), 0.0, 1.0)
            np.save(pred_dir / f"{stem}.npy", pred)
            n += 1
            yield stem, label != 0, pred

    results = score_arrays(triples())
    rows = pixar_metrics_rows(results, model)
    merge_metrics(run_dir, rows, "pixar")
    tables = write_tables(tables_from_rows(rows), run_dir / "report")
    return PixarDemoResult(results=results, rows=rows, n_pairs=n, tables=tables)
