"""``forgebench audit DATASET``: the metadata-leakage audit and the pixel-detector audit.

Pixel-detector audit (seed 000 §3.2 and Appendix C: "NPR and UniversalFakeDetect remain near chance
(AUC 0.577 and 0.538), with true-positive rates of 0.00% and 7.28% at 5% false positives"):
every item is scored by a detector, and forged (K0 controls included) are compared with
authentic items: AUC, and the TPR at 5% FPR, overall and per family (each family's forged items
against all authentic items). TPR at 5% FPR is the largest TPR on the ROC curve
(``sklearn.metrics.roc_curve``) among the thresholds whose FPR is at most 0.05.

Detectors: ``builtin/artefact`` (the offline error-level detector of
:mod:`forgebench.models.builtin.artefact`; its score is the most suspicious block's score) and
``ufd/CLIP_DIR@FC_FILE`` (UniversalFakeDetect from checkpoints on disk,
:mod:`forgebench.construct.detectors_ufd`) and ``npr/CKPT.pth`` (NPR from its released state dict,
:mod:`forgebench.construct.detectors_npr`). It writes ``npr_score`` and ``ufd_score`` only for
the detectors that ran, ``artefact_score`` and the measured footprint (``footprint_measured``: the share of pixels that differ, d(p) > 0.05, between a forged
image and its seed's authentic image outside the bounding box of the largest connected component
of that difference; :mod:`forgebench.construct.gates`) when asked to (``--write``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from PIL import Image

from forgebench.construct.audit_meta import metadata_audit
from forgebench.construct.gates import footprint_gate
from forgebench.errors import UserError
from forgebench.models.builtin.artefact import analyse
from forgebench.run.executor import LocalExecutor
from forgebench.suites.mandela.contract import Item, write_items
from forgebench.suites.mandela.validate import validate_dataset

if TYPE_CHECKING:
    from forgebench.run.executor import Executor

DETECTORS = ("builtin/artefact", "ufd/CLIP_DIR@FC_FILE", "npr/CKPT.pth")
"""Detectors this version can run."""


def _rgb(path: Path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB"))


def detector(name: str) -> Callable[[np.ndarray], float]:
    """The scoring function of a detector; ``ValueError`` for one this version lacks."""
    if name == "builtin/artefact":
        return lambda rgb: float(analyse(rgb).score)
    try:
        if name.startswith("ufd/"):
            # lazy: the checkpoint detectors need torch, an optional extra
            from forgebench.construct.detectors_ufd import load_ufd

            return load_ufd(name.removeprefix("ufd/"))
        if name.startswith("npr/"):
            # lazy: the checkpoint detectors need torch, an optional extra
            from forgebench.construct.detectors_npr import load_npr

            return load_npr(name.removeprefix("npr/"))
    except ImportError as exc:
        raise ValueError(
            f"detector {name}: needs {exc.name or 'torch'} (pip install 'forgebench[text]')"
        ) from None
    raise ValueError(f"unknown detector {name!r} (available: {', '.join(DETECTORS)})")


def score_field(name: str) -> str:
    """The item field a detector's score is written to (``ufd_score``, ``artefact_score``)."""
    if name.startswith(("ufd/", "npr/")):
        return name[:3] + "_score"
    return name.split("/", 1)[-1] + "_score"


def auc_tpr(y: Sequence[int], s: Sequence[float], fpr_at: float = 0.05) -> tuple[float, float]:
    """(AUC, TPR at ``fpr_at`` FPR); NaN when a class is missing."""
    from sklearn.metrics import roc_auc_score, roc_curve

    yy = np.asarray(y, int)
    if len(set(yy.tolist())) < 2:
        return float("nan"), float("nan")
    fpr, tpr, _ = roc_curve(yy, np.asarray(s, float))
    return float(roc_auc_score(yy, s)), float(tpr[fpr <= fpr_at + 1e-12].max())


def pixel_audit(items: Sequence[Item], scores: dict[str, float]) -> dict[str, Any]:
    """AUC and TPR@5%FPR overall and per family (forged = 1, authentic = 0)."""
    auth = [it for it in items if it.label == "authentic"]
    out: dict[str, Any] = {}
    y = [int(it.is_forged) for it in items]
    auc, tpr = auc_tpr(y, [scores[it.id] for it in items])
    out["all"] = {"auc": auc, "tpr_at_5fpr": tpr, "n_forged": sum(y), "n_authentic": len(auth)}
    for fam in sorted({it.family for it in items if it.family}):
        part = [it for it in items if it.family == fam] + auth
        yy = [int(it.is_forged) for it in part]
        a, t = auc_tpr(yy, [scores[it.id] for it in part])
        out[fam] = {"auc": a, "tpr_at_5fpr": t, "n_forged": sum(yy), "n_authentic": len(auth)}
    return out


