"""Scoring a run's LOC answers: truth labels, parsed replies, verdicts and metrics.csv rows.

The truth of each pair is its pixel label at the item's ``tau`` (seed 003; the ``tau`` option
of ``metrics`` overrides the stored one), written to ``RUN/pixar/labels/<stem>.png`` (255
changed) all or nothing (:func:`.vlm_inputs.prepare_pairs`), read from PIXAR's packed label
cache (:class:`.labeling.LabelCache`) when the pair's files are unchanged since they were last
labelled: a second ``metrics`` pass decodes no image. Per model and pair
(:mod:`.probe` for the parser and the raster):

- the stored answer is read with :func:`parse_reply` and its boxes / polygons rasterized at the
  size of the image that was sent (the edited image; the prompt states that size, so a model
  that resized the image internally still answers in its coordinates). When the edited image's
  size differs from the original's, the mask is resized nearest-neighbour to the truth's size
  and the stem is listed under ``resized`` (as ``pixar score`` does);
- a **miss** is a pair without a usable answer: no stored answer (the task ended as an error or
  was never sent) or a reply holding no readable JSON object. A miss is scored as an empty
  prediction (IoU 0 on a non-empty truth), an empty class list and an empty description (CSS 0),
  and is counted: ``n_miss`` and ``miss`` (a percentage of the pairs, as Mandela's ``miss``);
- pixel metrics come from :func:`.scoring.score_arrays` (percentages; no AUC: a rasterized reply
  is a mask, not a score map); semantic top-1 / top-5 (percentages) over the pairs with a truth
  class, the reply's ``classes`` list being the ranked prediction; CSS (raw, as seed 003 Table 9)
  over the pairs with a reference description (an empty predicted description scores 0).

Each answer's verdict is stored (``LOCATED``: regions given; ``NOT_FOUND``: read, no region;
``MISS``: unreadable) with the pair's own IoU and pixel F1 (percentages) in its detail, for the
viewer and ``export``. Predicted masks are written as ``RUN/pixar/pred/<model>/<stem>.png``
(misses get no file), so ``forgebench pixar score --truth RUN/pixar/labels --pred ...``
reproduces the pixel metrics. The rows (probe ``LOC``, condition ``full``, plus ``miss``) replace
the PIXAR rows of the scored models only: rows of ``pixar score --out`` or of the demo's detector
for models without LOC tasks are kept. Under ``--convention imdl`` the same masks give the
``imdl_*`` rows instead (:mod:`.imdl`); each convention keeps the other's rows.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from forgebench.results.metrics_csv import write_metrics
from forgebench.run.store import Store
from forgebench.suites.base import SuiteError
from forgebench.suites.pixar.css import css_scores
from forgebench.suites.pixar.imdl import CONVENTION, ImdlAccumulator, imdl_rows, scope
from forgebench.suites.pixar.labeling import LabelCache
from forgebench.suites.pixar.loc_items import item_pair, item_reference, pairs_root, parse_tau
from forgebench.suites.pixar.localization import iou, pixel_f1
from forgebench.suites.pixar.pairs import Pair, PairsError, load_pairs, read_mask, write_label_png
from forgebench.suites.pixar.probe import PROBE_ID, LocReply, parse_reply, rasterize
from forgebench.suites.pixar.results import BENCHMARK, pixar_metrics_rows
from forgebench.suites.pixar.scoring import resize_nearest, score_arrays
from forgebench.suites.pixar.tamper_class import SemanticAccumulator
from forgebench.suites.pixar.vlm_inputs import PairImage, Reference, load_references, prepare_pairs
from forgebench.util.atomic import clean_stale, temp_name, write_text

if TYPE_CHECKING:
    from forgebench.run.executor import Executor

PARSER_VERSION = "pixar-loc/v1"
VERDICTS: tuple[str, ...] = ("LOCATED", "NOT_FOUND", "MISS")
"""The stored verdict of a LOC answer, in the viewer's order."""


@dataclass
class Scored:
    """One model's LOC results and the verdicts of its answers."""

    results: dict[str, Any]
    verdicts: list[tuple[str, str, dict[str, Any], str]] = field(default_factory=list)


def model_dirname(name: str) -> str:
    """A folder name for a model's predictions (the name itself when it is already safe)."""
    clean = re.sub(r"[^A-Za-z0-9._-]", "_", name)
    if clean == name and clean not in ("", ".", ".."):
        return clean
    return f"{clean}-{hashlib.sha1(name.encode('utf-8')).hexdigest()[:8]}"


