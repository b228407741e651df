"""The demo's PIXAR part on a Mandela dataset: truth from the pixel difference, rows merged into
metrics.csv."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
from PIL import Image

from forgebench.demo.pixar import score_pixar, write_pixar
from forgebench.results.metrics_csv import Scope, write_metrics


def _dataset(root: Path) -> Path:
    (root / "images").mkdir(parents=True)
    base = np.full((64, 64, 3), 100, dtype=np.uint8)
    edited = base.copy()
    edited[10:20, 30:50] = 250  # 200 changed pixels
    Image.fromarray(base).save(root / "images" / "o.png")
    Image.fromarray(edited).save(root / "images" / "e.png")
    event = {"label": "E", "date": "2000-01-01"}
    items = [
        {
            "id": "orig",
            "seed_id": "s",
            "image": "images/o.png",
            "label": "authentic",
            "domain": "A1",
            "noun": "photograph",
            "event": event,
        },
        {
            "id": "fake",
            "seed_id": "s",
            "image": "images/e.png",
            "label": "forged",
            "family": "K2",
            "domain": "A1",
            "noun": "photograph",
            "saliency": "C1",
            "event": event,
            "edit": {"operation": "insert", "region": [30, 10, 50, 20]},
        },
    ]
    (root / "items.jsonl").write_text("".join(json.dumps(i) + "\n" for i in items))
    return root


def test_perfect_score_map_scores_100_and_keeps_other_rows(tmp_path: Path) -> None:
    ds = _dataset(tmp_path / "ds")
    run = tmp_path / "run"
    run.mkdir()
    write_metrics(
        run,
        [
            {
                "benchmark": "mandela",
                "model": "m",
                "probe": "L0",
                "condition": "full",
                "subset": "all",
                "metric": "det",
                "value": 50.0,
                "n": 2,
                "judge": "",
            }
        ],
        Scope("mandela"),
    )

    def oracle(rgb: np.ndarray) -> np.ndarray:
        return (rgb.astype(int).sum(axis=2) > 600).astype(np.float32)

    res = score_pixar(ds, run, oracle, model="oracle")
    write_pixar(run, res, model="oracle")
    assert res.n_pairs == 1
    assert res.results["giou"] == 100.0 and res.results["f1"] == 100.0
    label = np.asarray(Image.open(next((run / "pixar" / "labels").glob("*.png"))))
    assert int((label == 255).sum()) == 200
    with (run / "metrics.csv").open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert {r["benchmark"] for r in rows} == {"mandela", "pixar"}
    giou = next(
        r
        for r in rows
        if r["benchmark"] == "pixar" and r["metric"] == "giou" and r["subset"] == "all"
    )
    assert giou["model"] == "oracle" and float(giou["value"]) == 100.0

    # scoring again replaces the pixar rows rather than appending twice
    zeros = score_pixar(ds, run, lambda rgb: np.zeros(rgb.shape[:2], np.float32), model="oracle")
    write_pixar(run, zeros, model="oracle")
    with (run / "metrics.csv").open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    gious = [r for r in rows if r["metric"] == "giou" and r["subset"] == "all"]
    assert len(gious) == 1 and float(gious[0]["value"]) == 0.0
    assert sum(r["benchmark"] == "mandela" for r in rows) == 1


def test_the_demo_keeps_each_pairs_scores_and_pictures_in_the_store(tmp_path: Path) -> None:
    """The pair's IoU and F1 and where its truth, score map and edited image are, for the
    report's viewer (schema 10's ``pair_scores``)."""
    from forgebench.report.site_images import safe_name
    from forgebench.run.store import Store

    ds = _dataset(tmp_path / "ds")
    run = tmp_path / "run"

    def half(rgb: np.ndarray) -> np.ndarray:  # finds the left half of the edit only
        out = np.zeros(rgb.shape[:2], np.float32)
        out[10:20, 30:40] = 0.9
        return out

    write_pixar(run, score_pixar(ds, run, half, model="half"), model="half")
    with Store.open(run, create=False) as store:
        (kept,) = store.pair_scores("pixar")
    # the pair is named by its files' stem (the item id made safe as a file name)
    assert (kept.model, kept.pair, kept.threshold) == ("half", safe_name("fake"), 0.5)
    assert kept.iou == 50.0 and abs(kept.f1 - 200 / 3) < 1e-9
    assert Path(kept.truth).is_file() and Path(kept.pred or "").suffix == ".npy"
    assert kept.image == str(ds / "images" / "e.png")
