"""The benchmark-suite seam: a benchmark is a small core (:class:`Suite`) plus facets.

A suite is one folder ``suites/<name>/`` that owns everything specific to its benchmark. The
engine (``models/``, ``run/``, ``results/``, ``report/``, ``analysis/``) knows no suite: the CLI
and :mod:`forgebench.api` look suites up in the registry (:mod:`forgebench.suites`) and hand the
engine generic questions, rows and HTML.

The core is what every benchmark has and what the other verbs need of every benchmark: its
``name`` and ``title``, its :class:`Protocol` (probes, conditions, opt-in parts, its own options),
where its data comes from (``source``), its ``headline`` metrics, the lazy references of its
``facets``, and five methods: :meth:`Suite.detect`, :meth:`Suite.load`, :meth:`Suite.questions`,
:meth:`Suite.score` (``metrics``) and :meth:`Suite.outcome` (right or wrong per answer, for
paired comparisons across runs); :meth:`Suite.facet` hands out a facet.

Everything optional is a facet (:mod:`forgebench.suites.facets`): an object of its own, of a
small base class per kind (dataset, import, prompts, verdict, judge, calibration, tables,
figures, report, viewer, export, construction, commands, providers), named in ``facets`` by a
lazy ``"module:object"`` reference (a leading ``.`` is relative to the suite's package) and
imported the first time a verb asks. Which verbs a suite offers is which facets it declares
(:func:`offers`, :data:`STAGES`), read without importing them. On a run of several benchmarks a
verb acts on the suites that offer it and names the others in one "skipped" line each; it fails
(exit 2) only when none does. Facets return plain records (:mod:`.outputs`); only the command
line prints.

A suite's core module stays light (every command asks each suite's ``detect``): it imports no
numeric library; a heavy step of the core is a :func:`lazy` reference declared at the module's
head. ``tests/suites/toy`` is a complete example and ``docs/writing-a-suite.md`` walks through it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from forgebench.errors import UserError
from forgebench.interop.headline import Headline
from forgebench.report.facets import ItemCard, ItemTags
from forgebench.run.source import Loaded, Selection
from forgebench.suites.facets import (
    STAGES,
    Calibration,
    Commands,
    ConstructionParts,
    Dataset,
    DemoPart,
    Export,
    Facet,
    Figures,
    Importer,
    Judge,
    Prompts,
    Providers,
    Report,
    Tables,
    Verdict,
    Viewer,
)
from forgebench.suites.outputs import (
    ImportSettings,
    JudgeOutcome,
    MatrixRow,
    Outcome,
    Output,
    Section,
    TaskMatrix,
    Validation,
)
from forgebench.util.registry import RegistryError, resolve

if TYPE_CHECKING:
    from forgebench.run.images import VariantCache
    from forgebench.run.tasks import Question


__all__ = [
    "STAGES",
    "Calibration",
    "Commands",
    "ConstructionParts",
    "Dataset",
    "DatasetWriter",
    "DemoPart",
    "Export",
    "Facet",
    "Figures",
    "Headline",
    "ImportSettings",
    "Importer",
    "ItemCard",
    "ItemTags",
    "Judge",
    "JudgeOutcome",
    "Loaded",
    "MatrixRow",
    "Outcome",
    "Output",
    "Prompts",
    "Protocol",
    "Providers",
    "Report",
    "Section",
    "Selection",
    "Suite",
    "SuiteError",
    "SuiteOption",
    "Tables",
    "TaskMatrix",
    "Validation",
    "Verdict",
    "Viewer",
    "lazy",
    "offers",
]

F = TypeVar("F", bound=Facet)

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


@dataclass(frozen=True)
class Protocol:
    """What a suite asks and what ``run`` may select: ``--probes``, ``--conditions`` and
    ``--protocol`` are checked against it, and the suite's own flags are its ``options``."""

    probes: tuple[str, ...] = ()
    """Probe ids the suite knows."""
    conditions: tuple[str, ...] = ()
    """Condition ids the suite knows."""
    parts: Mapping[str, str] = field(default_factory=dict)
    """Opt-in protocol parts: name -> what it adds (``--protocol``)."""
    options: tuple[SuiteOption, ...] = ()
    """The suite's own options of the shared verbs (see :class:`SuiteOption`)."""


