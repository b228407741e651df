"""PIXAR pairs scored from files (``pixar score --out RUN``, the demo's detector) kept in the run
store, pair by pair (:mod:`forgebench.run.store.pairs`, schema 10), so that the report's item
viewer shows each with its truth and predicted masks, as it shows the LOC answers of a model
asked (:mod:`.facets.viewer`). The per-pair IoU and pixel F1 are those the scoring computed
(:func:`.localization.per_pair`: percentages, seed 003's per-image IoU behind gIoU)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from forgebench.run.store import PairScore, Store

BENCHMARK = "pixar"


def keep_pair_scores(
    run_dir: Path, model: str, pairs: Iterable[Mapping[str, Any]], threshold: float
) -> int:
    """Store the scored ``pairs`` (``{"pair", "iou", "f1", "truth", "pred", "image"?}``) of
    ``model`` in ``RUN``'s store (made when there is none), replacing that model's earlier
    ones; how many were stored. Raises :class:`~forgebench.run.store.StoreError` (one line)."""
    rows = [
        PairScore(
            model=model,
            pair=str(p["pair"]),
            iou=float(p["iou"]),
            f1=float(p["f1"]),
            truth=str(p["truth"]),
            pred=str(p["pred"]) if p.get("pred") else None,
            image=str(p["image"]) if p.get("image") else None,
            threshold=threshold,
        )
        for p in pairs
        if p.get("truth")  # a pair without a truth map file has nothing to show
    ]
    with Store.open(run_dir) as store:
        return store.put_pair_scores(BENCHMARK, model, rows)
