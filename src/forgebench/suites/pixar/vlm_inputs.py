"""Inputs of PIXAR's LOC scoring: truth label maps and the reference classes/descriptions.

Truth (seed 003, ``construct/pixels.py``): the pixel label at tau of each (original, edited) pair,
written to ``RUN/pixar/labels/<stem>.png`` (255 changed, 0 unchanged), all or nothing: the maps
are computed into a hidden staging folder and moved into place only when every pair decoded.
The size of each edited image (OpenCV ``IMREAD_COLOR``, the same decoding as the truth) comes
back with it: the raster size of the model's reply.

References (``--classes CSV``): columns ``stem,class[,description]``. ``class`` is one of PIXAR's
81 classes (80 COCO + ``background``; synonyms and plurals as :func:`canonical_class` reads
them), several separated by ``;`` for multi-edit images (a top-k hit is any of them, as
:class:`SemanticAccumulator` counts); empty = no truth class (the image is left out of top-1 /
top-5). ``description`` is the reference sentence for CSS; empty or absent = none (left out of
CSS). Rows whose stem is not among the pairs are ignored; a stem listed twice is refused.
"""

from __future__ import annotations

import csv
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from forgebench.run.executor import LocalExecutor
from forgebench.suites.pixar.labeling import LabelCache, sized_pair_labels
from forgebench.suites.pixar.pairs import Pair, PairsError, encode_label_png
from forgebench.suites.pixar.taxonomy import canonical_class
from forgebench.util.atomic import clean_stale, temp_name

if TYPE_CHECKING:
    from forgebench.run.executor import Executor


@dataclass(frozen=True)
class PairImage:
    """One labelled pair and the size of its edited image (the prompt's, the raster's)."""

    pair: Pair
    width: int
    """Width of the edited image in pixels."""
    height: int
    """Height of the edited image in pixels."""

    @property
    def stem(self) -> str:
        """The pair's stem (the edited file's), its item id in the store."""
        return self.pair.stem


@dataclass(frozen=True)
class Reference:
    """What ``--classes`` says about one edited image."""

    classes: tuple[str, ...]
    """Canonical truth classes (empty: none given)."""
    description: str
    """Reference description ('' when none was given)."""


def pair_label(
    files: tuple[str, str], tau: float, cache: LabelCache | None = None
) -> tuple[bytes, int, int]:
    """One pair's truth label-map PNG bytes and the edited image's width and height (runs on
    an executor's workers); from ``cache`` when it holds the pair's map, else decoded and
    stored there."""
    (label,), (h, w) = sized_pair_labels(files[0], files[1], (tau,), cache)
    return encode_label_png(label), int(w), int(h)


def prepare_pairs(
    pairs: Sequence[Pair],
    tau: float,
    labels_dir: Path,
    on_pair: Callable[[Pair], None] | None = None,
    executor: Executor | None = None,
    cache: LabelCache | None = None,
) -> list[PairImage]:
    """Write every pair's truth label map into ``labels_dir`` (all or nothing) and describe
    the edited images. Raises :class:`PairsError` (an image that does not decode, a bad file).
    With ``cache``, a pair whose files are unchanged since it was labelled is read from there
    instead of decoded.

    Stale maps of other stems in ``labels_dir`` are rewritten or left alone (only the given
    stems are read).
    Decoding and labelling run on ``executor`` (default: this process; ``run/executor.py``);
    this process writes the maps.
    """
    runner = executor if executor is not None else LocalExecutor()
    top = labels_dir  # the outermost folder this call creates (removed again on failure)
    while not top.parent.exists() and top.parent != top:
        top = top.parent
    created = not top.exists()
    try:
        labels_dir.mkdir(parents=True, exist_ok=True)
        clean_stale(labels_dir.parent, labels_dir.name)  # what a killed call left
        stage = labels_dir.parent / temp_name(labels_dir.name, "labelling")
        stage.mkdir()
    except OSError as exc:
        raise PairsError(f"{labels_dir}: cannot create ({exc.strerror or exc})") from None
    out: list[PairImage] = []
    ok = False
    try:
        jobs = [(str(p.original), str(p.edited)) for p in pairs]
        results = runner.map(partial(pair_label, tau=tau, cache=cache), jobs)
        for pair, (png, w, h) in zip(pairs, results, strict=True):
            (stage / f"{pair.stem}.png").write_bytes(png)
            out.append(PairImage(pair, w, h))
            if on_pair is not None:
                on_pair(pair)
        for p in out:
            (stage / f"{p.stem}.png").replace(labels_dir / f"{p.stem}.png")
        ok = True
    except OSError as exc:
        raise PairsError(f"{labels_dir}: cannot write label maps ({exc.strerror or exc})") from None
    finally:
        shutil.rmtree(stage, ignore_errors=True)
        if not ok and created:
            shutil.rmtree(top, ignore_errors=True)
    return out


def load_references(path: str | Path) -> dict[str, Reference]:
    """Read a ``stem,class[,description]`` CSV (see the module docstring); :class:`PairsError`."""
    p = Path(path)
    if not p.is_file():
        raise PairsError(f"{p}: no such classes CSV file")
    try:
        with p.open(newline="", encoding="utf-8-sig") as fh:
            reader = csv.DictReader(fh)
            fields = [(f or "").strip() for f in (reader.fieldnames or [])]
            if "stem" not in fields or "class" not in fields:
                raise PairsError(
                    f"{p}: needs the columns stem,class[,description] (found {fields})"
                )
            rows = [{(k or "").strip(): (v or "").strip() for k, v in r.items()} for r in reader]
    except UnicodeDecodeError as exc:
        raise PairsError(f"{p}: not a UTF-8 CSV file ({exc.reason})") from None
    except OSError as exc:
        raise PairsError(f"{p}: cannot read ({exc.strerror or exc})") from None
    out: dict[str, Reference] = {}
    seen: dict[str, int] = {}
    for line, row in enumerate(rows, start=2):
        stem = row.get("stem", "")
        if not stem:
            raise PairsError(f"{p}:{line}: empty stem")
        if stem in seen:
            raise PairsError(f"{p}:{line}: stem {stem!r} repeats line {seen[stem]}")
        seen[stem] = line
        classes: list[str] = []
        for name in (n.strip() for n in row.get("class", "").split(";")):
            if not name:
                continue
            c = canonical_class(name)
            if c is None:
                raise PairsError(
                    f"{p}:{line}: class {name!r} is not one of the 80 COCO classes or background"
                )
            if c not in classes:
                classes.append(c)
        out[stem] = Reference(tuple(classes), row.get("description", "") or "")
    return out
