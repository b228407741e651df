"""CLI command: ``forgebench demo``, the whole pipeline on the bundled offline benchmark."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from forgebench._cli.app import app, console, err_console, fail

if TYPE_CHECKING:
    from forgebench.models.spec import ModelConfig

DEMO_DETECTOR = "builtin/artefact"
DEMO_VERIFIER = "builtin/verifier"
DEMO_JUDGE = "builtin/rules"
VERIFIER_CONDITIONS = ("full", "face_original", "face_replacement", "none")
"""Conditions the demo asks builtin/verifier (every probe; the crop, mirror and caption variants
are left to ``forgebench run`` to keep the demo short)."""


def _verifier_missing() -> str | None:
    """Why the knowledge verifier cannot run here (its extras are missing), else None."""
    from forgebench.suites.mandela.verifier import faces, ocr

    checks = (("faces", faces.available()), ("ocr", ocr.available()))
    missing = [name for name, ok in checks if not ok]
    if missing:
        extras = ",".join(missing)
        return f"the {extras} extra{'s are' if len(missing) > 1 else ' is'} not installed"
    return None


def _step(title: str) -> None:
    console.print(f"\n[bold]{title}[/bold]")


def _forensics_demo(dataset: Path, out: Path, cache: Path, config: ModelConfig) -> Path:
    """The demo's Forensics part in its own run directory (``OUT/forensics_run``: the report's
    item viewer reads one dataset folder per run): build, run builtin/artefact, score, report."""
    from forgebench import api
    from forgebench.run.generate import GenerationSettings, run_generation
    from forgebench.run.progress import RunProgress
    from forgebench.suites.forensics.demo import build_forensics_demo
    from forgebench.suites.forensics.suite import SUITE as FORENSICS

    fx_dataset = out / "forensics"
    fx_run = out / "forensics_run"
    items = build_forensics_demo(dataset, fx_dataset)
    console.print(f"{len(items)} questions in {fx_dataset}", markup=False)
    with RunProgress(console) as progress:
        result = run_generation(
            FORENSICS, fx_dataset, fx_run, [config], GenerationSettings(cache_dir=cache),
            progress=progress,
        )  # fmt: skip
    if result.remaining:
        fail(
            f"{result.remaining} Forensics demo tasks have no answer; see forgebench status {fx_run}",
            1,
        )
    path = api.metrics(fx_run)
    if path is not None:
        from forgebench.results.metrics_csv import read_metrics
        from forgebench.suites.forensics.report_section import summary_table

        table = summary_table(read_metrics(path, benchmark="forensics"))
        if table is not None:
            console.print(table)
    return api.report(fx_run, dataset=fx_dataset).index


@app.command("demo")
def demo(
    out: Path = typer.Option(
        Path("demo_out"), "--out", help="Folder for the demo dataset and run."
    ),
    cache_dir: Path | None = typer.Option(
        None, "--cache-dir", help="Image-variant cache (default: OUT/cache)."
    ),
) -> None:
    """Build the offline demo benchmark and the knowledge verifier's KB, validate it, print the
    task matrix, run builtin/artefact and builtin/verifier through the runner, judge with
    builtin/rules, write metrics.csv, score PIXAR, run the Forensics part (questions made from the
    demo's forgeries) and write the reports."""
    from forgebench._cli.protocol import tasks as print_task_matrix
    from forgebench._cli.scoring import parse_verdicts, print_summary
    from forgebench._cli.site import build_report
    from forgebench.demo.build import DemoError, build_demo
    from forgebench.demo.kb import build_demo_kb
    from forgebench.models.builtin.artefact import score_map
    from forgebench.models.spec import ModelConfig
    from forgebench.run.generate import GenerationSettings, run_generation
    from forgebench.run.judging import JudgeSettings
    from forgebench.run.progress import RunProgress
    from forgebench.run.source import Selection
    from forgebench.suites.mandela.judge import judge_run
    from forgebench.suites.mandela.metrics import write_metrics
    from forgebench.suites.mandela.suite import SUITE as MANDELA
    from forgebench.suites.mandela.validate import print_summary as print_dataset_summary
    from forgebench.suites.mandela.validate import validate_dataset
    from forgebench.suites.pixar.demo import run_pixar

    started = time.perf_counter()
    run_dir = out / "run"
    cache = cache_dir or out / "cache"

    _step("1. Build the demo dataset")
    try:
        dataset = build_demo(out)
    except DemoError as exc:
        fail(str(exc), 2)
    console.print(f"dataset: {dataset}", markup=False)
    kb = build_demo_kb(out)
    console.print(f"knowledge base for {DEMO_VERIFIER}: {kb}", markup=False)

    _step("2. Validate it")
    report = validate_dataset(dataset)
    for p in report.errors + report.warnings:
        err_console.print(str(p), markup=False)
    if not report.ok:
        fail(f"the demo dataset has {len(report.errors)} problems (a bug: please report it)", 1)
    print_dataset_summary(report, console)

    _step("3. The task matrix")
    print_task_matrix(dataset, probes=None, conditions=None, models=DEMO_DETECTOR)

    config = ModelConfig(spec=DEMO_DETECTOR, concurrency=2)
    why_not = _verifier_missing()
    runs = [(config, Selection())]
    if why_not is None:
        verifier = ModelConfig(spec=f"{DEMO_VERIFIER}@{kb.resolve()}", concurrency=2)
        runs.append((verifier, Selection(conditions=VERIFIER_CONDITIONS)))
    _step(f"4. Ask {' and '.join(c.name for c, _ in runs)} through the runner")
    if why_not is not None:
        console.print(
            f"{DEMO_VERIFIER} skipped: {why_not} (pip install 'forgebench[faces,ocr]'); "
            f"the demo runs {DEMO_DETECTOR} alone",
            markup=False,
        )
    else:
        console.print(
            f"{DEMO_VERIFIER} answers the full-image conditions only (OCR and scene matching "
            "take about a second per image); forgebench run DATASET --model "
            f"{DEMO_VERIFIER}@{kb} runs every condition",
            markup=False,
        )
    for model_config, selection in runs:
        with RunProgress(console) as progress:
            result = run_generation(
                MANDELA,
                dataset,
                run_dir,
                [model_config],
                GenerationSettings(selection=selection, cache_dir=cache),
                progress=progress,
            )
        for m in result.models:
            console.print(
                f"{m.name}: {m.tasks} tasks, {m.sent} sent, {m.errors} errors", markup=False
            )
        if result.remaining:
            fail(
                f"{result.remaining} demo tasks have no answer; see forgebench status {run_dir}", 1
            )

    _step(f"5. Judge with {DEMO_JUDGE} and write metrics.csv")
    parse_verdicts(run_dir)
    stats = judge_run(run_dir, DEMO_JUDGE, JudgeSettings(console=err_console))
    console.print(stats.summary(), markup=False)
    metrics = write_metrics(run_dir, stats.judge)
    print_summary(run_dir, stats.judge, console)

    _step("6. PIXAR: pixel labels of every forgery, scored against the detector's score maps")
    pixar = run_pixar(dataset, run_dir, score_map, model=DEMO_DETECTOR)
    r = pixar.results
    console.print(
        f"{pixar.n_pairs} pairs: gIoU {r['giou']:.1f}  cIoU {r['ciou']:.1f}  F1 {r['f1']:.1f}  "
        f"AUC {r['auc']:.1f}",
        markup=False,
    )

    _step("7. Forensics: binary, segmentation and detection questions from the demo's forgeries")
    fx_index = _forensics_demo(dataset, out, cache, config)

    _step("8. Report")
    index = build_report(run_dir, dataset=dataset)
    console.print(f"metrics: {metrics}", markup=False)
    console.print(f"report:  {index}", markup=False)
    console.print(f"Forensics report: {fx_index}", markup=False)
    console.print(f"\ndemo finished in {time.perf_counter() - started:.1f} s", markup=False)
