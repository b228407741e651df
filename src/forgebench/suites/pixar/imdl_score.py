"""``pixar score`` under ``--convention imdl``, and IMDL-BenCo manifests under every convention.

Sources of truth (the ones ``pixar score`` takes): a folder of truth maps (``--truth``, with or
without ``--classes``), a PIXAR release split (``--dataset FOLDER``) or an IMDL-BenCo manifest
(``--dataset MANIFEST.json``, :mod:`.manifest`). Predictions: ``--pred`` ``<stem>.png`` masks or
``<stem>.npy`` score maps, a missing one scored as an empty map (listed in ``missing``), one of
another size resized nearest-neighbour (listed in ``resized``), as under PIXAR's own convention.
Under ``imdl`` the image score is the detector's own where ``--pred-labels`` gives one
(``{"image", "score"}`` per line), else the maximum of its map (:mod:`.imdl`).

Labels under ``imdl``: a manifest's as IMDL-BenCo derives them (:func:`.manifest.read_truth`); a
release split's tampered images (with a mask) are tampered, the others authentic; a truth folder's
images are tampered when ``--classes`` says so, without it when their map has a changed pixel.
Under PIXAR's conventions a manifest's tampered images are class 2 (segmented) and the others
class 0 (real), fed to :func:`.evaluate.evaluate` as a release split's are.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from forgebench.run.executor import LocalExecutor
from forgebench.suites.pixar.evaluate import TAMPERED, Item, evaluate, read_pred_labels
from forgebench.suites.pixar.imdl import THRESHOLD, ImdlAccumulator, summary_lines
from forgebench.suites.pixar.layout import list_release
from forgebench.suites.pixar.manifest import ManifestEntry, read_manifest, read_truth
from forgebench.suites.pixar.pairs import PairsError, read_mask
from forgebench.suites.pixar.scoring import (
    index_files,
    located,
    read_classes,
    read_prediction,
    resize_nearest,
)

if TYPE_CHECKING:
    from forgebench.run.executor import Executor

Job = tuple[str, str | None, str | None, str | None]
"""(stem, truth path, prediction path, manifest image path or "" for a plain mask)."""


def read_image_scores(path: str | Path) -> dict[str, float]:
    """The ``score`` of each line of a ``--pred-labels`` JSONL (``{"image", "score"}``; lines
    without a score are skipped); :class:`PairsError` names the line of a bad one."""
    p = Path(path)
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise PairsError(f"{p}: cannot read ({exc})") from None
    out: dict[str, float] = {}
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            if not isinstance(rec, dict) or rec.get("score") is None:
                continue
            stem = Path(str(rec["image"])).stem
            score = float(rec["score"])
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise PairsError(f"{p}:{n}: bad prediction line ({exc})") from None
        if not np.isfinite(score):
            raise PairsError(f"{p}:{n}: score is not a finite number")
        out[stem] = score
    return out


def _load(job: Job) -> tuple[np.ndarray | None, bool, np.ndarray | None]:
    """(truth, tampered, prediction) of one image; runs on an executor's workers."""
    stem, truth_path, pred_path, image_path = job
    pred = read_prediction(Path(pred_path), bounded=True) if pred_path else None
    if image_path:  # a manifest entry
        entry = ManifestEntry(stem, Path(image_path), Path(truth_path) if truth_path else None)
        truth, label = read_truth(entry)
        return truth, label, pred
    if truth_path is None:
        return None, False, pred
    truth = read_mask(truth_path)
    return truth, bool(truth.any()), pred


def _sized(
    stem: str, truth: np.ndarray | None, pred: np.ndarray | None, resized: list[str]
) -> np.ndarray | None:
    if pred is None or truth is None or pred.shape == truth.shape:
        return pred
    if pred.ndim != 2:
        raise PairsError(f"{stem}: prediction must be 2-D, got shape {pred.shape}")
    resized.append(stem)
    return resize_nearest(pred, truth.shape[0], truth.shape[1])


def _jobs(
    truth_dir: Path | None,
    dataset: Path | None,
    split: str | None,
    classes: Mapping[str, int] | None,
    preds: Mapping[str, Path],
) -> tuple[list[Job], dict[str, bool | None]]:
    """The images to score and, per stem, a label fixed by the source (None: from the mask)."""
    fixed: dict[str, bool | None] = {}
    jobs: list[Job] = []

    def pred_of(stem: str) -> str | None:
        return str(preds[stem]) if stem in preds else None

    if dataset is not None and dataset.suffix.lower() == ".json":
        for e in read_manifest(dataset):
            jobs.append((e.stem, str(e.mask) if e.mask else None, pred_of(e.stem), str(e.image)))
            fixed[e.stem] = None
        return jobs, fixed
    if dataset is not None:
        images, _ = list_release(dataset, split)
        for im in images:
            tampered = im.cls == TAMPERED and im.mask is not None
            mask = str(im.mask) if tampered else None
            jobs.append((im.stem, mask, pred_of(im.stem), None))
            fixed[im.stem] = tampered
        return jobs, fixed
    assert truth_dir is not None
    truths = index_files(truth_dir, (".png",), "truth")
    if not truths:
        raise PairsError(f"{truth_dir}: no truth label maps (*.png)")
    if classes is None:
        for stem, path in truths.items():
            jobs.append((stem, str(path), pred_of(stem), None))
            fixed[stem] = None
        return jobs, fixed
    no_truth = sorted(s for s, c in classes.items() if c == TAMPERED and s not in truths)
    if no_truth:
        raise PairsError(
            f"{truth_dir}: no truth map for tampered image(s) {', '.join(no_truth[:5])}"
        )
    for stem, cls in classes.items():
        tampered = cls == TAMPERED
        jobs.append((stem, str(truths[stem]) if tampered else None, pred_of(stem), None))
        fixed[stem] = tampered
    return jobs, fixed


