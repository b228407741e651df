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
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from forgebench.errors import UserError
from forgebench.interop.headline import Headline
from forgebench.report.facets import ItemCard, ItemTags
from forgebench.run.source import Loaded, Selection

if TYPE_CHECKING:
    import typer

    from forgebench.construct.parts import Construction
    from forgebench.interop.layout import DatasetLayout
    from forgebench.interop.run_formats import RunWriter
    from forgebench.models.spec import ModelConfig
    from forgebench.run.images import VariantCache
    from forgebench.run.judging import JudgeSettings
    from forgebench.run.tasks import Question


__all__ = [
    "DatasetWriter",
    "Headline",
    "ItemCard",
    "ItemTags",
    "JudgeOutcome",
    "Loaded",
    "Section",
    "Selection",
    "Suite",
    "SuiteError",
    "SuiteOption",
]


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


@dataclass
class Section:
    """A suite's part of the report page."""

    title: str
    """Heading."""
    html: str
    """Body (already escaped HTML)."""
    files: list[Path] = field(default_factory=list)
    """Files written for it under ``report/`` (tables, figures)."""
    notes: list[str] = field(default_factory=list)
    """Lines for the console (skipped tables and why)."""


@dataclass
class JudgeOutcome:
    """What a suite's judge stage did."""

    judge: str
    """The judge's name (as stored with its judgements and in metrics.csv's ``judge``)."""
    summary: str
    """One line for the console."""
    fatal: str | None = None
    """Why the judge stopped, when it did (the command exits non-zero)."""


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
    group_labels: ClassVar[tuple[str, str]] = ("", "")
    """The names of the viewer's two grouping facets for this suite's items (the values come
    from :meth:`Suite.viewer_tags`); in a run of several suites the dropdown's label joins the
    names (``Family / type``) and its values are grouped by benchmark."""

    # -- data -------------------------------------------------------------------------------

    def detect(self, path: Path) -> bool:
        """Whether ``path`` is a dataset of this suite."""
        raise NotImplementedError

    def validate(self, path: Path) -> list[str]:
        """Every problem of the dataset as ``FILE:LINE: FIELD: message`` (empty: valid)."""
        return []

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

    # -- scoring ----------------------------------------------------------------------------

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

    def report(self, run_dir: Path, out_dir: Path, judge: str | None) -> Section | None:
        """Tables, figures and the report page section (None: nothing to show)."""
        return None

    def headline_intervals(self, run_dir: Path, out_dir: Path, judge: str | None) -> Any:
        """95% confidence intervals of the :attr:`headline` numbers, for the report's front page:
        a ``pandas.DataFrame`` with columns model, probe, condition, subset, metric, lo, hi
        (percentages), or None when the suite gives none. Called after :meth:`report` wrote its
        files under ``out_dir``."""
        return None

    def variant_views(
        self, dataset_root: Path, item: Mapping[str, Any]
    ) -> Iterator[tuple[str, bytes]]:
        """Extra pictures of an item for the viewer: ``(label, encoded image bytes)``."""
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

    def construction(self) -> Construction | None:
        """The suite's construction parts (proposers, verification rule, candidate gates,
        assembly) for ``forgebench propose`` / ``build``, or None when it is not built from seed
        folders; keep them in ``suites/<name>/construct/``."""
        return None
