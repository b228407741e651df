"""IMDL-BenCo's own evaluators on a small deterministic manifest: the reference figures that
``tests/suites/pixar/test_pixar_imdl.py`` holds forgebench's ``--convention imdl`` to.

Runs in an environment of its own (never the project's; the tests never need it)::

    python3 -m venv /work/wt/imdl-venv
    /work/wt/imdl-venv/bin/pip install --find-links /opt/wheels torch==2.13.0 "numpy<2" imdlbenco
    /work/wt/imdl-venv/bin/python benchmarks/imdlbenco_reference.py [--out tests/fixtures/imdl_reference]

It writes the manifest dataset (``Tp/``, ``Au/`` images, ``Gt/`` masks, ``pred/<stem>.npy``
score maps, ``manifest.json``: IMDL-BenCo's ``JsonDataset`` format) from a fixed seed, then
``reference.json``: per tampered image, ``PixelF1``, ``PixelIOU``, ``PixelAUC`` and
``PixelAccuracy`` (``mode="origin"`` and ``mode="double"``, the polarity-free variant) of
``IMDLBenCo/evaluation/{F1,IOU,AUC,Accuracy}.py``, their means over the tampered images, and
``ImageF1``, ``ImageAUC`` and ``ImageAccuracy`` over every image (score = the map's maximum, an
image without a prediction 0), each evaluator's ``epoch_update`` inside a one-process ``gloo``
group on CPU; with the versions of imdlbenco and torch.

The masks are read as ``IMDLBenCo/datasets/abstract_dataset.py`` reads them (RGB, mean of the
channels > 127.5; label 1 when the mask has a nonzero pixel, 0 for ``"Negative"``). The maps have
no score shared by a tampered and an untampered pixel (IMDL-BenCo's per-image AUC does not group
ties, so a tied map's figure depends on torch's sort order); a few untampered pixels of ``t3``
score exactly 0.5, where the origin and inverted thresholds differ. ``ties/`` holds four binary
prediction masks (every score tied, as a VLM's rasterized answer) and ``PixelAUC``'s figure for
each (``pixel_auc_binary_masks``): there IMDL-BenCo's value depends on the order its sort leaves
the ties in, and forgebench's (ties counted half, as scikit-learn) differs on purpose; the test
checks ours against scikit-learn there and records the gap.

The evaluator modules are loaded from the installed package without running
``IMDLBenCo/__init__.py``: that file imports the model zoo and with it torchvision, and the only
torchvision pip could get beside torch 2.13.0+cpu (0.28.0) does not load its operators against
it (``RuntimeError: operator torchvision::nms does not exist``). The evaluators themselves import
only torch, numpy, scikit-learn and ``training_scripts/utils/misc.py``.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import socket
import sys
import types
from importlib.metadata import version
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

SEED = 20261206
THRESHOLD = 0.5


def _load_evaluators() -> dict[str, Any]:
    spec = importlib.util.find_spec("IMDLBenCo")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("imdlbenco is not installed in this environment")
    root = Path(next(iter(spec.submodule_search_locations)))
    for name, sub in (
        ("IMDLBenCo", ""),
        ("IMDLBenCo.evaluation", "evaluation"),
        ("IMDLBenCo.training_scripts", "training_scripts"),
        ("IMDLBenCo.training_scripts.utils", "training_scripts/utils"),
    ):
        mod = types.ModuleType(name)
        mod.__path__ = [str(root / sub) if sub else str(root)]
        sys.modules[name] = mod
    mods = {
        n: importlib.import_module(f"IMDLBenCo.evaluation.{n}")
        for n in ("F1", "IOU", "AUC", "Accuracy")
    }
    return {
        "PixelF1": mods["F1"].PixelF1, "PixelIOU": mods["IOU"].PixelIOU,
        "PixelAUC": mods["AUC"].PixelAUC, "PixelAccuracy": mods["Accuracy"].PixelAccuracy,
        "ImageF1": mods["F1"].ImageF1, "ImageAUC": mods["AUC"].ImageAUC,
        "ImageAccuracy": mods["Accuracy"].ImageAccuracy,
    }  # fmt: skip


def _ranked(raw: np.ndarray) -> np.ndarray:
    """Distinct float32 scores in (0, 1) in the order of ``raw``."""
    order = np.argsort(raw.ravel(), kind="stable")
    ranks = np.empty(raw.size, dtype=np.int64)
    ranks[order] = np.arange(raw.size)
    return ((ranks + 1) / (raw.size + 1)).reshape(raw.shape).astype(np.float32)


def _blob(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    y0, x0 = int(rng.integers(2, h // 2)), int(rng.integers(2, w // 2))
    out = np.zeros((h, w), dtype=bool)
    out[y0 : y0 + int(rng.integers(4, h // 2)), x0 : x0 + int(rng.integers(5, w // 2))] = True
    return out


def build(out: Path) -> list[dict[str, Any]]:
    """Write the dataset; return its entries (stem, kind, paths)."""
    rng = np.random.default_rng(SEED)
    for d in ("Tp", "Au", "Gt", "pred"):
        (out / d).mkdir(parents=True, exist_ok=True)
    entries: list[dict[str, Any]] = []

    def image(path: Path, h: int, w: int) -> None:
        Image.fromarray(rng.integers(0, 256, (h, w, 3), dtype=np.uint8)).save(path)

    specs = [  # stem, (h, w), how the map relates to the truth, how the mask is drawn
        ("t0", (24, 32), "good", "hard"),
        ("t1", (24, 32), "inverted", "hard"),
        ("t2", (24, 32), "weak", "hard"),
        ("t3", (24, 32), "half", "hard"),
        ("t4", (20, 28), "noisy", "grey"),
        ("t5", (24, 32), "good", "rgb"),
        ("t6", (24, 32), "noisy", "faint"),
        ("t7", (30, 18), "good", "hard"),
    ]
    for stem, (h, w), how, drawn in specs:
        truth = _blob(rng, h, w)
        image(out / "Tp" / f"{stem}.png", h, w)
        if drawn == "hard":
            mask = np.where(truth, 255, 0).astype(np.uint8)
        elif drawn == "grey":  # 200 inside, 100 around it: only the 200s are tampered
            mask = np.where(truth, 200, 0).astype(np.uint8)
            mask[np.roll(truth, 3, axis=1) & ~truth] = 100
        elif drawn == "faint":  # nonzero (label 1) but nowhere above 127.5: no tampered pixel
            mask = np.where(truth, 60, 0).astype(np.uint8)
            truth = np.zeros_like(truth)
        else:  # rgb: channels differ, the mean decides
            mask = np.zeros((h, w, 3), dtype=np.uint8)
            mask[truth] = (255, 200, 0)
            mask[np.roll(truth, 2, axis=0) & ~truth] = (255, 0, 0)
        Image.fromarray(mask).save(out / "Gt" / f"{stem}.png")
        noise = rng.normal(size=(h, w))
        signal = {"good": 2.5, "inverted": -2.5, "weak": 1.5, "half": 2.0, "noisy": 0.5}[how]
        scores = _ranked(noise + signal * truth)
        if how == "weak":
            scores = scores * np.float32(0.45)
        if how == "half":
            flat = np.flatnonzero(~truth.ravel())
            scores.ravel()[rng.choice(flat, 6, replace=False)] = np.float32(0.5)
        np.save(out / "pred" / f"{stem}.npy", scores)
        entries.append({"stem": stem, "image": f"Tp/{stem}.png", "mask": f"Gt/{stem}.png"})
    for i, peak in enumerate((0.3, 0.8, 0.55, None)):
        stem = f"n{i}"
        image(out / "Au" / f"{stem}.png", 24, 32)
        if peak is not None:
            scores = _ranked(rng.normal(size=(24, 32))) * np.float32(peak)
            np.save(out / "pred" / f"{stem}.npy", scores)
        entries.append({"stem": stem, "image": f"Au/{stem}.png", "mask": "Negative"})
    manifest = [[e["image"], e["mask"]] for e in entries]
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return entries


def _read_truth(out: Path, entry: dict[str, Any]) -> tuple[np.ndarray, int]:
    """As ``abstract_dataset.py``: RGB, mean > 127.5; label = any nonzero (``Negative``: 0)."""
    size = Image.open(out / entry["image"]).convert("RGB").size
    if entry["mask"] == "Negative":
        return np.zeros((size[1], size[0]), dtype=np.float32), 0
    rgb = np.array(Image.open(out / entry["mask"]).convert("RGB"))
    label = 0 if np.all(rgb == 0) else 1
    return (np.mean(rgb, axis=2) > 127.5).astype(np.float32), label


def tied_maps(out: Path) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """Binary prediction masks (every score tied: what a VLM's rasterized answer is), written as
    ``ties/<case>_truth.png`` and ``ties/<case>_pred.png``."""
    rng = np.random.default_rng(SEED + 1)
    (out / "ties").mkdir(parents=True, exist_ok=True)
    cases = []
    for i in range(4):
        truth = np.zeros((64, 96), dtype=bool)
        truth[10:40, 20:60] = True
        if i == 0:
            pred = np.zeros_like(truth)
            pred[15:45, 25:70] = True
        else:
            pred = (rng.random(truth.shape) < 0.3) | (truth & (rng.random(truth.shape) < 0.5))
        for name, arr in (("truth", truth), ("pred", pred)):
            Image.fromarray(np.where(arr, 255, 0).astype(np.uint8)).save(
                out / "ties" / f"case{i}_{name}.png"
            )
        cases.append((f"case{i}", truth, pred))
    return cases


def reference(out: Path, entries: list[dict[str, Any]]) -> dict[str, Any]:
    import torch
    import torch.distributed as dist

    ev = _load_evaluators()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("gloo", rank=0, world_size=1)
    try:
        pixel = {
            (name, mode): ev[cls](threshold=THRESHOLD, mode=mode)
            for name, cls in (("f1", "PixelF1"), ("iou", "PixelIOU"), ("auc", "PixelAUC"),
                              ("acc", "PixelAccuracy"))
            for mode in ("origin", "double")
        }  # fmt: skip
        image = {n: ev[c](threshold=THRESHOLD) for n, c in (
            ("f1", "ImageF1"), ("auc", "ImageAUC"), ("acc", "ImageAccuracy"))}  # fmt: skip
        per_image: dict[str, dict[str, Any]] = {}
        scores: dict[str, float] = {}
        for e in entries:
            truth, label = _read_truth(out, e)
            p = out / "pred" / f"{e['stem']}.npy"
            pred = np.load(p) if p.is_file() else np.zeros(truth.shape, dtype=np.float32)
            predict = torch.from_numpy(pred.astype(np.float32))[None, None]
            mask = torch.from_numpy(truth)[None, None]
            score = predict.flatten(1).max(dim=1).values  # the image score: the map's maximum
            scores[e["stem"]] = float(score.item())
            for ie in image.values():
                ie.batch_update(predict_label=score, label=torch.tensor([float(label)]))
            if label != 1:
                continue
            values = {}
            for (name, mode), pe in pixel.items():
                v = pe.batch_update(predict=predict, mask=mask)
                values[name if mode == "origin" else f"{name}_free"] = float(v[0])
            per_image[e["stem"]] = values
        ties = {}
        for case, truth_b, pred_b in tied_maps(out):
            v = pixel["auc", "origin"].batch_update(
                predict=torch.from_numpy(pred_b.astype(np.float32))[None, None],
                mask=torch.from_numpy(truth_b.astype(np.float32))[None, None],
            )
            ties[case] = float(v[0])
        names = sorted({k for v in per_image.values() for k in v})
        means = {k: float(np.mean([v[k] for v in per_image.values()])) for k in names}
        image_figs = {n: float(ie.epoch_update()) for n, ie in image.items()}
    finally:
        dist.destroy_process_group()
    return {
        "imdlbenco": version("imdlbenco"),
        "torch": torch.__version__,
        "numpy": np.__version__,
        "threshold": THRESHOLD,
        "seed": SEED,
        "evaluators": "IMDLBenCo/evaluation/F1.py PixelF1, ImageF1; IOU.py PixelIOU; AUC.py "
        "PixelAUC, ImageAUC; Accuracy.py PixelAccuracy, ImageAccuracy (mode origin / double)",
        "pixel_per_image": per_image,
        "pixel_mean": means,
        "n_tampered": len(per_image),
        "image_scores": scores,
        "image": image_figs,
        "n_images": len(entries),
        "pixel_auc_binary_masks": ties,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=Path("tests/fixtures/imdl_reference"))
    args = ap.parse_args()
    entries = build(args.out)
    ref = reference(args.out, entries)
    (args.out / "reference.json").write_text(json.dumps(ref, indent=1, sort_keys=True) + "\n")
    print(f"imdlbenco {ref['imdlbenco']} (torch {ref['torch']}): {ref['n_tampered']} tampered "
          f"of {ref['n_images']} images")  # fmt: skip
    for k, v in ref["pixel_mean"].items():
        print(f"  pixel {k:9s} {v:.6f}")
    for k, v in ref["image"].items():
        print(f"  image {k:9s} {v:.6f}")
    for k, v in ref["pixel_auc_binary_masks"].items():
        print(f"  PixelAUC of a binary mask, ties/{k}: {v:.6f}")


if __name__ == "__main__":
    main()
