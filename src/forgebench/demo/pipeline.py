"""The demo's steps: the whole pipeline, offline, for all three benchmarks in ONE run directory.

``forgebench demo --out OUT`` calls these in order and prints what they return:

1. build the Mandela-format demo dataset and the knowledge verifier's KB (:mod:`.build`,
   :mod:`.kb`) and validate it;
2. ask ``builtin/artefact`` (and ``builtin/verifier`` where its extras are installed, on the
   full-image conditions) every Mandela question through the runner into ``OUT/run``;
3. parse verdicts, judge with ``builtin/rules`` and write the Mandela rows of metrics.csv;
4. PIXAR: label every forgery against its original and score the detector's score maps
   (:mod:`.pixar`), into the same run's metrics.csv;
5. Forensics: binary, segmentation and detection questions made from the demo's forgeries
   (``OUT/forensics``), asked of ``builtin/artefact`` into the same run and scored;
6. one report of the run (``OUT/run/report/index.html``), a section per benchmark.

Each benchmark's scoring writes only its own rows (``results.metrics_csv.Scope``): the Mandela
rows are the same as in a run holding Mandela alone. Resumable: the same command again sends
nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forgebench.models.spec import ModelConfig
from forgebench.run.generate import GenerationResult, GenerationSettings, run_generation
from forgebench.run.source import Selection

if TYPE_CHECKING:
    from rich.console import Console

    from forgebench.api import ReportResult
    from forgebench.demo.pixar import PixarDemoResult
    from forgebench.run.progress import RunProgress
    from forgebench.suites.mandela.validate import ValidationReport

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
    from forgebench.demo.build import build_demo
    from forgebench.demo.kb import build_demo_kb

    return build_demo(out), build_demo_kb(out)


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
            return pool.submit(_build, self.out).result()

    def validate(self, dataset: Path) -> tuple[ValidationReport, list[str]]:
        """The dataset's validation report and its problems as lines."""
        from forgebench.suites.mandela.validate import validate_dataset

        report = validate_dataset(dataset)
        return report, [str(p) for p in report.errors + report.warnings]

    def print_dataset_summary(self, report: ValidationReport, console: Console) -> None:
        from forgebench.suites.mandela.validate import print_summary

        print_summary(report, console)

    def mandela_models(self, kb: Path) -> list[tuple[ModelConfig, Selection]]:
        """The models the Mandela part asks, each with its part of the protocol."""
        runs = [(self.detector, Selection())]
        if verifier_missing() is None:
            verifier = ModelConfig(spec=f"{DEMO_VERIFIER}@{kb.resolve()}", concurrency=2)
            runs.append((verifier, Selection(conditions=VERIFIER_CONDITIONS)))
        return runs

    def ask_mandela(
        self, dataset: Path, config: ModelConfig, selection: Selection, progress: RunProgress
    ) -> GenerationResult:
        from forgebench.suites.mandela.suite import SUITE as MANDELA
        from forgebench.suites.mandela.verifier.toolcache import FOLDER, kept_in
        from forgebench.util.memory import trim

        trim()  # the previous stage's freed buffers, before the verifier's models load
        settings = GenerationSettings(selection=selection, cache_dir=self.cache)
        with kept_in(self.cache / FOLDER):  # a second demo reads the verifier's tool results
            return run_generation(
                MANDELA, dataset, self.run_dir, [config], settings, progress=progress
            )

    def release_tools(self) -> None:
        """Nothing after the Mandela answers reads text or faces: give the OCR and face models'
        memory back before the later stages load theirs."""
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

    def pixar(self, dataset: Path) -> PixarDemoResult:
        """PIXAR: the detector's score maps against the pixel labels of every forgery."""
        from forgebench.demo.pixar import run_pixar
        from forgebench.models.builtin.artefact import score_map

        return run_pixar(dataset, self.run_dir, score_map, model=DEMO_DETECTOR)

    def forensics(self, dataset: Path, progress: RunProgress) -> tuple[int, GenerationResult, Any]:
        """Forensics questions from the demo's forgeries, asked of the detector into the run and
        scored: the number of questions, the generation result and a console summary table
        (None without rows)."""
        from forgebench.results.metrics_csv import read_metrics
        from forgebench.suites.forensics.demo import build_forensics_demo
        from forgebench.suites.forensics.report_section import summary_table
        from forgebench.suites.forensics.suite import SUITE as FORENSICS

        fx_dataset = self.out / "forensics"
        items = build_forensics_demo(dataset, fx_dataset)
        settings = GenerationSettings(cache_dir=self.cache)
        result = run_generation(
            FORENSICS, fx_dataset, self.run_dir, [self.detector], settings, progress=progress
        )
        if result.remaining:
            return len(items), result, None
        path = FORENSICS.score(self.run_dir, None)
        table = summary_table(read_metrics(path, benchmark="forensics")) if path else None
        return len(items), result, table

    def report(self) -> ReportResult:
        """One report of the run: a section per benchmark, every item of each."""
        from forgebench import api

        return api.report(self.run_dir)
