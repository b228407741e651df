"""The PIXAR suite (seed 003) behind the seam: (original, edited) pairs, pixel labels at tau, the
``LOC`` probe and localization metrics.

A PIXAR dataset is a pairs folder (``original/`` + ``edited/``, files matched by stem) or a CSV
``original,edited``. ``forgebench run PAIRS --model SPEC --out RUN`` asks every model the LOC probe
about each edited image through the engine's runner and store (:mod:`.loc_items`);
``forgebench metrics RUN`` labels the pairs, parses the replies and writes the ``pixar`` rows
(:mod:`.loc_score`); ``report``, ``merge`` and ``export`` take them like any suite's. PIXAR has
no judge stage. Its own options: ``--tau`` (the truth's pixel-label threshold) and ``--classes``
(truth classes and reference descriptions, for top-1 / top-5 and CSS), given to ``run`` (stored
with the items) or to ``metrics`` (overriding what was stored). The sub-commands ``forgebench
pixar label | score | run`` are its commands facet; the rest of its facets are files under
:mod:`.facets` (dataset, prompts, tables, report, viewer, export, commands, construction).
``outcome``: a LOC answer is right with IoU >= 0.5 (:mod:`.outcome`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from forgebench.suites.base import (
    Headline,
    Loaded,
    Outcome,
    Protocol,
    Selection,
    Suite,
    SuiteOption,
    lazy,
)

if TYPE_CHECKING:
    from forgebench.run.images import VariantCache
    from forgebench.run.tasks import Question

_load_items = lazy("forgebench.suites.pixar.loc_items:load_items")
_loc_questions = lazy("forgebench.suites.pixar.loc_items:loc_questions")
_score_run = lazy("forgebench.suites.pixar.loc_score:score_run")
_outcome = lazy("forgebench.suites.pixar.outcome:outcome")

TAU = SuiteOption(
    "tau",
    "PIXAR: threshold of the truth pixel labels (mean absolute RGB difference, default 0.05).",
    ("run", "metrics"),
)
CLASSES = SuiteOption(
    "classes",
    "PIXAR: CSV stem,class[,description] (truth classes and reference descriptions: top-k, CSS).",
    ("run", "metrics"),
)
CONVENTION = SuiteOption(
    "convention",
    "PIXAR: also score under IMDL-BenCo's convention (imdl: rows imdl_pixel_* and imdl_image_*"
    " beside PIXAR's; default: PIXAR's rows).",
    ("metrics",),
    choices=("default", "imdl"),
)


def is_pairs(path: Path) -> bool:
    """Whether ``path`` names PIXAR pairs: a folder with ``original/`` and ``edited/``, or a CSV
    whose header has the columns ``original`` and ``edited``. Every command given a dataset asks
    each suite before it knows which one it is, so this reads one line and imports nothing."""
    if path.is_dir():
        return (path / "original").is_dir() and (path / "edited").is_dir()
    if path.is_file() and path.suffix.lower() == ".csv":
        try:
            with path.open(encoding="utf-8-sig") as fh:
                header = fh.readline()
        except (OSError, UnicodeDecodeError):
            return False
        names = {h.strip() for h in header.split(",")}
        return {"original", "edited"} <= names
    return False


class PixarSuite(Suite):
    """PIXAR: pixel-level tamper maps and localization metrics."""

    name = "pixar"
    title = "PIXAR (seed 003)"
    protocol = Protocol(("LOC",), ("full",), {}, (TAU, CLASSES, CONVENTION))
    source = "(original, edited) image pairs: a pairs folder or a CSV original,edited"
    headline = tuple(Headline("LOC", "full", m) for m in ("giou", "f1", "auc"))
    """Localization: gIoU, F1 and AUC over every pair."""
    facets: ClassVar[Mapping[str, str]] = {
        "demo": ".facets.demo:DEMO",
        "dataset": ".facets.dataset:DATASET",
        "prompts": ".facets.prompts:PROMPTS",
        "tables": ".facets.tables:TABLES",
        "report": ".facets.report:REPORT",
        "viewer": ".facets.viewer:VIEWER",
        "export": ".facets.export:EXPORT",
        "commands": ".facets.commands:COMMANDS",
        "construction": ".facets.construction:CONSTRUCTION",
    }

    def detect(self, path: Path) -> bool:
        return is_pairs(path)

    def load(self, path: Path, selection: Selection) -> Loaded:
        loaded: Loaded = _load_items(path, selection)
        return loaded

    def questions(
        self,
        loaded: Loaded,
        selection: Selection,
        cache: VariantCache,
        *,
        render_images: bool = True,
    ) -> Iterable[Question]:
        asked: Iterable[Question] = _loc_questions(loaded, selection, cache, render_images)
        return asked

    def score(
        self, run_dir: Path, judge: str | None, options: Mapping[str, str] | None = None
    ) -> Path | None:
        return run_dir / "metrics.csv" if _score_run(run_dir, options) else None

    def outcome(self, run_dir: Path, judge: str | None) -> list[Outcome]:
        rows: list[Outcome] = _outcome(run_dir, judge)
        return rows


SUITE = PixarSuite()
