"""``demo``: the whole pipeline on the bundled offline benchmark (its steps are
:mod:`forgebench.demo.pipeline`, which drives the stages through this API), and the suites'
demo parts it reaches through the registry (:func:`demo_parts`)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from forgebench import suites
from forgebench.demo.clock import StageClock
from forgebench.demo.pipeline import (
    DEMO_DETECTOR,
    DEMO_JUDGE,
    DEMO_VERIFIER,
    FORENSICS,
    PIXAR,
    Demo,
)
from forgebench.errors import UserError
from forgebench.run.send.progress import RunProgress
from forgebench.run.source import Selection
from forgebench.suites.base import DemoPart
from forgebench.util.memory import bound_heap, process_claimed

if TYPE_CHECKING:
    from rich.console import Console

    from forgebench.run.send.progress import RunProgress


def demo_parts() -> dict[str, Any]:
    """Each registered benchmark's part of the demo (the suite's ``demo`` facet), by benchmark name."""
    return {s.name: d.part for s in suites.all_suites() if (d := s.facet(DemoPart)) is not None}


class DemoShow(Protocol):
    """Where :func:`demo` says what it does (the command line prints; :class:`QuietShow` says
    nothing)."""

    console: Console
    """Progress bars of the asking and judging stages are drawn here."""

    def step(self, title: str) -> None:
        """A numbered step begins."""

    def line(self, text: str, *, err: bool = False, dim: bool = False) -> None:
        """One plain line (``err``: a problem or a warning; ``dim``: a timing line)."""

    def render(self, part: Any) -> None:
        """A rich renderable (a table) or a string."""

    def task_matrix(self, dataset: Path, model: str) -> None:
        """The dataset's task matrix for ``model`` (``forgebench tasks``)."""

    def metrics_summary(self, run_dir: Path, judge: str) -> None:
        """The console summary of metrics.csv (``forgebench metrics``)."""


class QuietShow:
    """A :class:`DemoShow` that says nothing (the default of :func:`demo` from Python)."""

    def __init__(self) -> None:
        from rich.console import Console

        self.console = Console(quiet=True)

    def step(self, title: str) -> None:
        pass

    def line(self, text: str, *, err: bool = False, dim: bool = False) -> None:
        pass

    def render(self, part: Any) -> None:
        pass

    def task_matrix(self, dataset: Path, model: str) -> None:
        pass

    def metrics_summary(self, run_dir: Path, judge: str) -> None:
        pass


@dataclass
class DemoResult:
    """What :func:`demo` wrote."""

    dataset: Path
    """``OUT/dataset``: the Mandela-format demo dataset."""
    run_dir: Path
    """``OUT/run``: the one run of all three benchmarks."""
    metrics: Path
    """``OUT/run/metrics.csv``."""
    report: Path
    """``OUT/run/report/index.html``."""
    seconds: float = 0.0
    """Wall-clock time of the whole demo."""
    notes: list[str] = field(default_factory=list)


