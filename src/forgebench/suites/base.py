"""The benchmark-suite seam: what a benchmark supplies so that the engine can run it.

A suite is one folder ``suites/<name>/`` that owns everything specific to its benchmark: the
dataset contract, loader and validator; how items expand into questions (probes x conditions,
image variants); how answers are parsed and graded; its metrics rows; its tables, figures and
report section; its part of the demo; its sub-commands and the model providers it brings
(Mandela's ``builtin/rules`` judge). The engine (``models/``, ``run/``, ``results/``, ``report/``,
``analysis/``) knows no suite: the CLI and :mod:`forgebench.api` look suites up in the registry
(:mod:`forgebench.suites`) and hand the engine generic questions, rows and HTML.

Subclass :class:`Suite`, set ``name`` (the ``benchmark`` value in the store and metrics.csv),
implement :meth:`Suite.detect`, :meth:`Suite.load` and :meth:`Suite.questions`, and override the
optional stages you have; then ``register(MySuite())``. ``tests/suites/toy`` is a complete
example in under 200 lines.

Which verbs a suite offers is which hooks it overrides (:meth:`Suite.offers`, :data:`STAGES`):
``validate``, ``import_``, ``prompts`` (with ``prompt_templates``), ``task_matrix`` (has a
default from ``load`` + ``questions``), ``parse`` (the verdict stage), ``judge``, ``score``
(``metrics``), ``summary``, ``tables``, ``figures``, ``report``, ``export_rows``,
``calibrate_sample`` / ``calibrate_score``. On a run of several benchmarks a verb acts on the
suites that offer it and names the others in one "skipped" line each; it fails (exit 2) only
when none does. Hooks return plain records (:mod:`.outputs`); only the command line prints.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from forgebench.errors import UserError
from forgebench.interop.headline import Headline
from forgebench.report.facets import ItemCard, ItemTags
from forgebench.run.source import Loaded, Selection
from forgebench.suites.outputs import (
    ImportSettings,
    JudgeOutcome,
    MatrixRow,
    Output,
    Section,
    TaskMatrix,
    Validation,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    import pandas as pd
    import typer

    from forgebench.construct.parts import Construction
    from forgebench.interop.layout import DatasetLayout
    from forgebench.interop.run_formats import RunWriter
    from forgebench.models.spec import ModelConfig
    from forgebench.run.images import VariantCache
    from forgebench.run.judging import JudgeSettings
    from forgebench.run.tasks import Question


__all__ = [
    "STAGES",
    "DatasetWriter",
    "Headline",
    "ImportSettings",
    "ItemCard",
    "ItemTags",
    "JudgeOutcome",
    "Loaded",
    "MatrixRow",
    "Output",
    "Section",
    "Selection",
    "Suite",
    "SuiteError",
    "SuiteOption",
    "TaskMatrix",
    "Validation",
]

STAGES: dict[str, str] = {
    "validation": "validate",
    "import": "import_",
    "prompts": "prompts",
    "verdict": "parse",
    "judge": "judge",
    "metrics": "score",
    "summary": "summary",
    "tables": "tables",
    "figures": "figures",
    "report": "report",
    "export": "export_rows",
    "calibration": "calibrate_sample",
}
"""Stage name (as the "skipped" lines say it) -> the :class:`Suite` hook that offers it."""


DatasetWriter = Callable[[Path, Path], tuple[Path, int]]
"""An ``export-dataset`` format of a suite: (dataset folder, output folder) -> (file, rows)."""


class SuiteError(UserError, ValueError):
    """A dataset or selection a user got wrong; the message is one clear line."""


@dataclass(frozen=True)
class SuiteOption:
    """An option of a suite's own that the shared verbs accept for it (PIXAR's ``--tau``,
    Forensics' ``--extraction``). The CLI adds ``--<name with dashes>`` to each verb in
    ``stages``; the value reaches the suite as a string under ``name`` in ``options``
    (``Selection.options`` for ``run``, ``JudgeSettings.options`` for ``judge``, the ``options``
    argument of :meth:`Suite.score` for ``metrics``). The suite parses it and raises
    :class:`SuiteError` for a bad value."""

    name: str
    """Python-style name (``extractor_prompt``); the flag is ``--extractor-prompt``."""
    help: str
    """One line for ``--help``."""
    stages: tuple[str, ...]
    """The verbs that take it: ``run``, ``judge``, ``metrics``, ``report``, ``export``..."""
    choices: tuple[str, ...] = ()
    """Allowed values (empty: any string)."""
    default: str | None = None
    """The value when the flag is not given (None: the suite's own default)."""


class Suite:
    """Base class of a benchmark suite; the optional stages default to "nothing to do"."""

    name: ClassVar[str] = ""
    """The benchmark id (``mandela``, ``pixar``, ``forensics``): store, metrics.csv, CLI."""
    title: ClassVar[str] = ""
    """Human name, e.g. ``Mandela-Bench (seed 000)``."""
    probes: ClassVar[tuple[str, ...]] = ()
    """Probe ids the suite knows (``--probes`` is checked against them)."""
    conditions: ClassVar[tuple[str, ...]] = ()
    """Condition ids the suite knows (``--conditions`` is checked against them)."""
    parts: ClassVar[Mapping[str, str]] = {}
    """Opt-in protocol parts: name -> what it adds (``--protocol``)."""
    verdict_codes: ClassVar[tuple[str, ...]] = ()
    """The report viewer's verdict facet for this suite's answers, in display order (the viewer
    adds codes found in the run that no suite declares, then ``ERROR`` and ``PENDING``)."""
    level_codes: ClassVar[tuple[str, ...]] = ()
    """The viewer's level facet (grade levels such as ``E0``-``E4``), in display order (the viewer
    adds ``unscored`` and ``none``)."""
    options: ClassVar[tuple[SuiteOption, ...]] = ()
    """The suite's own options of the shared verbs (see :class:`SuiteOption`)."""
    reading_scores: ClassVar[tuple[str, ...]] = ()
    """Numbers of a verdict's detail that exports show as scores of their own (PIXAR's ``iou``
    and ``f1``); the rest of the detail travels with the verdict."""
    headline: ClassVar[tuple[Headline, ...]] = ()
    """The suite's headline metrics, in display order (DESIGN.md "Headline metrics")."""
    interval_note: ClassVar[str] = ""
    """How :meth:`headline_intervals` resamples, for the front page's caption ('': no note)."""
    group_labels: ClassVar[tuple[str, str]] = ("", "")
    """The names of the viewer's two grouping facets for this suite's items (the values come
    from :meth:`Suite.viewer_tags`); in a run of several suites the dropdown's label joins the
    names (``Family / type``) and its values are grouped by benchmark."""

    # -- data -------------------------------------------------------------------------------

    def detect(self, path: Path) -> bool:
        """Whether ``path`` is a dataset of this suite (asked for every dataset: keep it light)."""
        raise NotImplementedError

    def offers(self, stage: str) -> bool:
        """Whether the suite has ``stage`` (a key of :data:`STAGES`): it overrides that hook."""
        hook = STAGES[stage]
        return getattr(type(self), hook) is not getattr(Suite, hook)

    def validate(
        self, path: Path, progress: Callable[[int, int], None] | None = None
    ) -> Validation:
        """Check the dataset folder ``path`` and report every problem (``forgebench
        validate``), touching nothing; ``progress(done, total)`` is called as images are read."""
        raise NotImplementedError

    def imports(self, src: Path) -> bool:
        """Whether :meth:`import_` reads ``src`` (a file or folder; ``forgebench import`` asks
        every suite that has an importer, later registrations first)."""
        return False

    def import_(
        self,
        src: Path,
        out: Path,
        settings: ImportSettings,
        progress: Callable[[int, int], None] | None = None,
    ) -> Output:
        """Write the dataset folder ``out`` from ``src``, all or nothing (a :class:`UserError`
        whose ``details()`` lists every problem); warnings go into ``notes``."""
        raise NotImplementedError

    def load(self, path: Path, selection: Selection) -> Loaded:
        """Load (and sample) the dataset; :class:`SuiteError` for what a user got wrong."""
        raise NotImplementedError

    # -- questions --------------------------------------------------------------------------

    def questions(
        self,
        loaded: Loaded,
        selection: Selection,
        cache: VariantCache,
        *,
        render_images: bool = True,
    ) -> Iterable[Question]:
        """The model-independent questions, in a deterministic order (an iterator is fine:
        the engine stores them in batches)."""
        raise NotImplementedError

    def prompt_templates(self) -> list[str]:
        """Every prompt template, verbatim, one block each (``forgebench prompts``)."""
        return []

    def prompts(self, dataset: Path, item_id: str) -> list[str]:
        """The exact prompts the item ``item_id`` receives, one block per question
        (``forgebench prompts --dataset D --item ID``); :class:`SuiteError` for an unknown
        item. A suite offering prompts overrides this (the blocks can say more than the text)."""
        raise NotImplementedError

    def task_matrix(self, dataset: Path, selection: Selection) -> TaskMatrix:
        """The dry-run task matrix (``forgebench tasks``). The default loads the dataset and
        counts its questions per probe x condition without rendering an image; a suite may add
        each row's population and paper source."""
        from collections import Counter

        from forgebench.run.images import VariantCache

        loaded = self.load(dataset, selection)
        qs = list(self.questions(loaded, selection, VariantCache(), render_images=False))
        counts = Counter((q.probe, q.condition) for q in qs)
        return TaskMatrix(
            rows=[MatrixRow(p, c, n) for (p, c), n in counts.items()],
            items=len(loaded.items),
            questions=len(qs),
            variants=len({ref.variant_id for q in qs for ref in q.images}),
        )

    # -- scoring ----------------------------------------------------------------------------

    def parse(self, run_dir: Path) -> str | None:
        """The verdict stage: store a verdict for every answer of this suite lacking one; a
        count line, or None when there was nothing to parse (:meth:`score`, :meth:`judge` and
        :meth:`export_rows` parse first themselves)."""
        return None

    def score(
        self, run_dir: Path, judge: str | None, options: Mapping[str, str] | None = None
    ) -> Path | None:
        """Parse the stored answers and write this suite's rows of ``metrics.csv`` (through
        ``results.metrics_csv``, with the scope it owns); the file's path, or None when the
        suite has nothing to score in this run. ``options``: values of the suite's own
        :attr:`options` given to ``metrics``."""
        return None

    def judge(
        self, run_dir: Path, config: ModelConfig, settings: JudgeSettings
    ) -> JudgeOutcome | None:
        """The judge stage (grades, extracted letters) with the judge ``config``, asked as
        ``settings`` say, or None when the suite has no judge stage (a suite ignores the
        settings it has no use for, such as ``retry_unscored``)."""
        return None

    # -- report -----------------------------------------------------------------------------

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

    def figures(self, run_dir: Path, out_dir: Path | None, judge: str | None) -> Output:
        """Draw the paper's figures (PNG and SVG) under ``out_dir`` (None:
        ``RUN/report/figures``)."""
        raise NotImplementedError

    def export_rows(self, run_dir: Path, judge: str | None) -> pd.DataFrame:
        """One row per current task of this suite in the run, keyed by ``task_key``, with the
        benchmark's own reading of it (verdict, grade, letter, IoU...). The export puts the
        columns every benchmark shares (:data:`forgebench.run.rows.SHARED_COLUMNS`) first; a
        column of that name returned here is ignored."""
        raise NotImplementedError

    def calibrate_sample(
        self, run_dir: Path, n: int, judge: str | None, seed: int, out: Path | None
    ) -> Output:
        """Write a blinded sample of answers for people to grade (``calibrate sample``)."""
        raise NotImplementedError

    def calibrate_score(
        self, run_dir: Path, human: Path | None, judge: str | None, against: str | None
    ) -> Output:
        """Agreement of a judge with the people's grades, or of two judges (``calibrate
        score``)."""
        raise NotImplementedError

    def report(
        self, run_dir: Path, out_dir: Path, judge: str | None, dataset: Path | None = None
    ) -> Section | None:
        """Tables, figures and the report page section (None: nothing to show). ``dataset``:
        the dataset folder given to ``report --dataset`` (a run moved away from its own)."""
        return None

    def headline_intervals(self, run_dir: Path, out_dir: Path, judge: str | None) -> Any:
        """95% confidence intervals of the :attr:`headline` numbers, for the report's front page:
        a ``pandas.DataFrame`` with columns model, probe, condition, subset, metric, lo, hi
        (percentages), or None when the suite gives none. Called after :meth:`report` wrote its
        files under ``out_dir``."""
        return None

    def variant_views(
        self, dataset_root: Path, item: Mapping[str, Any]
    ) -> Iterator[tuple[str, Any]]:
        """Extra pictures of an item for the viewer: ``(label, picture)``, the picture as encoded
        image bytes, an image file (``Path``, placed as it is when a browser shows it) or the
        ``run.images.VariantSpec`` a task shows (found among the pictures already written or in
        the run's variant cache; rendered only when in neither)."""
        return iter(())

    def rubric(self) -> str:
        """Grading instructions shown in the calibration view ('' when none)."""
        return ""

    def viewer_answer(
        self, verdict: str | None, detail: Mapping[str, Any]
    ) -> tuple[str | None, str]:
        """One stored answer in the viewer: its verdict facet (None: not parsed yet) and a short
        note on how that verdict was found ('' for none). ``verdict`` and ``detail`` are the
        answer's row of the store's ``verdicts`` table (``detail`` parsed from its JSON)."""
        return verdict, ""

    def viewer_facts(self, item: Mapping[str, Any]) -> list[tuple[str, str]]:
        """Extra ``(label, text)`` lines of an item's card in the viewer (question, options...)."""
        return []

    def viewer_tags(self, item: Mapping[str, Any]) -> ItemTags:
        """An item's values of the two grouping facets (named by :attr:`group_labels`), its line
        in the item list, its card's tag line and extra search text. The default gives none: the
        item is listed and found by its id only."""
        return ItemTags()

    def viewer_card(self, item: Mapping[str, Any]) -> ItemCard:
        """The rest of an item's card: its details rows, its picture's caption and outlined box,
        and the key pairing it with its original (shown beside it with a difference heatmap).
        The default gives none."""
        return ItemCard()

    def viewer_answer_pictures(
        self, run_dir: Path, out_dir: Path, model: str, item_id: str
    ) -> list[tuple[str, str]]:
        """Pictures a model's answer made (a predicted mask), shown beside it in the viewer:
        ``(label, path relative to out_dir)``, written under ``out_dir`` by the suite. The default
        gives none."""
        return []

    # -- interoperability -------------------------------------------------------------------

    def export_target(
        self, item: Mapping[str, Any], probe: str, extra: Mapping[str, Any]
    ) -> str | None:
        """The right answer of a task, as the exports show it (an Inspect sample's target):
        ``item`` is the stored item, ``extra`` the question's extra fields. None: no single
        right answer (the default)."""
        return None

    def dataset_layout(self) -> DatasetLayout | None:
        """How this suite's dataset folder maps to a table of one row per item
        (``export-dataset --format hf`` and its import), or None when it has no such layout."""
        return None

    def run_formats(self) -> Mapping[str, RunWriter]:
        """The suite's own ``export RUN --format`` formats (Forensics: ``vlmevalkit``): name ->
        a writer of this benchmark's part of the run. Benchmarks without the format are skipped
        with a line."""
        return {}

    def dataset_formats(self) -> Mapping[str, DatasetWriter]:
        """The suite's own ``export-dataset`` formats (besides ``hf``): name -> a writer
        ``(dataset folder, output folder) -> (written file, rows)``."""
        return {}

    # -- extension points -------------------------------------------------------------------

    def providers(self) -> Mapping[str, str]:
        """Backends the suite brings: ``builtin/NAME`` or provider -> module with ``create()``."""
        return {}

    def cli(self) -> typer.Typer | None:
        """Sub-commands, or None. The CLI mounts every registered suite's Typer as
        ``forgebench <name> ...`` (``_cli.app.SuiteGroup``; an engine command of that name
        wins); keep them in ``suites/<name>/cli.py``."""
        return None

    def demo(self) -> Any:
        """The suite's part of ``forgebench demo`` (an object of its own, kept in
        ``suites/<name>/demo_part.py``: what the demo pipeline needs that only this suite can
        give, reached through ``api.demo_parts``), or None."""
        return None

    def construction(self) -> Construction | None:
        """The suite's construction parts (proposers, verification rule, candidate gates,
        assembly) for ``forgebench propose`` / ``build``, or None when it is not built from seed
        folders; keep them in ``suites/<name>/construct/``."""
        return None
