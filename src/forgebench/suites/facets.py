"""The facets of a benchmark: each optional capability is an object of its own, of one small
base class per kind, that a suite names in ``Suite.facets`` (kind -> lazy ``"module:object"``).

A suite folder shows its facets as files (``suites/<name>/facets/<kind>.py``, each a module-level
instance of a subclass of the kind's base class here); a facet module imports the modules it
needs at its head. The verbs that each facet offers are :data:`STAGES`; a verb asks
``forgebench.suites.base.offers(suite, stage)``, which reads ``Suite.facets`` and imports nothing.
This module stays light: it imports no suite and no numeric library.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from forgebench.report.facets import ItemCard, ItemTags

if TYPE_CHECKING:
    import pandas as pd
    import typer

    from forgebench.construct.parts import Construction
    from forgebench.interop.layout import DatasetLayout
    from forgebench.interop.run_formats import RunWriter
    from forgebench.models.spec import ModelConfig
    from forgebench.run.judging import JudgeSettings
    from forgebench.run.source import Selection
    from forgebench.suites.outputs import (
        ImportSettings,
        JudgeOutcome,
        Output,
        Section,
        TaskMatrix,
        Validation,
    )

__all__ = [
    "KINDS",
    "STAGES",
    "Calibration",
    "Commands",
    "ConstructionParts",
    "Dataset",
    "DemoPart",
    "Export",
    "Facet",
    "Figures",
    "Importer",
    "Judge",
    "Prompts",
    "Providers",
    "Report",
    "Tables",
    "Verdict",
    "Viewer",
]


class Facet:
    """Base of every facet: ``kind`` is its key in ``Suite.facets``."""

    kind: ClassVar[str] = ""


class Dataset(Facet):
    """The dataset folder's checks and layouts (``validate``, ``export-dataset``, hf import)."""

    kind = "dataset"

    def validate(
        self, path: Path, progress: Callable[[int, int], None] | None = None
    ) -> Validation:
        """Check the dataset folder ``path`` and report every problem (``forgebench
        validate``), touching nothing; ``progress(done, total)`` is called as images are read."""
        raise NotImplementedError

    def layout(self) -> DatasetLayout | None:
        """How the dataset folder maps to a table of one row per item (``export-dataset
        --format hf`` and its import), or None when it has no such layout."""
        return None

    def formats(self) -> Mapping[str, Callable[[Path, Path], tuple[Path, int]]]:
        """The suite's own ``export-dataset`` formats (besides ``hf``): name -> a writer
        ``(dataset folder, output folder) -> (written file, rows)``."""
        return {}


class Importer(Facet):
    """``forgebench import``: a dataset folder written from another form of the benchmark."""

    kind = "import"

    def imports(self, src: Path) -> bool:
        """Whether :meth:`import_` reads ``src`` (``forgebench import`` asks every suite that
        has an importer, later registrations first)."""
        return False

    def import_(
        self,
        src: Path,
        out: Path,
        settings: ImportSettings,
        progress: Callable[[int, int], None] | None = None,
    ) -> Output:
        """Write the dataset folder ``out`` from ``src``, all or nothing (a ``UserError`` whose
        ``details()`` lists every problem); warnings go into ``notes``."""
        raise NotImplementedError


class Prompts(Facet):
    """``forgebench prompts`` and the dry-run matrix of ``forgebench tasks``."""

    kind = "prompts"

    def templates(self) -> list[str]:
        """Every prompt template, verbatim, one block each (``forgebench prompts``)."""
        return []

    def prompts(self, dataset: Path, item_id: str) -> list[str]:
        """The exact prompts the item ``item_id`` receives, one block per question
        (``forgebench prompts --dataset D --item ID``); ``SuiteError`` for an unknown item."""
        raise NotImplementedError

    def task_matrix(self, dataset: Path, selection: Selection) -> TaskMatrix | None:
        """The dry-run task matrix with each row's population and paper source, or None: the
        engine's default counts the questions per probe x condition."""
        return None


class Verdict(Facet):
    """The verdict stage: the stored answers read into verdicts (``judge`` and ``metrics``
    parse first themselves)."""

    kind = "verdict"

    def parse(self, run_dir: Path) -> str | None:
        """Store a verdict for every answer of this suite lacking one; a count line, or None
        when there was nothing to parse."""
        raise NotImplementedError