class Suite:
    """The core of a benchmark suite: twelve members, everything else is a facet."""

    name: ClassVar[str] = ""
    """The benchmark id (``mandela``, ``pixar``, ``forensics``): store, metrics.csv, CLI."""
    title: ClassVar[str] = ""
    """Human name, e.g. ``Mandela-Bench (seed 000)``."""
    protocol: ClassVar[Protocol] = Protocol()
    """Its probes, conditions, opt-in parts and own options."""
    source: ClassVar[str] = ""
    """Where the benchmark's public data comes from, one line (a ``benchmarks`` listing)."""
    headline: ClassVar[tuple[Headline, ...]] = ()
    """The suite's headline metrics, in display order (DESIGN.md "Headline metrics")."""
    facets: ClassVar[Mapping[str, str | Facet]] = {}
    """Facet kind (a key of :data:`forgebench.suites.facets.KINDS`) -> a lazy ``"module:object"``
    reference to the facet (``".facets.viewer:VIEWER"``: relative to the suite's package), or
    the facet itself."""

    def detect(self, path: Path) -> bool:
        """Whether ``path`` is a dataset of this suite (asked for every dataset: keep it light)."""
        raise NotImplementedError

    def load(self, path: Path, selection: Selection) -> Loaded:
        """Load (and sample) the dataset; :class:`SuiteError` for what a user got wrong."""
        raise NotImplementedError

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

    def score(
        self, run_dir: Path, judge: str | None, options: Mapping[str, str] | None = None
    ) -> Path | None:
        """Parse the stored answers and write this suite's rows of ``metrics.csv`` (through
        ``results.metrics_csv``, with the scope it owns); the file's path, or None when the
        suite has nothing to score in this run. ``options``: values of the suite's own
        options given to ``metrics``."""
        raise NotImplementedError

    def outcome(self, run_dir: Path, judge: str | None) -> list[Outcome]:
        """Right or wrong per answer of this suite in the run (one :class:`Outcome` per current
        task that has a single right answer, keyed by task key, model, item, probe and
        condition), so that two runs can be compared item by item. A task without an answer
        or verdict counts as wrong (strict scoring)."""
        raise NotImplementedError

    def facet(self, kind: type[F]) -> F | None:
        """The suite's facet of ``kind`` (a facet base class), imported on first use and kept;
        None when the suite has none. A reference that names something else is a
        :class:`~forgebench.util.registry.RegistryError`."""
        target = self.facets.get(kind.kind)
        if target is None:
            return None
        if isinstance(target, str):
            target = _resolve(target, type(self).__module__)
        if not isinstance(target, kind):
            raise RegistryError(
                f"benchmark {self.name!r}: its {kind.kind} facet is a {type(target).__name__}, "
                f"not a {kind.__name__}"
            )
        return target


_FACETS: dict[tuple[str, str], Any] = {}


def _resolve(ref: str, module: str) -> Any:
    """The object ``"module:attr"`` names (a leading ``.`` relative to the package of
    ``module``), imported once."""
    key = (ref, module)
    if key not in _FACETS:
        package = module.rpartition(".")[0] if ref.startswith(".") else None
        _FACETS[key] = resolve(ref, package)
    return _FACETS[key]


def offers(suite: Suite, stage: str) -> bool:
    """Whether ``suite`` has ``stage`` (a key of :data:`STAGES`): it declares the facet that
    offers it (``metrics`` is the core's: every suite has it). Nothing is imported."""
    kind = STAGES[stage]
    return kind is None or kind in suite.facets


def lazy(ref: str) -> Callable[..., Any]:
    """A function of a heavy module, named ``"module:function"``, imported on its first call:
    how a suite's core module declares the steps that need NumPy, pandas or OpenCV and stays
    cheap to import (``detect`` is asked of every suite on every dataset)."""

    def call(*args: Any, **kwargs: Any) -> Any:
        return _resolve(ref, "")(*args, **kwargs)

    call.__doc__ = f"Calls {ref} (imported on first use)."
    return call