def footprint_of(job: tuple[str, str, list[int]]) -> float:
    """``footprint_measured`` of one forged image against its authentic one (runs on an
    executor's workers)."""
    original, forged, region = job
    a, b = _rgb(Path(original)), _rgb(Path(forged))
    return float(footprint_gate(a, b, list(region)).details["footprint_measured"])


def measured_footprints(
    root: Path, items: Sequence[Item], executor: Executor | None = None
) -> dict[str, float]:
    """``footprint_measured`` of each forged item against its seed's authentic image."""
    originals = {it.seed_id: it.image for it in items if it.label == "authentic"}
    forged = [it for it in items if it.is_forged and it.seed_id in originals]
    jobs = [
        (
            str(root / originals[it.seed_id]),
            str(root / it.image),
            list(it.edit.region if it.edit else [0, 0, 0, 0]),
        )
        for it in forged
    ]
    runner = executor if executor is not None else LocalExecutor()
    return {it.id: v for it, v in zip(forged, runner.map(footprint_of, jobs), strict=True)}


@functools.lru_cache(maxsize=4)
def _loaded(name: str) -> Callable[[np.ndarray], float]:
    """A detector loaded once per process (a worker loads NPR / UFD weights once)."""
    return detector(name)


def score_image(job: tuple[str, str]) -> float:
    """One image's score by one detector (runs on an executor's workers)."""
    name, path = job
    return float(_loaded(name)(_rgb(Path(path))))


def run_audit(
    root: Path, items: Sequence[Item], detectors: Sequence[str] = DETECTORS,
    progress: Callable[[int, int], None] | None = None, executor: Executor | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Both audits on a validated dataset's items. Detector scores and measured footprints are
    computed on ``executor`` (default: this process; ``run/executor.py``), which returns them
    in item order: the audit's numbers do not depend on where they ran."""
    runner = executor if executor is not None else LocalExecutor()
    for name in detectors:  # an unknown name is refused before any work
        if name != "builtin/artefact" and not name.startswith(("ufd/", "npr/")):
            detector(name)
    paths = [root / it.image for it in items]
    meta = metadata_audit(paths, [int(it.is_forged) for it in items], [it.seed_id for it in items])
    pix: dict[str, Any] = {}
    scores: dict[str, dict[str, float]] = {}
    for name in detectors:
        scores[name] = {}
        jobs = [(name, str(root / it.image)) for it in items]
        for i, (it, score) in enumerate(zip(items, runner.map(score_image, jobs), strict=True)):
            scores[name][it.id] = score
            if progress:
                progress(i + 1, len(items))
        pix[name] = pixel_audit(items, scores[name])
    return {
        "metadata": meta,
        "pixel": pix,
        "scores": scores,
        "footprint_measured": measured_footprints(root, items, runner),
    }


class AuditError(UserError):
    """A dataset or detector the audit cannot use (one line)."""


def audit_dataset(
    dataset: Path, detectors: Sequence[str], write: bool, executor: Executor | None = None
) -> dict[str, Any]:
    """Validate ``dataset``, run both audits (:func:`run_audit`) and, with ``write``, store the
    detector scores and measured footprints in its ``items.jsonl``; the result carries
    ``written`` (that file, or None) and ``fields`` (the item fields written)."""
    for d in detectors:
        if d != "builtin/artefact" and not d.startswith(("ufd/", "npr/")):
            raise AuditError(f"unknown detector {d!r} (available: {', '.join(DETECTORS)})")
    if not (dataset / "items.jsonl").is_file():
        raise AuditError(
            f"{dataset / 'items.jsonl'}: not found (a dataset folder holds items.jsonl)"
        )
    report = validate_dataset(dataset)
    if report.errors:
        raise AuditError(
            f"{dataset}: {len(report.errors)} validation error(s); run forgebench validate"
        )
    items = report.items
    try:
        res = run_audit(dataset, items, detectors, executor=executor)
    except ValueError as exc:
        raise AuditError(str(exc)) from None
    res["written"] = None
    if write:
        col = {d: score_field(d) for d in detectors}
        for it in items:
            for d, name in col.items():
                setattr(it, name, res["scores"][d][it.id])
            if it.id in res["footprint_measured"]:
                it.footprint_measured = res["footprint_measured"][it.id]
        write_items(dataset / "items.jsonl", items)
        res["written"] = str(dataset / "items.jsonl")
        res["fields"] = list(col.values())
    return res
