"""CLI command: ``forgebench demo``, the whole pipeline on the bundled offline benchmark (the
steps are :mod:`forgebench.demo.pipeline`; this module prints them)."""

from __future__ import annotations

import time
from pathlib import Path

import typer

from forgebench._cli.app import console, err_console, fail, verbs


def _step(title: str) -> None:
    console.print(f"\n{title}", style="bold")


@verbs.command("demo")
def demo(
    out: Path = typer.Option(
        Path("demo_out"), "--out", help="Folder for the demo datasets and run."
    ),
    cache_dir: Path | None = typer.Option(
        None, "--cache-dir", help="Image-variant cache (default: OUT/cache)."
    ),
) -> None:
    """Build the offline demo benchmark and the knowledge verifier's KB, validate it, print the
    task matrix, run builtin/artefact and builtin/verifier through the runner, judge with
    builtin/rules, write metrics.csv, score PIXAR, run the Forensics part (questions made from the
    demo's forgeries) in the same run and write its one report."""
    from forgebench._cli.protocol import tasks as print_task_matrix
    from forgebench._cli.scoring import print_summary
    from forgebench.demo.build import DemoError
    from forgebench.demo.clock import StageClock
    from forgebench.demo.pipeline import (
        DEMO_DETECTOR,
        DEMO_JUDGE,
        DEMO_VERIFIER,
        Demo,
        verifier_missing,
    )
    from forgebench.run.generate import GenerationResult
    from forgebench.run.send.progress import RunProgress
    from forgebench.run.source import Selection
    from forgebench.util.memory import bound_heap, process_claimed

    started = time.perf_counter()
    clock = StageClock()

    def lap(step: str) -> None:
        console.print(clock.lap(step), markup=False, style="dim")

    if process_claimed():  # the forgebench script's own process, not a caller's Python session
        bound_heap()  # the verifier's OCR and face models would otherwise fragment the heap
    steps = Demo(out, cache_dir)
    run_dir = steps.run_dir

    _step("1. Build the demo dataset")
    try:
        dataset, kb = steps.build()
    except DemoError as exc:
        fail(str(exc), 2)
    console.print(f"dataset: {dataset}", markup=False)
    console.print(f"knowledge base for {DEMO_VERIFIER}: {kb}", markup=False)
    lap("build")

    _step("2. Validate it")
    report, problems = steps.validate(dataset)
    for line in problems:
        err_console.print(line, markup=False)
    if not report.ok:
        fail(f"the demo dataset has {len(report.errors)} problems (a bug: please report it)", 1)
    steps.print_dataset_summary(report, console)
    lap("validate")

    _step("3. The task matrix")
    print_task_matrix(dataset, probes=None, conditions=None, models=DEMO_DETECTOR)
    lap("matrix")

    why_not = verifier_missing()
    _step(f"4. Ask {DEMO_DETECTOR}{'' if why_not else f' and {DEMO_VERIFIER}'} through the runner")
    if why_not is not None:
        console.print(
            f"{DEMO_VERIFIER} skipped: {why_not} (pip install 'forgebench[faces,ocr]'); "
            f"the demo runs {DEMO_DETECTOR} alone",
            markup=False,
        )
    else:
        console.print(
            f"{DEMO_VERIFIER} answers the full-image conditions only (OCR and scene matching "
            "take about a second per image; they read the images in the background while "
            f"{DEMO_DETECTOR} answers the Mandela and Forensics questions); forgebench run "
            f"DATASET --model {DEMO_VERIFIER}@{kb} runs every condition",
            markup=False,
        )

    def asked(result: GenerationResult, what: str) -> None:
        for m in result.models:
            console.print(
                f"{m.name}: {m.tasks} tasks, {m.sent} sent, {m.errors} errors", markup=False
            )
        if result.remaining:
            fail(f"{result.remaining} {what} have no answer; see forgebench status {run_dir}", 1)

    # warm: None without the verifier's extras; later: PIXAR and the report's imports, ahead
    with steps.prewarm(dataset, kb) as warm, steps.ahead(dataset, warm) as later:
        with RunProgress(console) as progress:
            result = steps.behind(
                warm, lambda: steps.ask_mandela(dataset, steps.detector, Selection(), progress)
            )
        asked(result, "demo tasks")
        lap(f"ask {DEMO_DETECTOR} (Mandela)")
        with RunProgress(console) as progress:
            n_questions, fx = steps.behind(warm, lambda: steps.ask_forensics(dataset, progress))
        asked(fx, "Forensics demo tasks")
        lap(f"ask {DEMO_DETECTOR} (Forensics)")
        if why_not is None:
            config, selection = steps.verifier(kb)
            with RunProgress(console) as progress:
                result = steps.ask_mandela(dataset, config, selection, progress, warm)
            asked(result, "demo tasks")
            lap(f"ask {DEMO_VERIFIER}")
            console.print(f"  [tools] {steps.tool_times(warm)}", markup=False, style="dim")
    steps.release_tools()

    _step(f"5. Judge with {DEMO_JUDGE} and write metrics.csv")
    summary, metrics, judge = steps.judge_mandela(err_console)
    console.print(summary, markup=False)
    print_summary(run_dir, judge, console)
    lap("judge")

    _step("6. PIXAR: pixel labels of every forgery, scored against the detector's score maps")
    pixar = steps.write_pixar(later.pixar.result())
    r = pixar.results
    console.print(
        f"{pixar.n_pairs} pairs: gIoU {r['giou']:.1f}  cIoU {r['ciou']:.1f}  F1 {r['f1']:.1f}  "
        f"AUC {r['auc']:.1f}",
        markup=False,
    )
    lap("pixar")

    _step("7. Forensics: binary, segmentation and detection questions from the demo's forgeries")
    console.print(f"{n_questions} questions in {out / 'forensics'}", markup=False)
    table = steps.score_forensics()
    if table is not None:
        console.print(table)
    lap("forensics")

    _step("8. Report")
    if later.report_ready is not None:
        later.report_ready.result()  # what went wrong there, if anything, is raised here
    built = steps.report()
    for line in built.notes:
        (err_console if line.startswith("warning") else console).print(line, markup=False)
    for w in built.warnings[:20]:
        err_console.print(f"warning: {w}", markup=False)
    console.print(f"metrics: {metrics}", markup=False)
    console.print(f"report:  {built.index}", markup=False)
    lap("report")
    console.print(f"\ndemo finished in {time.perf_counter() - started:.1f} s", markup=False)