def demo(
    out: str | Path = "demo_out",
    cache_dir: str | Path | None = None,
    *,
    show: DemoShow | None = None,
) -> DemoResult:
    """Build the offline demo benchmark and the knowledge verifier's KB, validate it, show the
    task matrix, ask builtin/artefact and builtin/verifier through the runner (``api.run``),
    judge with builtin/rules and write metrics.csv (``api.judge``, ``api.metrics``), score
    PIXAR, ask and score the Forensics part (questions made from the demo's forgeries) in the
    same run and write its one report (``api.report``). Resumable: the same call again sends
    nothing. ``show`` is told each step (default: nothing). :class:`UserError` when OUT holds
    other things (exit 2), and exit 1 for what would be a bug (an invalid demo dataset, tasks
    left without an answer)."""
    shown: DemoShow = show if show is not None else QuietShow()
    started = time.perf_counter()
    clock = StageClock()

    def lap(step: str) -> None:
        shown.line(clock.lap(step), dim=True)

    def progress() -> RunProgress:
        return RunProgress(shown.console)

    if process_claimed():  # the forgebench script's own process, not a caller's Python session
        bound_heap()  # the verifier's OCR and face models would otherwise fragment the heap
    ahead = tuple(m for p in demo_parts().values() for m in getattr(p, "report_modules", ()))
    steps = Demo(Path(out), Path(cache_dir) if cache_dir is not None else None, ahead)
    run_dir = steps.run_dir

    shown.step("1. Build the demo dataset")
    dataset, kb = steps.build()
    shown.line(f"dataset: {dataset}")
    shown.line(f"knowledge base for {DEMO_VERIFIER}: {kb}")
    lap("build")

    shown.step("2. Validate it")
    report, problems = steps.validate(dataset)
    for line in problems:
        shown.line(line, err=True)
    if not report.ok:
        raise _Bug(f"the demo dataset has {len(report.errors)} problems (a bug: please report it)")
    for part in report.summary:
        shown.render(part)
    lap("validate")

    shown.step("3. The task matrix")
    shown.task_matrix(dataset, DEMO_DETECTOR)
    lap("matrix")

    why_not = steps.verifier_missing()
    shown.step(
        f"4. Ask {DEMO_DETECTOR}{'' if why_not else f' and {DEMO_VERIFIER}'} through the runner"
    )
    if why_not is not None:
        shown.line(
            f"{DEMO_VERIFIER} skipped: {why_not} (pip install 'forgebench[faces,ocr]'); "
            f"the demo runs {DEMO_DETECTOR} alone"
        )
    else:
        shown.line(
            f"{DEMO_VERIFIER} answers the full-image conditions only (OCR and scene matching "
            "take about a second per image; they read the images in the background while "
            f"{DEMO_DETECTOR} answers the Mandela and Forensics questions); forgebench run "
            f"DATASET --model {DEMO_VERIFIER}@{kb} runs every condition"
        )

    def asked(result: Any, what: str) -> None:
        for m in result.models:
            shown.line(f"{m.name}: {m.tasks} tasks, {m.sent} sent, {m.errors} errors")
        if result.remaining:
            raise _Bug(f"{result.remaining} {what} have no answer; see forgebench status {run_dir}")

    # warm: None without the verifier's extras; later: PIXAR and the report's imports, ahead
    with steps.prewarm(dataset, kb) as warm, steps.ahead(dataset, warm) as later:
        with progress() as bars:
            result = steps.behind(
                warm, lambda: steps.ask_mandela(dataset, steps.detector, Selection(), bars)
            )
        asked(result, "demo tasks")
        lap(f"ask {DEMO_DETECTOR} (Mandela)")
        with progress() as bars:
            n_questions, fx = steps.behind(warm, lambda: steps.ask_forensics(dataset, bars))
        asked(fx, "Forensics demo tasks")
        lap(f"ask {DEMO_DETECTOR} (Forensics)")
        if why_not is None:
            config, selection = steps.verifier(kb)
            with progress() as bars:
                result = steps.ask_mandela(dataset, config, selection, bars, warm)
            asked(result, "demo tasks")
            lap(f"ask {DEMO_VERIFIER}")
            shown.line(f"  [tools] {steps.tool_times(warm)}", dim=True)
    steps.release_tools()

    shown.step(f"5. Judge with {DEMO_JUDGE} and write metrics.csv")
    summary, metrics, judge = steps.judge_mandela(shown.console)
    shown.line(summary)
    shown.metrics_summary(run_dir, judge)
    lap("judge")

    shown.step("6. PIXAR: pixel labels of every forgery, scored against the detector's score maps")
    pixar = steps.write_pixar(later.pixar.result())
    r = pixar.results
    shown.line(
        f"{pixar.n_pairs} pairs: gIoU {r['giou']:.1f}  cIoU {r['ciou']:.1f}  F1 {r['f1']:.1f}  "
        f"AUC {r['auc']:.1f}"
    )
    lap(PIXAR)

    shown.step(
        "7. Forensics: binary, segmentation and detection questions from the demo's forgeries"
    )
    shown.line(f"{n_questions} questions in {steps.forensics_dir}")
    table = steps.score_forensics()
    if table is not None:
        shown.render(table)
    lap(FORENSICS)

    shown.step("8. Report")
    if later.report_ready is not None:
        later.report_ready.result()  # what went wrong there, if anything, is raised here
    built = steps.report()
    for line in built.notes:
        shown.line(line, err=line.startswith("warning"))
    for w in built.warnings[:20]:
        shown.line(f"warning: {w}", err=True)
    shown.line(f"metrics: {metrics}")
    shown.line(f"report:  {built.index}")
    lap("report")
    seconds = time.perf_counter() - started
    shown.line(f"\ndemo finished in {seconds:.1f} s")
    return DemoResult(dataset, run_dir, metrics, built.index, seconds, built.notes)


class _Bug(UserError):
    """What the demo should never meet (an invalid demo dataset, tasks left unanswered)."""

    exit_code = 1