def score_answers(
    images: Sequence[PairImage],
    answers: Mapping[str, tuple[str, str | None]],
    labels_dir: Path,
    references: Mapping[str, Reference] | None = None,
    pred_dir: Path | None = None,
    imdl: ImdlAccumulator | None = None,
) -> Scored:
    """Score one model over ``images``; ``answers``: stem -> (task key, answer text or None).

    Streams pair by pair: one truth map and one mask in memory at a time. ``imdl`` also receives
    every pair (truth, predicted mask at the truth's size) for the IMDL-BenCo convention.
    """
    refs = references or {}
    semantic = SemanticAccumulator()
    css_pred: list[str] = []
    css_ref: list[str] = []
    misses: list[str] = []
    unanswered: list[str] = []
    verdicts: list[tuple[str, str, dict[str, Any], str]] = []
    counts: list[tuple[str, int, int, int]] = []
    stage: Path | None = None
    if pred_dir is not None:
        pred_dir.parent.mkdir(parents=True, exist_ok=True)
        clean_stale(pred_dir.parent, pred_dir.name)  # what a killed scoring left
        stage = pred_dir.parent / temp_name(pred_dir.name, "scoring")
        stage.mkdir()

    def triples() -> Iterator[tuple[str, np.ndarray, np.ndarray | None]]:
        for im in images:
            key, text = answers[im.stem]
            reply = parse_reply(text) if text is not None else LocReply()
            if text is None:
                unanswered.append(im.stem)
            truth = read_mask(labels_dir / f"{im.stem}.png")
            mask: np.ndarray | None = None
            if reply.parsed:
                mask = rasterize(reply, im.height, im.width)
                if stage is not None:
                    write_label_png(mask, stage / f"{im.stem}.png")
            else:
                misses.append(im.stem)
            pred = _at_truth_size(truth, mask)
            if imdl is not None:  # the reply's own verdict is its image score, as a detector's
                flag = None if reply.tampered is None else float(reply.tampered)
                imdl.add(truth, pred, score=flag)
            t_px, p_px = int(np.count_nonzero(truth)), int(np.count_nonzero(pred))
            counts.append((im.stem, t_px, p_px, int(np.count_nonzero(truth & pred))))
            if text is not None:
                verdicts.append((key, *_verdict(reply, truth, pred), PARSER_VERSION))
            ref = refs.get(im.stem)
            if ref is not None and ref.classes:
                semantic.add(list(ref.classes), reply.classes)
            if ref is not None and ref.description:
                css_pred.append(reply.description)
                css_ref.append(ref.description)
            yield im.stem, truth, mask

    try:
        out = score_arrays(triples())
        if stage is not None and pred_dir is not None:
            if pred_dir.exists():
                shutil.rmtree(pred_dir)
            stage.replace(pred_dir)
            stage = None
    finally:
        if stage is not None:
            shutil.rmtree(stage, ignore_errors=True)
    n = len(images)
    out.update(n_pairs=n, misses=misses, n_miss=len(misses), unanswered=unanswered)
    out["pair_counts"] = counts
    out["miss"] = 100.0 * len(misses) / n if n else 0.0
    if semantic.n:
        sem = semantic.result()
        out.update(top1=100.0 * sem["top1"], top5=100.0 * sem["top5"], n_semantic=sem["n"])
    if css_ref:
        scores = css_scores(css_pred, css_ref)
        out["css"] = float(np.mean(scores))
        out["n_css"] = len(scores)
    return Scored(out, verdicts)


def _at_truth_size(truth: np.ndarray, mask: np.ndarray | None) -> np.ndarray:
    """The predicted mask as it is scored: empty for a miss, brought to the truth's size
    (nearest neighbour) when the edited image's differs."""
    if mask is None:
        return np.zeros(truth.shape, dtype=bool)
    if mask.shape != truth.shape:
        return resize_nearest(mask, truth.shape[0], truth.shape[1])
    return mask


def _verdict(reply: LocReply, truth: np.ndarray, pred: np.ndarray) -> tuple[str, dict[str, Any]]:
    """An answer's verdict and detail: the pair's IoU and pixel F1 against the truth (``pred``:
    the mask at the truth's size), the classes it named."""
    detail = {
        "iou": 100.0 * iou(truth, pred),
        "f1": 100.0 * pixel_f1(truth, pred),
        "classes": list(reply.classes),
        "regions": len(reply.boxes) + len(reply.polygons),
    }
    if not reply.parsed:
        return "MISS", detail
    return ("LOCATED" if detail["regions"] else "NOT_FOUND"), detail


COUNTS_DIR = "counts"
"""``RUN/pixar/counts/<model>.csv``: one row per scored pair."""


def write_pair_counts(
    run_dir: Path, model: str, counts: Sequence[tuple[str, int, int, int]]
) -> Path:
    """Write a model's per-pair pixel counts (stem, truth, pred, inter: changed truth pixels,
    predicted pixels, both), every pair as it was scored (a miss predicts nothing): gIoU and the
    pooled F1 are functions of their sums, so the report's bootstrap resamples them exactly."""
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["stem", "truth", "pred", "inter"])
    w.writerows(counts)
    path = run_dir / "pixar" / COUNTS_DIR / f"{model_dirname(model)}.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, buf.getvalue())
    return path


