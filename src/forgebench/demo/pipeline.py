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
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from forgebench.models.spec import ModelConfig
from forgebench.run.generate import GenerationSettings, SendOptions, run_generation
from forgebench.run.source import Selection

if TYPE_CHECKING:
    from rich.console import Console

    from forgebench.api import ReportResult
    from forgebench.demo.background import Ahead
    from forgebench.demo.pixar import PixarDemoResult
    from forgebench.run.generate import GenerationResult
    from forgebench.run.send.progress import RunProgress
    from forgebench.suites.mandela.validate import ValidationReport
    from forgebench.suites.mandela.verifier.model import Verifier
    from forgebench.suites.mandela.verifier.prewarm import Prewarm

T = TypeVar("T")

DEMO_DETECTOR = "builtin/artefact"
DEMO_VERIFIER = "builtin/verifier"
DEMO_JUDGE = "builtin/rules"
VERIFIER_CONDITIONS = ("full", "face_original", "face_replacement", "none")
"""Conditions the demo asks builtin/verifier (every probe; the crop, mirror and caption variants
are left to ``forgebench run`` to keep the demo short)."""


def verifier_missing() -> str | None:
    """Why the knowledge verifier cannot run here (its extras are missing), else None."""
    from forgebench.suites.mandela.verifier import faces, ocr

    checks = (("faces", faces.available()), ("ocr", ocr.available()))
    missing = [name for name, ok in checks if not ok]
    if missing:
        extras = ",".join(missing)
        return f"the {extras} extra{'s are' if len(missing) > 1 else ' is'} not installed"
    return None


def _build(out: Path) -> tuple[Path, Path]:
    from forgebench import suites
    from forgebench.demo.build import build_demo
    from forgebench.demo.kb import build_demo_kb

    suites.load()  # a fresh interpreter: construction receives the suites' parts from here

    return build_demo(out), build_demo_kb(out)


def _preload() -> None:
    """Import what the next steps run and load the verifier's OCR and face models (about a
    second of CPU), while the dataset is built in a child process: none of it holds much memory
    (the report's plotting and statistics libraries do: :data:`REPORT_MODULES`)."""
    for name in (
        "forgebench.run.generate",
        "forgebench.run.send.sending",
        "forgebench.models.builtin.artefact",
        "forgebench.suites.mandela.suite",
        "forgebench.suites.mandela.validate",
        "forgebench.suites.forensics.suite",
        "forgebench.suites.forensics.demo",
    ):
        importlib.import_module(name)
    if verifier_missing() is None:  # loads both tools' models
        importlib.import_module("forgebench.suites.mandela.verifier.prewarm")


REPORT_MODULES = (
    "forgebench._api.outputs",
    "forgebench.interop.run_formats",
    "forgebench.report.front",
    "forgebench.report.site",
    "forgebench.suites.mandela.figures",
    "forgebench.suites.mandela.headline",
    "forgebench.suites.mandela.tables",
    "forgebench.suites.mandela.regression",
    "forgebench.suites.mandela.viewer_card",
    "forgebench.suites.forensics.item_view",
    "forgebench.suites.forensics.intervals",
    "forgebench.suites.forensics.viewer_tags",
    "forgebench.suites.pixar.suite",
    "forgebench.suites.pixar.section",
    "forgebench.suites.pixar.intervals",
    "forgebench.suites.pixar.gallery",
)
"""What the report step imports beyond the earlier steps (plotting and data-frame libraries;
a regression's SciPy only where one is fitted, which the demo's few items never allow),
imported ahead once the verifier's tools have given their memory back."""


