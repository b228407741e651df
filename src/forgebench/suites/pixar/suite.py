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
pixar label | score | run`` are :mod:`.cli`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forgebench.suites.base import (
    Headline,
    ItemCard,
    ItemTags,
    Loaded,
    Output,
    Section,
    Selection,
    Suite,
    SuiteOption,
    Validation,
)

if TYPE_CHECKING:
    import pandas as pd
    import typer

    from forgebench.construct.parts import Construction
    from forgebench.interop.layout import DatasetLayout
    from forgebench.run.images import VariantCache
    from forgebench.run.tasks import Question

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
    probes = ("LOC",)
    conditions = ("full",)
    options = (TAU, CLASSES, CONVENTION)
    headline = tuple(Headline("LOC", "full", m) for m in ("giou", "f1", "auc"))
    interval_note = "pairs resampled, gIoU and F1 only, see its section"
    reading_scores = ("iou", "f1")
    """A LOC answer's per-pair IoU and F1 (percentages), as scores in the exports."""
    """Localization: gIoU, F1 and AUC over every pair."""
    verdict_codes = ("LOCATED", "NOT_FOUND", "MISS")
    """The viewer's verdict facet: regions given, none given, reply unreadable."""

    def dataset_layout(self) -> DatasetLayout:
        from forgebench.suites.pixar.interop import layout

        return layout()

    def detect(self, path: Path) -> bool:
        return is_pairs(path)

    def load(self, path: Path, selection: Selection) -> Loaded:
        from forgebench.suites.pixar.loc_items import load_items

        return load_items(path, selection)

    def questions(
        self,
        loaded: Loaded,
        selection: Selection,
        cache: VariantCache,
        *,
        render_images: bool = True,
    ) -> Iterable[Question]:
        from forgebench.suites.pixar.loc_items import loc_questions

        return loc_questions(loaded, selection, cache, render_images)

    def score(
        self, run_dir: Path, judge: str | None, options: Mapping[str, str] | None = None
    ) -> Path | None:
        from forgebench.suites.pixar.loc_score import score_run

        return run_dir / "metrics.csv" if score_run(run_dir, options) else None

    def validate(
        self, path: Path, progress: Callable[[int, int], None] | None = None
    ) -> Validation:
        from forgebench.suites.pixar import verbs

        return verbs.validate(path)

    def prompt_templates(self) -> list[str]:
        from forgebench.suites.pixar import verbs

        return verbs.prompt_templates()

    def prompts(self, dataset: Path, item_id: str) -> list[str]:
        from forgebench.suites.pixar import verbs

        return verbs.prompts(dataset, item_id)

    def summary(self, run_dir: Path, judge: str | None) -> list[Any]:
        from forgebench.suites.pixar import verbs

        return verbs.summary(run_dir)

    def tables(
        self, run_dir: Path, out_dir: Path | None, judge: str | None, reps: int = 2000
    ) -> Output:
        from forgebench.suites.pixar import verbs

        return verbs.tables(run_dir, out_dir)

    def report(
        self, run_dir: Path, out_dir: Path, judge: str | None, dataset: Path | None = None
    ) -> Section | None:
        from forgebench.suites.pixar.section import pixar_section

        built = pixar_section(run_dir, out_dir, dataset)
        if built is None:
            return None
        body, files = built
        return Section(title=self.title, html=body, files=files)

    def headline_intervals(self, run_dir: Path, out_dir: Path, judge: str | None) -> Any:
        from forgebench.suites.pixar.intervals import headline_intervals

        return headline_intervals(run_dir)

    def export_rows(self, run_dir: Path, judge: str | None) -> pd.DataFrame:
        from forgebench.suites.pixar.export import export_frame

        return export_frame(run_dir)

    def viewer_answer(
        self, verdict: str | None, detail: Mapping[str, Any]
    ) -> tuple[str | None, str]:
        if verdict is None or "iou" not in detail:
            return verdict, ""
        return verdict, f"IoU {float(detail['iou']):.1f}, F1 {float(detail['f1']):.1f}"

    def viewer_tags(self, item: Mapping[str, Any]) -> ItemTags:
        classes = [str(c) for c in item.get("classes") or ()]
        return ItemTags(line=(", ".join(classes),), search=tuple(classes))

    def viewer_card(self, item: Mapping[str, Any]) -> ItemCard:
        size = f"{item.get('width')} x {item.get('height')}" if item.get("width") else ""
        rows = (("original", str(item.get("original") or "")), ("size", size),
                ("tau", str(item.get("tau") or "")))  # fmt: skip
        return ItemCard(rows=rows, caption="edited image")

    def variant_views(
        self, dataset_root: Path, item: Mapping[str, Any]
    ) -> Iterator[tuple[str, Any]]:
        from forgebench.suites.pixar.loc_items import item_pair, pairs_root

        if item.get("original"):
            pair = item_pair(item, pairs_root(dataset_root))
            if pair.original.is_file():
                yield "original", pair.original
                if pair.edited.is_file():  # the truth the answers are scored against
                    from forgebench.suites.pixar.labeling import label_pngs

                    tau = float(item.get("tau") or 0.05)
                    (png,) = label_pngs((str(pair.original), str(pair.edited)), (tau,))
                    yield f"truth mask (tau {tau:g})", png

    def viewer_answer_pictures(
        self, run_dir: Path, out_dir: Path, model: str, item_id: str
    ) -> list[tuple[str, str]]:
        """The answer's predicted mask as ``metrics`` stored it (a miss has none), the gallery's
        thumbnail of it."""
        from forgebench.suites.pixar.gallery import thumb
        from forgebench.suites.pixar.loc_score import model_dirname

        rel = thumb(run_dir / "pixar" / "pred" / model_dirname(model) / f"{item_id}.png", out_dir)
        return [("predicted mask", rel)] if rel else []

    def cli(self) -> typer.Typer:
        from forgebench.suites.pixar.cli import pixar_app

        return pixar_app

    def construction(self) -> Construction:
        from forgebench.suites.pixar.construct.parts import CONSTRUCTION

        return CONSTRUCTION


SUITE = PixarSuite()
