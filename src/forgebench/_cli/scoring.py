"""CLI commands of the scoring stage: ``judge``, ``metrics``, ``calibrate sample|score``, ``export``.

Each acts on every benchmark of the run that has the stage (``--benchmark`` narrows), printing
one "skipped" line per other benchmark; :func:`print_summaries` prints each suite's console
summary (``forgebench metrics`` and ``run --judge`` use it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from forgebench._cli.app import err_console, suite_options, verbs
from forgebench._cli.dataset import benchmark_option, show
from forgebench.cli_support import check_flags, say, wait_option

calibrate_app = typer.Typer(
    help="Judge calibration against human grades (Mandela: Appendix F).", no_args_is_help=True
)
verbs.add_typer(calibrate_app, name="calibrate")


def _skip(line: str) -> None:
    say(line, err=True)


def print_summaries(run_dir: Path, judge: str | None, out: Any = None) -> None:
    """The console summary of each benchmark in the run's metrics.csv (``out`` is ignored: the
    summaries go to standard output)."""
    from forgebench import api

    show(api.summaries(run_dir, judge))


print_summary = print_summaries
"""The demo's name for :func:`print_summaries`."""


@verbs.command("judge")
def judge_cmd(
    run_dir: Path = typer.Argument(..., help="Run directory."),
    judge: str = typer.Option(
        ..., "--judge", help="Judge model spec, e.g. builtin/rules or qj=openai/Qwen3.8-27B@URL."
    ),
    concurrency: int | None = typer.Option(None, "--concurrency", help="Judge requests in flight."),
    rpm: float | None = typer.Option(
        None, "--rpm", help="Judge requests per minute (at least 0.001)."
    ),
    max_attempts: int = typer.Option(
        3, "--max-attempts", help="Attempts per answer (invalid replies included)."
    ),
    max_reply_bytes: int | None = typer.Option(
        None, "--max-reply-bytes", help="Most bytes of one judge reply read (default 64 MiB)."
    ),
    retry_unscored: bool = typer.Option(
        False, "--retry-unscored", help="Ask again for answers stored as unscored."
    ),
    benchmark: str | None = benchmark_option(),
    wait: bool = wait_option(),
) -> None:
    """The judge stage of every benchmark in the run: Mandela's E0-E4 grades (Appendix F),
    Forensics' option extraction, ... (each parses its verdicts first)."""
    from forgebench import api
    from forgebench.models.spec import SpecError, parse_spec

    try:
        parse_spec(judge)
    except SpecError as exc:
        raise SpecError(f"--judge: {exc}") from None
    check_flags({"concurrency": concurrency, "rpm": rpm, "max_attempts": max_attempts,
                 "max_reply_bytes": max_reply_bytes})  # fmt: skip
    settings = api.JudgeSettings(
        concurrency=concurrency, rpm=rpm, max_attempts=max_attempts,
        max_reply_bytes=max_reply_bytes,
        retry_unscored=retry_unscored, console=err_console, options=suite_options("judge"),
    )  # fmt: skip
    outcomes = api.judge(run_dir, judge, settings, benchmark=benchmark, wait=wait, on_wait=_skip)
    for o in outcomes:
        say(o.summary, err=o.skipped)
    if any(o.fatal for o in outcomes):
        raise typer.Exit(1)


@verbs.command("metrics")
def metrics_cmd(
    run_dir: Path = typer.Argument(..., help="Run directory."),
    judge: str | None = typer.Option(
        None, "--judge", help="Judge whose grades KGR/E4 use (default: the only one)."
    ),
    benchmark: str | None = benchmark_option(),
) -> None:
    """Write each benchmark's rows of RUN/metrics.csv and print its summary (Mandela: Table 2)."""
    from forgebench import api

    path = api.metrics(
        run_dir, judge, benchmark=benchmark, options=suite_options("metrics"), on_skip=_skip
    )
    show(api.summaries(run_dir, judge, benchmark=benchmark))
    say(f"metrics written: {path}")


@calibrate_app.command("sample")
def calibrate_sample(
    run_dir: Path = typer.Argument(..., help="Run directory."),
    n: int = typer.Option(210, "--n", min=1, help="Answers to sample (the paper: 210)."),
    judge: str | None = typer.Option(
        None, "--judge", help="Judge whose levels stratify the sample."
    ),
    out: Path | None = typer.Option(
        None, "--out", help="CSV to write (default RUN/calibration_sample.csv)."
    ),
    seed: int = typer.Option(0, "--seed", help="Sampling seed."),
    benchmark: str | None = benchmark_option(),
) -> None:
    """Write a blinded sample stratified by model, probe, verdict and judge level, for human grading."""
    from forgebench import api

    done = api.calibrate_sample(
        run_dir, n, judge=judge, seed=seed, out=out, benchmark=benchmark, on_skip=_skip
    )
    for o in done.outputs.values():
        show(o.lines)


@calibrate_app.command("score")
def calibrate_score(
    run_dir: Path = typer.Argument(..., help="Run directory."),
    human: Path | None = typer.Argument(None, help="Graded sample CSV (human_level filled)."),
    judge: str | None = typer.Option(
        None, "--judge", help="Judge compared with the human (or the reference judge)."
    ),
    against: str | None = typer.Option(
        None, "--against-judge", help="Compare this judge with --judge (or with the human)."
    ),
    benchmark: str | None = benchmark_option(),
) -> None:
    """Agreement of a judge with human grades (Table 4 layout), or of two judges."""
    from forgebench import api

    done = api.calibrate_score(
        run_dir, human, judge=judge, against=against, benchmark=benchmark, on_skip=_skip
    )
    for o in done.outputs.values():
        show(o.lines)


@verbs.command("export")
def export_cmd(
    run_dir: Path = typer.Argument(..., help="Run directory."),
    fmt: str = typer.Option(
        "csv", "--format", help="csv, parquet, inspect, vlmevalkit, model-index (a registry)."
    ),
    out: Path | None = typer.Option(
        None,
        "--out",
        help="Folder for OUT/export-<benchmark>.FORMAT, or a FILE.FORMAT on a one-benchmark run "
        "(default: RUN/export.FORMAT, or RUN/export-<benchmark>.FORMAT for several).",
    ),
    judge: str | None = typer.Option(
        None, "--judge", help="Judge whose grades to include (default: the only one)."
    ),
    dataset_id: str | None = typer.Option(
        None, "--dataset-id", help="model-index: dataset.type (default forgebench/<benchmark>)."
    ),
    tsv: bool = typer.Option(False, "--tsv", help="vlmevalkit: .tsv files instead of .xlsx."),
    benchmark: str | None = benchmark_option(),
) -> None:
    """Write the row-level table (one row per task, each benchmark its own file) for analysis
    elsewhere; the formats are a registry (csv, parquet, and those other modules register)."""
    from forgebench import api

    options = {"dataset_id": dataset_id or "", "tsv": "1" if tsv else ""}
    done = api.export(run_dir, fmt, out, judge, benchmark=benchmark, options=options)
    for line in done.skipped:
        _skip(line)
    for path in done.files:
        say(f"exported: {path}")
    for line in done.notes:
        say(f"note: {line}")