class Judge(Facet):
    """The judge stage (grades, extracted letters) and its rubric."""

    kind = "judge"

    def judge(
        self, run_dir: Path, config: ModelConfig, settings: JudgeSettings
    ) -> JudgeOutcome | None:
        """Judge with ``config``, asked as ``settings`` say, or None when there is nothing to
        judge (a suite ignores the settings it has no use for, such as ``retry_unscored``)."""
        raise NotImplementedError

    def rubric(self) -> str:
        """Grading instructions shown in the calibration view ('' when none)."""
        return ""


class Calibration(Facet):
    """``calibrate sample`` and ``calibrate score``: a judge against people's grades."""

    kind = "calibration"

    def sample(
        self, run_dir: Path, n: int, judge: str | None, seed: int, out: Path | None
    ) -> Output:
        """Write a blinded sample of answers for people to grade."""
        raise NotImplementedError

    def score(
        self, run_dir: Path, human: Path | None, judge: str | None, against: str | None
    ) -> Output:
        """Agreement of a judge with the people's grades, or of two judges."""
        raise NotImplementedError


class Tables(Facet):
    """The console summary of ``metrics`` and the paper's tables (``tables``)."""

    kind = "tables"

    def summary(self, run_dir: Path, judge: str | None) -> list[Any]:
        """The console summary of the suite's rows of ``metrics.csv`` (rich renderables or
        strings; ``forgebench metrics`` prints them)."""
        return []

    def tables(
        self, run_dir: Path, out_dir: Path | None, judge: str | None, reps: int = 2000
    ) -> Output:
        """Write the paper's tables (Markdown, LaTeX, CSV) under ``out_dir`` (None:
        ``RUN/report``); ``reps``: bootstrap replicates where the tables use any."""
        raise NotImplementedError


class Figures(Facet):
    """The paper's figures (``figures``)."""

    kind = "figures"

    def figures(self, run_dir: Path, out_dir: Path | None, judge: str | None) -> Output:
        """Draw the figures (PNG and SVG) under ``out_dir`` (None: ``RUN/report/figures``)."""
        raise NotImplementedError


class Report(Facet):
    """The suite's section of ``forgebench report`` and its front-page intervals."""

    kind = "report"
    interval_note: ClassVar[str] = ""
    """How :meth:`intervals` resamples, for the front page's caption ('': no note)."""

    def section(
        self, run_dir: Path, out_dir: Path, judge: str | None, dataset: Path | None = None
    ) -> Section | None:
        """Tables, figures and the report page section (None: nothing to show). ``dataset``:
        the dataset folder given to ``report --dataset`` (a run moved away from its own)."""
        raise NotImplementedError

    def intervals(self, run_dir: Path, out_dir: Path, judge: str | None) -> Any:
        """95% confidence intervals of the suite's headline numbers, for the front page: a
        ``pandas.DataFrame`` with columns model, probe, condition, subset, metric, lo, hi
        (percentages), or None. Called after :meth:`section` wrote its files under ``out_dir``."""
        return None