def miss_row(results: Mapping[str, Any], model: str, condition: str) -> dict[str, Any]:
    """The ``miss`` row of metrics.csv: percentage of pairs without a usable answer."""
    return {
        "benchmark": BENCHMARK, "model": model, "probe": PROBE_ID, "condition": condition,
        "subset": "all", "metric": "miss", "value": float(results["miss"]),
        "n": int(results["n_pairs"]), "judge": "",
    }  # fmt: skip


def score_run(
    run_dir: Path,
    options: Mapping[str, str] | None = None,
    *,
    models: Sequence[str] | None = None,
    executor: Executor | None = None,
) -> dict[str, dict[str, Any]]:
    """Score the run's LOC answers (every model, or ``models``): labels, verdicts, rows.

    Returns model name -> results (:func:`score_answers`); empty when the run has no LOC task.
    ``options``: ``tau`` and ``classes`` (a ``stem,class[,description]`` CSV) override what the
    items recorded; ``convention`` ``imdl`` writes the ``imdl_*`` rows (:mod:`.imdl`) instead of
    PIXAR's, each convention's rows kept when the other is scored. Raises :class:`SuiteError`
    (pairs gone, bad option values).
    """
    opts = options or {}
    convention = opts.get("convention") or "default"
    if convention not in ("default", CONVENTION):
        raise SuiteError(f"--convention: {convention!r} is not one of default, {CONVENTION}")
    with Store.open(run_dir, create=False) as store:
        outcomes = list(store.records(BENCHMARK, probes=[PROBE_ID]))
        if models is not None:
            outcomes = [o for o in outcomes if o.model in set(models)]
        if not outcomes:
            return {}
        settings = store.meta_get("pixar:settings") or {}
        source = (store.meta_get("datasets") or {}).get(BENCHMARK) or settings.get("pairs")
        stems = list(dict.fromkeys(o.item_id for o in outcomes))
        pairs, refs, taus = _pairs(stems, store.items(BENCHMARK), source)
        if not taus and settings.get("tau") is not None:
            taus = [float(settings["tau"])]
        tau = parse_tau(opts.get("tau") or (taus[0] if len(set(taus)) == 1 else None))
        classes = opts.get("classes") or (settings.get("classes") if not refs else None)
        try:
            if classes:
                refs = load_references(classes)
            labels_dir = run_dir / "pixar" / "labels"
            images = prepare_pairs(pairs, tau, labels_dir, executor=executor, cache=LabelCache())
        except PairsError as exc:
            raise SuiteError(str(exc)) from None
        results: dict[str, dict[str, Any]] = {}
        by_model: dict[str, dict[str, tuple[str, str | None]]] = {}
        for o in outcomes:
            by_model.setdefault(o.model, {})[o.item_id] = (o.key, o.text)
        rows: list[dict[str, Any]] = []
        for name, answers in by_model.items():
            mine = [im for im in images if im.stem in answers]
            pred_dir = run_dir / "pixar" / "pred" / model_dirname(name)
            imdl = ImdlAccumulator() if convention == CONVENTION else None
            scored = score_answers(mine, answers, labels_dir, refs, pred_dir, imdl)
            store.put_verdicts(scored.verdicts)
            write_pair_counts(run_dir, name, scored.results.pop("pair_counts"))
            results[name] = scored.results
            if imdl is not None:
                rows += imdl_rows(imdl.result(), name)
                continue
            rows += pixar_metrics_rows(scored.results, name)
            rows.append(miss_row(scored.results, name, "full"))
    write_metrics(run_dir, rows, scope(BENCHMARK, results, convention))
    return results


def _pairs(
    stems: list[str], items: Mapping[str, Mapping[str, Any]], source: str | None
) -> tuple[list[Pair], dict[str, Reference], list[float]]:
    """The pairs of ``stems`` from the stored items, their references and taus; LOC tasks
    without a stored item (a run that recorded only ``pixar:settings``) take their pairs from the
    recorded folder or CSV."""
    if not source:
        raise SuiteError("the run does not record its pairs (run it again with the pairs)")
    path = Path(source)
    if not path.exists():
        raise SuiteError(f"{path}: the run's pairs are gone (scoring needs the images)")
    root = pairs_root(path)
    found: dict[str, Pair] = {}
    if any(s not in items for s in stems):
        try:
            found = {p.stem: p for p in load_pairs(path)}
        except PairsError as exc:
            raise SuiteError(str(exc)) from None
    pairs: list[Pair] = []
    refs: dict[str, Reference] = {}
    taus: list[float] = []
    for s in stems:
        if s in items:
            pairs.append(item_pair(items[s], root))
            ref = item_reference(items[s])
            if ref is not None:
                refs[s] = ref
            if items[s].get("tau") is not None:
                taus.append(float(items[s]["tau"]))
        elif s in found:
            pairs.append(found[s])
        else:
            raise SuiteError(f"{path}: no pair {s!r} (the run asked about it)")
    return pairs, refs, taus