@dataclass
class Later:
    """Steps the demo computes ahead of where it prints them (:meth:`Demo.ahead`)."""

    pixar: Ahead[PixarDemoResult]
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

    @property
    def run_dir(self) -> Path:
        """The one run directory of all three benchmarks."""
        return self.out / "run"

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
        the rest of the demo; a fresh interpreter costs about a second.
        """
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
            built = pool.submit(_build, self.out)
            _preload()  # on the core the child leaves free
            return built.result()

    def validate(self, dataset: Path) -> tuple[ValidationReport, list[str]]:
        """The dataset's validation report and its problems as lines."""
        from forgebench.suites.mandela.validate import validate_dataset

        report = validate_dataset(dataset)
        return report, [str(p) for p in report.errors + report.warnings]

    def print_dataset_summary(self, report: ValidationReport, console: Console) -> None:
        from forgebench.suites.mandela.validate import print_summary

        print_summary(report, console)

    def verifier(self, kb: Path) -> tuple[ModelConfig, Selection]:
        """builtin/verifier on the demo's KB and the part of the protocol it is asked."""
        config = ModelConfig(spec=f"{DEMO_VERIFIER}@{kb.resolve()}", concurrency=2)
        return config, Selection(conditions=VERIFIER_CONDITIONS)

    @contextmanager
    def prewarm(self, dataset: Path, kb: Path) -> Iterator[Prewarm | None]:
        """builtin/verifier's tool results computed in the background from here on (None when
        its extras are missing): the images it will be asked about are known from the dataset, so
        their OCR, scene matching and faces run while the detector is asked. Stopped when the
        block ends."""
        if verifier_missing() is not None:
            yield None
            return
        from forgebench.run.generate import plan
        from forgebench.suites.mandela.suite import SUITE as MANDELA
        from forgebench.suites.mandela.verifier.kb import load_kb
        from forgebench.suites.mandela.verifier.model import create
        from forgebench.suites.mandela.verifier.prewarm import Prewarm, jobs_of
        from forgebench.suites.mandela.verifier.toolcache import FOLDER, holder, kept_in

        config, selection = self.verifier(kb)
        planned = plan(MANDELA, dataset, [config], selection, cache_dir=self.cache)
        asked = (
            (t.probe, t.question.images[0].path, t.question.images[0].variant_id)
            for t in planned.tasks[config.name]
            if t.question.images
        )

        def make() -> Verifier:
            with kept_in(self.cache / FOLDER):
                return create(config).verifier

        kept = holder(self.cache / FOLDER, load_kb(kb).fingerprint(), "text")
        warm = Prewarm(make, jobs_of(asked), stored=kept).start()
        try:
            yield warm
        finally:
            warm.cancel()
            warm.join()

    @contextmanager
    def ahead(self, dataset: Path, warm: Prewarm | None) -> Iterator[Later]:
        """Start the steps that need none of the answers asked in between on threads of their
        own (:mod:`.background`), once the prewarm has read every image (the demo's memory peaks
        while it reads): the release of the tools' memory, then PIXAR's scoring and the report's
        imports. They are small (about a CPU-second each) and run at the caller's priority: on a
        busy machine a niced one could starve and hold up the step waiting for it. Leaving the
        block waits for PIXAR's files (the imports may go on into the judge step: the report
        waits for them) and, when it leaves on an error, for everything after stopping the
        prewarm and skipping what has not started, so nothing is left half-written behind it."""
        from forgebench.demo.background import Ahead

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
            for name in REPORT_MODULES:
                if stopping.is_set():
                    return
                try:
                    importlib.import_module(name)
                except ImportError:  # e.g. two threads importing a cycle: the report imports
                    continue  # it again itself and says what is wrong, if anything

        def pixar() -> PixarDemoResult:
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

    def behind(self, warm: Prewarm | None, fn: Callable[[], T]) -> T:
        """``fn()``, giving way to the verifier's tools while ``warm`` runs them (their OCR is
        the demo's longest chain: :mod:`.background`), else simply called."""
        if warm is None:
            return fn()
        from forgebench.demo.background import giving_way

        return giving_way(fn, "detector")

    def ask_mandela(
        self,
        dataset: Path,
        config: ModelConfig,
        selection: Selection,
        progress: RunProgress,
        warm: Prewarm | None = None,
    ) -> GenerationResult:
        """Ask ``config`` its part of the Mandela protocol into the run; a builtin/verifier
        uses the verifier ``warm`` built and is filling, when its KB is the one asked."""
        from contextlib import nullcontext

        from forgebench.suites.mandela.suite import SUITE as MANDELA
        from forgebench.suites.mandela.verifier.model import reusing
        from forgebench.suites.mandela.verifier.toolcache import FOLDER, kept_in
        from forgebench.util.memory import trim

        trim()  # the previous stage's freed buffers
        ready = warm.verifier() if warm is not None else None
        settings = GenerationSettings(selection=selection, cache_dir=self.cache)
        with (
            kept_in(self.cache / FOLDER),  # a second demo reads the verifier's tool results
            reusing(ready) if ready is not None else nullcontext(),
        ):
            return run_generation(
                MANDELA, dataset, self.run_dir, [config], settings, options=SendOptions(progress)
            )

    def tool_times(self, warm: Prewarm | None) -> str:
        """CPU seconds of the verifier's two tool threads so far and what the prewarm did (for
        the demo's timing lines: the OCR thread is the longest chain of the demo)."""
        from forgebench.suites.mandela.verifier import threads

        ocr, vision = threads.OCR.cpu_seconds(), threads.VISION.cpu_seconds()
        line = f"OCR thread {ocr or 0.0:.1f} CPU-s, vision thread {vision or 0.0:.1f} CPU-s"
        if warm is not None:
            line += f"; {len(warm.jobs)} images read ahead, {len(warm.failed)} failed there"
        return line

    def release_tools(self) -> None:
        """Give the OCR and face models' memory back before the later stages load theirs: once
        the prewarm has read every image, the verifier's answers read its results (a tool that
        failed there loads its model again)."""
        from forgebench.suites.mandela.verifier import faces, ocr

        ocr.release()
        faces.release()
        import gc

        from forgebench.util.memory import trim

        gc.collect()
        trim()

    def judge_mandela(self, console: Console) -> tuple[str, Path, str]:
        """Verdicts, ``builtin/rules`` grades and the Mandela rows of metrics.csv; the judge
        stage's summary line, the metrics file and the judge's name."""
        from forgebench.run.judging import JudgeSettings
        from forgebench.run.store import Store
        from forgebench.suites.mandela.judge import judge_run
        from forgebench.suites.mandela.metrics import write_metrics
        from forgebench.suites.mandela.parse_run import parse_run

        with Store.open(self.run_dir, create=False) as store:
            parse_run(store)
        stats = judge_run(self.run_dir, DEMO_JUDGE, JudgeSettings(console=console))
        return stats.summary(), write_metrics(self.run_dir, stats.judge), stats.judge

    def score_pixar(self, dataset: Path) -> PixarDemoResult:
        """PIXAR: the detector's score maps against the pixel labels of every forgery (label
        and score maps written; metrics.csv by :meth:`write_pixar`)."""
        from forgebench.demo.pixar import score_pixar
        from forgebench.models.builtin.artefact import score_map

        return score_pixar(dataset, self.run_dir, score_map, model=DEMO_DETECTOR)

    def write_pixar(self, scored: PixarDemoResult) -> PixarDemoResult:
        """PIXAR's rows of metrics.csv."""
        from forgebench.demo.pixar import write_pixar

        write_pixar(self.run_dir, scored, model=DEMO_DETECTOR)
        return scored

    def ask_forensics(self, dataset: Path, progress: RunProgress) -> tuple[int, GenerationResult]:
        """Forensics questions from the demo's forgeries (``OUT/forensics``), asked of the
        detector into the run: the number of questions and the generation result."""
        from forgebench.suites.forensics.demo import build_forensics_demo
        from forgebench.suites.forensics.suite import SUITE as FORENSICS

        fx_dataset = self.out / "forensics"
        items = build_forensics_demo(dataset, fx_dataset)
        result = run_generation(
            FORENSICS, fx_dataset, self.run_dir, [self.detector],
            GenerationSettings(cache_dir=self.cache), options=SendOptions(progress),
        )  # fmt: skip
        return len(items), result

    def score_forensics(self) -> Any:
        """The Forensics rows of metrics.csv and a console summary table (None without rows)."""
        from forgebench.results.metrics_csv import read_metrics
        from forgebench.suites.forensics.report_section import summary_table
        from forgebench.suites.forensics.suite import SUITE as FORENSICS

        path = FORENSICS.score(self.run_dir, None)
        return summary_table(read_metrics(path, benchmark="forensics")) if path else None

    def report(self) -> ReportResult:
        """One report of the run: a section per benchmark, every item of each."""
        from forgebench import api

        return api.report(self.run_dir)