class Viewer(Facet):
    """How the report's viewer shows the suite's items and answers. A suite without one is
    shown with these defaults (items found by id, verdicts as stored)."""

    kind = "viewer"
    verdict_codes: ClassVar[tuple[str, ...]] = ()
    """The verdict facet's codes, in display order (the viewer adds codes found in the run
    that no suite declares, then ``ERROR`` and ``PENDING``)."""
    level_codes: ClassVar[tuple[str, ...]] = ()
    """The level facet's codes (``E0``-``E4``), in display order (the viewer adds
    ``unscored`` and ``none``)."""
    group_labels: ClassVar[tuple[str, str]] = ("", "")
    """The names of the two grouping facets (the values come from :meth:`tags`)."""

    def views(self, dataset_root: Path, item: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
        """Extra pictures of an item: ``(label, picture)``, the picture as encoded image bytes,
        an image file (``Path``) or the ``run.images.VariantSpec`` a task shows (found among
        the pictures already written or in the run's variant cache; rendered only when in
        neither)."""
        return iter(())

    def answer(self, verdict: str | None, detail: Mapping[str, Any]) -> tuple[str | None, str]:
        """One stored answer: its verdict facet (None: not parsed yet) and a short note on how
        that verdict was found ('' for none), from the answer's row of ``verdicts``."""
        return verdict, ""

    def facts(self, item: Mapping[str, Any]) -> list[tuple[str, str]]:
        """Extra ``(label, text)`` lines of an item's card (question, options...)."""
        return []

    def tags(self, item: Mapping[str, Any]) -> ItemTags:
        """An item's values of the two grouping facets, its line in the item list, its card's
        tag line and extra search text."""
        return ItemTags()

    def card(self, item: Mapping[str, Any]) -> ItemCard:
        """The rest of an item's card: details rows, caption, outlined box, pairing key."""
        return ItemCard()

    def answer_pictures(
        self, run_dir: Path, out_dir: Path, model: str, item_id: str
    ) -> list[tuple[str, str]]:
        """Pictures a model's answer made (a predicted mask): ``(label, path relative to
        out_dir)``, written under ``out_dir`` by the suite."""
        return []

    def pair_answer(self, score: Any) -> tuple[str, str, str, dict[str, Any]]:
        """A pair scored from files (a :class:`~forgebench.run.store.PairScore` of the run
        store's ``pair_scores``: a detector's score map) as an answer of the viewer: ``(probe,
        condition, verdict, detail)``; the detail goes to :meth:`answer` like a verdict's. The
        viewer shows such pairs only for suites that define this."""
        raise NotImplementedError


class Export(Facet):
    """``export RUN``: the benchmark's reading of each task, its right answers, its formats. A
    suite without one is exported with the shared columns only (and skipped by
    ``--format csv/parquet``)."""

    kind = "export"
    reading_scores: ClassVar[tuple[str, ...]] = ()
    """Numbers of a verdict's detail that exports show as scores of their own (PIXAR's ``iou``
    and ``f1``); the rest of the detail travels with the verdict."""

    def rows(self, run_dir: Path, judge: str | None) -> pd.DataFrame:
        """One row per current task of this suite in the run, keyed by ``task_key``, with the
        benchmark's own reading of it (verdict, grade, letter, IoU...). The export puts the
        shared columns (:data:`forgebench.run.rows.SHARED_COLUMNS`) first; a column of that
        name returned here is ignored."""
        raise NotImplementedError

    def target(self, item: Mapping[str, Any], probe: str, extra: Mapping[str, Any]) -> str | None:
        """The right answer of a task, as the exports show it (an Inspect sample's target), or
        None: no single right answer."""
        return None

    def run_formats(self) -> Mapping[str, RunWriter]:
        """The suite's own ``export RUN --format`` formats (Forensics: ``vlmevalkit``)."""
        return {}


class ConstructionParts(Facet):
    """The suite's construction parts (proposers, verification rule, gates, assembly) for
    ``forgebench propose`` / ``build``: keep them in ``suites/<name>/construct/``."""

    kind = "construction"

    def __init__(self, parts: Construction) -> None:
        self.parts = parts


class Commands(Facet):
    """The suite's own sub-commands, mounted as ``forgebench <name> ...`` (an engine command of
    that name wins)."""

    kind = "commands"

    def __init__(self, app: typer.Typer) -> None:
        self.app = app


class DemoPart(Facet):
    """The suite's part of ``forgebench demo`` (kept in ``suites/<name>/demo_part.py``): what the
    demo pipeline needs that only this suite can give, reached through ``api.demo_parts``."""

    kind = "demo"

    def __init__(self, part: Any) -> None:
        self.part = part


class Providers(Facet):
    """The model backends the suite brings: ``builtin/NAME`` or provider -> module with
    ``create()`` (registered with ``models.registry`` when the suite loads: keep its module
    light)."""

    kind = "providers"

    def __init__(self, backends: Mapping[str, str]) -> None:
        self.backends = dict(backends)


KINDS: dict[str, type[Facet]] = {
    f.kind: f
    for f in (Dataset, Importer, Prompts, Verdict, Judge, Calibration, Tables, Figures, Report,
              Viewer, Export, ConstructionParts, Commands, DemoPart, Providers)
}  # fmt: skip
"""Facet kind -> its base class."""

STAGES: dict[str, str | None] = {
    "validation": "dataset",
    "import": "import",
    "prompts": "prompts",
    "verdict": "verdict",
    "judge": "judge",
    "metrics": None,
    "summary": "tables",
    "tables": "tables",
    "figures": "figures",
    "report": "report",
    "export": "export",
    "calibration": "calibration",
}
"""Stage name (as the "skipped" lines say it) -> the facet kind that offers it (None: the
core's ``score``, which every suite has)."""