def score_imdl(
    pred_dir: str | Path,
    *,
    truth_dir: str | Path | None = None,
    dataset: str | Path | None = None,
    split: str | None = None,
    classes: Mapping[str, int] | None = None,
    image_scores: Mapping[str, float] | None = None,
    threshold: float = THRESHOLD,
    executor: Executor | None = None,
) -> dict[str, Any]:
    """IMDL-BenCo's numbers (:meth:`.imdl.ImdlAccumulator.result`) of the predictions in
    ``pred_dir`` against one source (module docstring), plus ``missing``, ``resized`` and
    ``extra`` (predictions of no scored image). Raises :class:`PairsError` for bad input."""
    runner = executor if executor is not None else LocalExecutor()
    preds = index_files(Path(pred_dir), (".png", ".npy"), "prediction")
    jobs, fixed = _jobs(
        Path(truth_dir) if truth_dir is not None else None,
        Path(dataset) if dataset is not None else None,
        split, classes, preds,
    )  # fmt: skip
    scores = image_scores or {}
    acc = ImdlAccumulator(threshold=threshold)
    missing: list[str] = []
    resized: list[str] = []
    for job, (truth, label, pred) in zip(jobs, runner.map(_load, jobs), strict=True):
        stem = job[0]
        tampered = fixed[stem] if fixed[stem] is not None else label
        if pred is None and tampered:
            missing.append(stem)
        pred = _sized(stem, truth, pred, resized)
        acc.add(truth, pred, tampered=tampered, score=scores.get(stem))
    out = acc.result()
    out.update(missing=missing, resized=resized, extra=sorted(set(preds) - set(fixed)))
    return out


def score_manifest(
    manifest: str | Path,
    pred_dir: str | Path,
    *,
    pred_labels: Mapping[str, Mapping[str, Any]] | None = None,
    convention: str = "default",
    threshold: float = 0.5,
    executor: Executor | None = None,
) -> dict[str, Any]:
    """A manifest scored under PIXAR's ``default`` or ``pixar-release`` convention
    (:func:`.evaluate.evaluate`): tampered images class 2, the others class 0."""
    runner = executor if executor is not None else LocalExecutor()
    preds = index_files(Path(pred_dir), (".png", ".npy"), "prediction")
    entries = read_manifest(manifest)
    jobs: list[Job] = [
        (e.stem, str(e.mask) if e.mask else None,
         str(preds[e.stem]) if e.stem in preds else None, str(e.image))
        for e in entries
    ]  # fmt: skip
    labels = pred_labels or {}

    def items() -> Iterator[Item]:
        for e, (truth, tampered, pred) in zip(entries, runner.map(_load, jobs), strict=True):
            lab = labels.get(e.stem, {})
            item = Item(e.stem, TAMPERED if tampered else 0, pred_cls=lab.get("class"),
                        pred_objects=lab.get("objects"))  # fmt: skip
            if tampered:
                assert truth is not None
                item.truth = np.where(truth, 255, 0).astype(np.uint8)
                item.pred = pred
            yield item

    try:
        out = evaluate(items(), convention=convention, threshold=threshold)
    except ValueError as exc:
        raise PairsError(str(exc)) from exc
    out["extra"] = sorted(set(preds) - {e.stem for e in entries})
    masks = {e.stem: Path(e.mask) for e in entries if e.mask}
    located(out, masks, preds)
    images = {e.stem: str(e.image) for e in entries}
    for rec in out.get("pairs", ()):  # the manifest names each pair's edited image
        rec["image"] = images.get(rec["pair"])
    return out


def for_cli(
    truth: Path | None,
    dataset: Path | None,
    split: str | None,
    pred: Path,
    classes: Path | None,
    pred_labels: Path | None,
    convention: str,
    threshold: float,
    executor: Executor | None,
) -> dict[str, Any]:
    """``pixar score`` under ``imdl`` (any source) or on a manifest (any convention)."""
    if convention != "imdl":
        assert dataset is not None
        labels = read_pred_labels(pred_labels) if pred_labels is not None else None
        return score_manifest(
            dataset, pred, pred_labels=labels, convention=convention, threshold=threshold,
            executor=executor,
        )  # fmt: skip
    return score_imdl(
        pred, truth_dir=truth, dataset=dataset, split=split,
        classes=read_classes(classes) if classes is not None else None,
        image_scores=read_image_scores(pred_labels) if pred_labels is not None else None,
        threshold=threshold, executor=executor,
    )  # fmt: skip


def lines(result: Mapping[str, Any]) -> list[str]:
    """What ``pixar score`` prints of an ``imdl`` result."""
    out = summary_lines(result)
    for key, what in (
        ("missing", "no prediction (scored as empty)"),
        ("resized", "prediction resized (nearest neighbour)"),
        ("extra", "prediction of no listed image (ignored)"),
    ):
        if result.get(key):
            names = ", ".join(result[key][:10]) + (" ..." if len(result[key]) > 10 else "")
            out.append(f"{what}: {len(result[key])}: {names}")
    return out
