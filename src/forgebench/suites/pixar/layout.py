"""PIXAR's release layout, as ``utils/PIXAR_Set.py`` (VILA-Lab/PIXAR) reads it.

A split folder (``<root>`` itself, or ``<root>/<split>``) holds::

    real/*.jpg|*.png              class 0 (Real)
    full_synthetic/*.png          class 1 (Full Synthetic)
    tampered/*.png                class 2 (Tampered)
    masks/<stem>_mask.png         hard mask (0/255) of tampered/<stem>.png
    soft_masks/<stem>_mask.png    soft mask (0..255); the hard mask stands in when absent
    metadata/<stem>_cls.json      {"cls": [class names or indices], "text": ...}

As in the released loader, a tampered image without ``masks/<stem>_mask.png`` is left out of the
evaluation (listed in ``no_mask``); unknown or unreadable metadata gives an empty class vector
(listed in ``no_metadata``). The *default* convention's truth is the hard mask (nonzero), the
*pixar-release* convention's the soft mask (see :mod:`forgebench.suites.pixar.release`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forgebench.run.executor import LocalExecutor
from forgebench.suites.pixar.evaluate import TAMPERED, Item, evaluate
from forgebench.suites.pixar.localization import DEFAULT_BINS
from forgebench.suites.pixar.pairs import PairsError
from forgebench.suites.pixar.scoring import index_files, load_scored, located
from forgebench.suites.pixar.taxonomy import CLASSES
from forgebench.util.jsonl import load_json_bounded

if TYPE_CHECKING:
    from forgebench.run.executor import Executor

CLASS_DIRS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("real", (".jpg", ".png")),
    ("full_synthetic", (".png",)),
    ("tampered", (".png",)),
)


@dataclass(frozen=True)
class ReleaseImage:
    """One image of a release split."""

    stem: str
    cls: int
    mask: Path | None = None
    soft_mask: Path | None = None
    metadata: Path | None = None


def split_dir(root: str | Path, split: str | None = None) -> Path:
    """The folder holding ``real/``, ``full_synthetic/`` and ``tampered/``."""
    base = Path(root)
    d = base / split if split else base
    if not d.is_dir():
        raise PairsError(f"{d}: no such dataset folder")
    missing = [name for name, _ in CLASS_DIRS if not (d / name).is_dir()]
    if missing:
        raise PairsError(
            f"{d}: not a PIXAR release split (missing {', '.join(m + '/' for m in missing)})"
        )
    return d


def list_release(
    root: str | Path, split: str | None = None
) -> tuple[list[ReleaseImage], list[str]]:
    """(images, tampered stems left out for want of a mask) of a release split."""
    d = split_dir(root, split)
    images: list[ReleaseImage] = []
    seen: dict[str, str] = {}
    no_mask: list[str] = []
    for cls, (name, suffixes) in enumerate(CLASS_DIRS):
        for p in sorted((d / name).iterdir()):
            if not (p.is_file() and p.suffix.lower() in suffixes):
                continue
            if p.stem in seen:
                raise PairsError(f"{d}: {seen[p.stem]}/ and {name}/ both hold {p.stem!r}")
            seen[p.stem] = name
            if cls != TAMPERED:
                images.append(ReleaseImage(p.stem, cls))
                continue
            mask = d / "masks" / f"{p.stem}_mask.png"
            if not mask.is_file():
                no_mask.append(p.stem)
                continue
            soft = d / "soft_masks" / f"{p.stem}_mask.png"
            meta = d / "metadata" / f"{p.stem}_cls.json"
            images.append(
                ReleaseImage(
                    p.stem, cls, mask, soft if soft.is_file() else None,
                    meta if meta.is_file() else None,
                )
            )  # fmt: skip
    return images, no_mask


def read_metadata_classes(path: Path | None) -> list[int] | None:
    """Class indices of ``metadata/<stem>_cls.json`` (names or indices); None if unreadable."""
    if path is None:
        return None
    try:
        meta = load_json_bounded(path.read_text(encoding="utf-8"))
        entries = meta.get("cls", [])
    except (OSError, ValueError, AttributeError):
        return None
    out: list[int] = []
    for c in entries if isinstance(entries, list) else []:
        if isinstance(c, str) and c in CLASSES:
            out.append(CLASSES.index(c))
        elif isinstance(c, int) and not isinstance(c, bool) and 0 <= c < len(CLASSES):
            out.append(c)
    return out


def score_release(
    root: str | Path,
    pred_dir: str | Path,
    split: str | None = None,
    pred_labels: Mapping[str, Mapping[str, Any]] | None = None,
    convention: str = "default",
    threshold: float = 0.5,
    bins: int = DEFAULT_BINS,
    executor: Executor | None = None,
) -> dict[str, Any]:
    """Score predictions (``<pred_dir>/<stem>.npy|png`` for tampered images, and image-level /
    object predictions in ``pred_labels``) against a PIXAR release split. Masks are decoded on
    ``executor`` (default: this process; ``run/executor.py``), evaluated here in order."""
    runner = executor if executor is not None else LocalExecutor()
    images, no_mask = list_release(root, split)
    preds = index_files(Path(pred_dir), (".png", ".npy"), "prediction")
    labels = pred_labels or {}
    release = convention == "pixar-release"
    no_meta: list[str] = []

    def job(im: Any) -> tuple[str | None, str | None, bool]:
        if im.cls != TAMPERED or im.mask is None:
            return None, None, release
        truth = (im.soft_mask or im.mask) if release else im.mask
        pred = preds.get(im.stem)
        return str(truth), str(pred) if pred is not None else None, release

    def items() -> Iterable[Item]:
        decoded = runner.map(load_scored, [job(im) for im in images])
        for im, (truth, pred) in zip(images, decoded, strict=True):
            lab = labels.get(im.stem, {})
            item = Item(im.stem, im.cls, pred_cls=lab.get("class"), pred_objects=lab.get("objects"))
            if im.cls == TAMPERED and im.mask is not None:
                item.truth, item.pred = truth, pred
                item.objects = read_metadata_classes(im.metadata)
                if item.objects is None:
                    no_meta.append(im.stem)
            yield item

    try:
        out = evaluate(items(), convention=convention, threshold=threshold, bins=bins)
    except ValueError as exc:
        raise PairsError(str(exc)) from exc
    tampered = {im.stem for im in images if im.cls == TAMPERED}
    out["extra"] = sorted(set(preds) - tampered)
    out["no_mask"] = no_mask
    out["no_metadata"] = no_meta
    masks = {im.stem: im.mask for im in images if im.mask is not None}
    located(out, masks, preds)
    return out
