"""The demo's steps: the whole pipeline, offline, for all three benchmarks in ONE run directory.

``forgebench demo --out OUT`` calls these and prints what they return:

1. build the Mandela-format demo dataset and the knowledge verifier's KB (:mod:`.build`,
   :mod:`.kb`) and validate it;
2. ask ``builtin/artefact`` every Mandela question, then the Forensics questions made from the
   demo's forgeries (``OUT/forensics``), then ``builtin/verifier`` (where its extras are
   installed) the full-image conditions, all through the runner into ``OUT/run``. The verifier's
   tools (OCR, scene matching, faces) start on its images as soon as the dataset is built, on
   background threads (:meth:`Demo.prewarm`), while the detector is asked on a thread giving
   way to them (:meth:`Demo.behind`): by the time the verifier is asked, most of its answers
   only read those results;
3. parse verdicts, judge with ``builtin/rules`` and write the Mandela rows of metrics.csv;
4. PIXAR: label every forgery against its original and score the detector's score maps
   (:mod:`.pixar`; it reads no answer, so it is computed on a thread of its own as soon as the
   verifier's tools are done, during step 2: :meth:`Demo.ahead`), into the same run's metrics.csv;
5. score the Forensics answers;
6. one report of the run (``OUT/run/report/index.html``), a section per benchmark (its modules
   imported once the verifier's tools are done and released, during step 2).

The stages go through :mod:`forgebench.api` (``validate``, ``run``, ``judge``, ``metrics``,
``summaries``, ``report``); what only a benchmark can give (the knowledge verifier's tools,
the forgeries' pairs, PIXAR's scoring of score maps, the Forensics demo set) comes from its
registered demo part (the suite's ``demo`` facet, through ``api.demo_parts``): this module imports no suite
(``tests/suites/test_seam.py``).

Each benchmark's scoring writes only its own rows (``results.metrics_csv.Scope``), in this order
(Mandela, PIXAR, Forensics), so metrics.csv is the same file whatever order the answers came in;
the Mandela rows are the same as in a run holding Mandela alone. Resumable: the same command
again sends nothing.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from forgebench import api
from forgebench.demo.background import Ahead, giving_way
from forgebench.demo.build import build_demo, refuse_other_folder
from forgebench.demo.kb import build_demo_kb
from forgebench.models.builtin.artefact import score_map
from forgebench.models.spec import ModelConfig
from forgebench.run.generate import GenerationSettings
from forgebench.run.judging import JudgeSettings
from forgebench.run.send.options import SendOptions
from forgebench.run.source import Selection
from forgebench.util.memory import trim

if TYPE_CHECKING:
    from rich.console import Console

    from forgebench.demo.background import Ahead
    from forgebench.run.send.progress import RunProgress

T = TypeVar("T")

DEMO_DETECTOR = "builtin/artefact"
DEMO_VERIFIER = "builtin/verifier"
DEMO_JUDGE = "builtin/rules"
VERIFIER_CONDITIONS = ("full", "face_original", "face_replacement", "none")
"""Conditions the demo asks builtin/verifier (every probe; the crop, mirror and caption variants
are left to ``forgebench run`` to keep the demo short)."""
MANDELA, PIXAR, FORENSICS = "mandela", "pixar", "forensics"
"""The benchmarks of the demo, by name (their demo parts: ``api.demo_parts``)."""


def part(name: str) -> Any:
    """The demo part of benchmark ``name`` (the suite's ``demo`` facet)."""
    return api.demo_parts()[name]


def verifier_missing() -> str | None:
    """Why the knowledge verifier cannot run here (its extras are missing), else None."""
    missing: str | None = part(MANDELA).tools_missing()
    return missing


def _build(out: Path) -> tuple[Path, Path]:
    api.demo_parts()  # a fresh interpreter: construction receives the suites' parts from here

    return build_demo(out), build_demo_kb(out)


def _kept(out: Path) -> tuple[Path, Path] | None:
    """``OUT/dataset`` and ``OUT/kb`` when both are exactly what their last complete builds
    wrote, with this recipe (:mod:`forgebench.util.built`): what :func:`_build` would return
    without building anything, found without starting its process (about a CPU-second and a
    half of wall time on every resumed demo). None otherwise, and when another process holds
    ``OUT/work`` (the build process then says so, as ever). Checked under that lock, as
    :func:`~forgebench.demo.build.build_pipeline` checks the dataset."""
    from forgebench.run.lock import RunLocked, run_lock
    from forgebench.util import built

    dataset, kb = out / "dataset", out / "kb"
    if not (dataset.is_dir() and kb.is_dir()):
        return None
    try:
        with run_lock(out / "work", "demo"):
            return (dataset, kb) if built.unchanged(dataset) and built.unchanged(kb) else None
    except RunLocked:
        return None


ENGINE_PRELOAD = (
    "forgebench.run.generate",
    "forgebench.run.send.sending",
    "forgebench.models.builtin.artefact",
)


def _preload() -> None:
    """Import what the next steps run and load the verifier's OCR and face models (about a
    second of CPU), while the dataset is built in a child process: none of it holds much memory
    (the report's plotting and statistics libraries do: :data:`REPORT_MODULES`)."""
    parts = api.demo_parts()
    for name in (*ENGINE_PRELOAD, *(m for p in parts.values() for m in getattr(p, "preload", ()))):
        importlib.import_module(name)
    parts[MANDELA].preload_tools()  # loads both tools' models, where installed


REPORT_MODULES = (
    "forgebench._api.outputs",
    "forgebench.interop.run_formats",
    "forgebench.report.front",
    "forgebench.report.site",
)
"""What the report step imports beyond the earlier steps (plotting and data-frame libraries;
a regression's SciPy only where one is fitted, which the demo's few items never allow),
imported ahead once the verifier's tools have given their memory back; with the benchmarks'
own (``report_modules`` of their demo parts: :attr:`Demo.ahead_modules`)."""


@dataclass
class Later:
    """Steps the demo computes ahead of where it prints them (:meth:`Demo.ahead`)."""

    pixar: Ahead[Any]
    """PIXAR's labels and scores (metrics.csv is written in its place, after Mandela's rows)."""
    report_ready: Ahead[None] | None
    """The verifier's tools released and the report's modules imported, once the prewarm has
    read every image (None without the verifier)."""


@dataclass
class Demo:
    """Where the demo writes: ``OUT/dataset``, ``OUT/forensics``, the run ``OUT/run`` and the
    variant cache (``OUT/cache`` unless given)."""

    out: Path
    cache_dir: Path | None = None
    ahead_modules: tuple[str, ...] = field(default=())
    """The benchmarks' report modules imported ahead after :data:`REPORT_MODULES`."""

    @property
    def run_dir(self) -> Path:
        """The one run directory of all three benchmarks."""
        return self.out / "run"

    @property
    def forensics_dir(self) -> Path:
        """The Forensics demo set made from the demo's forgeries."""
        return self.out / FORENSICS

    @property
    def cache(self) -> Path:
        return self.cache_dir or self.out / "cache"

    @property
    def detector(self) -> ModelConfig:
        return ModelConfig(spec=DEMO_DETECTOR, concurrency=2)

    def build(self) -> tuple[Path, Path]:
        """The demo dataset and its knowledge base (``DemoError`` when OUT holds other things).

        Built in a child process: construction leaves about 200 MB behind (its libraries and the
        allocator's retained buffers), which would otherwise sit under the verifier's models for
        the rest of the demo; a fresh interpreter costs about a second. Where both are kept as
        built (a resumed demo), no process is started (:func:`_kept`).
        """
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        refuse_other_folder(self.out)  # at once, before the child and the models' loading
        kept = _kept(self.out)
        if kept is not None:  # a resumed demo: nothing to build
            _preload()
            return kept
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
            built = pool.submit(_build, self.out)
            _preload()  # on the core the child leaves free
            return built.result()

    def validate(self, dataset: Path) -> tuple[Any, list[str]]:
        """The dataset's validation (``api.validate``) and its problems as lines."""
        _suite, report = api.validate(dataset, benchmark=MANDELA)
        return report, [*report.errors, *report.warnings]

    def verifier_missing(self) -> str | None:
        """Why the knowledge verifier cannot run here, else None."""
        return verifier_missing()

    def verifier(self, kb: Path) -> tuple[ModelConfig, Selection]:
        """builtin/verifier on the demo's KB and the part of the protocol it is asked."""
        config = ModelConfig(spec=f"{DEMO_VERIFIER}@{kb.resolve()}", concurrency=2)
        return config, Selection(conditions=VERIFIER_CONDITIONS)

    @contextmanager
    def prewarm(self, dataset: Path, kb: Path) -> Iterator[Any]:
        """builtin/verifier's tool results computed in the background from here on (None when
        its extras are missing): the images it will be asked about are known from the dataset, so
        their OCR, scene matching and faces run while the detector is asked. Stopped when the
        block ends."""
        config, selection = self.verifier(kb)
        with part(MANDELA).prewarm(dataset, kb, config, selection, self.cache) as warm:
            yield warm

    @contextmanager
    def ahead(self, dataset: Path, warm: Any) -> Iterator[Later]:
        """Start the steps that need none of the answers asked in between on threads of their
        own (:mod:`.background`), once the prewarm has read every image (the demo's memory peaks
        while it reads): the release of the tools' memory, then PIXAR's scoring and the report's
        imports. They are small (about a CPU-second each) and run at the caller's priority: on a
        busy machine a niced one could starve and hold up the step waiting for it. Leaving the
        block waits for PIXAR's files (the imports may go on into the judge step: the report
        waits for them) and, when it leaves on an error, for everything after stopping the
        prewarm and skipping what has not started, so nothing is left half-written behind it."""
        stopping = threading.Event()
        released = threading.Event()

        def report_ready() -> None:
            assert warm is not None
            try:
                warm.join()
                if not stopping.is_set():
                    self.release_tools()
            finally:
                released.set()
            for name in (*REPORT_MODULES, *self.ahead_modules):
                if stopping.is_set():
                    return
                try:
                    importlib.import_module(name)
                except ImportError:  # e.g. two threads importing a cycle: the report imports
                    continue  # it again itself and says what is wrong, if anything

        def pixar() -> Any:
            if warm is not None:
                released.wait()
            if stopping.is_set():
                raise RuntimeError("the demo stopped before PIXAR was scored")
            return self.score_pixar(dataset)

        later = Later(
            Ahead("pixar", pixar),
            Ahead("report-ready", report_ready) if warm is not None else None,
        )
        try:
            yield later
        except BaseException:
            stopping.set()
            if warm is not None:
                warm.cancel()
            if later.report_ready is not None:
                later.report_ready.wait()
            raise
        finally:
            later.pixar.wait()  # it writes files; the report's imports go on beside the judge

    def behind(self, warm: Any, fn: Callable[[], T]) -> T:
        """``fn()``, giving way to the verifier's tools while ``warm`` runs them (their OCR is
        the demo's longest chain: :mod:`.background`), else simply called."""
        if warm is None:
            return fn()

        return giving_way(fn, "detector")

    def ask_mandela(
        self,
        dataset: Path,
        config: ModelConfig,
        selection: Selection,
        progress: RunProgress,
        warm: Any = None,
    ) -> api.RunResult:
        """Ask ``config`` its part of the Mandela protocol into the run (``api.run``); a
        builtin/verifier uses the verifier ``warm`` built and is filling, when its KB is the one
        asked."""
        trim()  # the previous stage's freed buffers
        settings = GenerationSettings(selection=selection, cache_dir=self.cache)
        with part(MANDELA).asking(warm, self.cache):  # a second demo reads the tools' results
            return api.run(
                dataset,
                self.run_dir,
                [config],
                settings,
                benchmark=MANDELA,
                send=SendOptions(progress),
            )

    def tool_times(self, warm: Any) -> str:
        """CPU seconds of the verifier's two tool threads so far and what the prewarm did (for
        the demo's timing lines: the OCR thread is the longest chain of the demo)."""
        times: str = part(MANDELA).tool_times(warm)
        return times

    def release_tools(self) -> None:
        """Give the OCR and face models' memory back before the later stages load theirs: once
        the prewarm has read every image, the verifier's answers read its results (a tool that
        failed there loads its model again)."""
        part(MANDELA).release_tools()
        import gc

        gc.collect()
        trim()

    def judge_mandela(self, console: Console) -> tuple[str, Path, str]:
        """Verdicts, ``builtin/rules`` grades and the Mandela rows of metrics.csv
        (``api.judge``, ``api.metrics``); the judge stage's summary line, the metrics file and
        the judge's name."""
        (outcome,) = api.judge(
            self.run_dir, DEMO_JUDGE, JudgeSettings(console=console), benchmark=MANDELA
        )
        path = api.metrics(self.run_dir, outcome.judge, benchmark=MANDELA)
        assert path is not None  # api.metrics raises when nothing was written
        return outcome.summary, path, outcome.judge

    def score_pixar(self, dataset: Path) -> Any:
        """PIXAR: the detector's score maps against the pixel labels of every forgery (label
        and score maps written; metrics.csv by :meth:`write_pixar`)."""
        pairs = part(MANDELA).forgery_pairs(dataset)
        return part(PIXAR).score(pairs, self.run_dir, score_map, model=DEMO_DETECTOR)

    def write_pixar(self, scored: Any) -> Any:
        """PIXAR's rows of metrics.csv."""
        part(PIXAR).write(self.run_dir, scored, model=DEMO_DETECTOR)
        return scored

    def ask_forensics(self, dataset: Path, progress: RunProgress) -> tuple[int, api.RunResult]:
        """Forensics questions from the demo's forgeries (``OUT/forensics``, made by the
        Forensics demo part), asked of the detector into the run: the number of questions and
        the run's result."""
        fx_dataset = self.forensics_dir
        n = part(FORENSICS).build(dataset, fx_dataset)
        settings = GenerationSettings(cache_dir=self.cache)
        result = api.run(
            fx_dataset, self.run_dir, [self.detector], settings, benchmark=FORENSICS,
            send=SendOptions(progress),
        )  # fmt: skip
        return n, result

    def score_forensics(self) -> Any:
        """The Forensics rows of metrics.csv and their console summary table (None without
        rows)."""
        api.metrics(self.run_dir, None, benchmark=FORENSICS)
        shown = api.summaries(self.run_dir, None, benchmark=FORENSICS)
        return shown[0] if shown else None

    def report(self) -> api.ReportResult:
        """One report of the run: a section per benchmark, every item of each."""
        return api.report(self.run_dir)
