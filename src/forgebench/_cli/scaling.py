"""CLI commands (scaling out): ``merge``, ``ray-batch``; the ``--executor`` options of the image
stages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from forgebench._cli.app import app, console, err_console, fail


def _rescore(benchmark: str, run_dir: Path, judge: str | None) -> Path | None:
    """The suite's ``score`` of a merged run (None for a benchmark no suite here knows)."""
    from forgebench import suites

    try:
        suite = suites.get(benchmark)
    except suites.SuiteError:
        return None
    return suite.score(run_dir, judge)


@app.command("merge")
def merge_cmd(
    runs: list[Path] = typer.Argument(..., help="Run directories to merge (two or more)."),
    out: Path = typer.Option(..., "--out", help="The merged run directory (new)."),
) -> None:
    """Merge runs made on different machines: tasks, answers and grades unioned by key;
    conflicting answers are refused (nothing is written)."""
    from forgebench.results.metrics_csv import MetricsFileError
    from forgebench.run.merge import MergeError, merge_runs

    try:
        stats = merge_runs(runs, out, rescore=_rescore)
    except (MergeError, MetricsFileError) as exc:
        fail(str(exc), 2)
    for note in stats.notes:
        err_console.print(f"note: {note}", markup=False)
    rows = stats.rows
    dupes = sum(stats.duplicates.get(t, 0) for t in ("tasks", "answers"))
    judges = ", ".join(stats.judges) or "none"
    console.print(
        f"merged {len(runs)} runs into {out}: {rows.get('tasks', 0)} tasks, "
        f"{rows.get('answers', 0)} answers, {rows.get('judgements', 0)} judgements "
        f"(judges: {judges}); {dupes} identical duplicate rows collapsed",
        markup=False,
    )


@app.command("ray-batch")
def ray_batch_cmd(
    shards: list[Path] = typer.Argument(..., help="export-batch files (OpenAI batch JSONL)."),
    url: str = typer.Option(
        ..., "--url", help="The endpoint, e.g. http://gpu1:8000/v1/chat/completions."
    ),
    out: Path = typer.Option(..., "--out", help="Results (batch output JSONL) for import-batch."),
    workers: int = typer.Option(1, "--workers", min=1, help="Ray workers sending requests."),
    batch_size: int = typer.Option(64, "--batch-size", min=1, help="Requests per worker batch."),
    qps: int | None = typer.Option(None, "--qps", min=1, help="Requests per second per worker."),
    max_retries: int = typer.Option(3, "--max-retries", min=0, help="Retries of 429/5xx."),
) -> None:
    """Send export-batch shards through Ray Data's LLM HTTP processor (RAY_ADDRESS or a local
    Ray); then `forgebench import-batch RUN OUT`."""
    missing = [str(p) for p in shards if not p.is_file()]
    if missing:
        fail(f"{missing[0]}: no such file", 2)
    if not url.startswith(("http://", "https://")):
        fail(f"--url {url!r} does not start with http:// or https://", 2)
    from forgebench.run.batch import BatchError
    from forgebench.run.ray_batch import ray_batch

    try:
        n = ray_batch(
            shards, url, out, concurrency=workers, batch_size=batch_size, qps=qps,
            max_retries=max_retries,
        )  # fmt: skip
    except ImportError:
        fail("ray-batch needs Ray: pip install 'forgebench[ray]'", 2)
    except BatchError as exc:
        fail(str(exc), 2)
    console.print(f"wrote {n} results to {out}; store them with: forgebench import-batch RUN {out}")


EXECUTOR_HELP = "Where image work runs: local (this process) or ray (RAY_ADDRESS, else local Ray)."


def executor_option() -> Any:
    """The ``--executor`` option of the commands with image stages."""
    return typer.Option("local", "--executor", help=EXECUTOR_HELP)


def ray_address_option() -> Any:
    """The ``--ray-address`` option (default ``$RAY_ADDRESS``)."""
    return typer.Option(
        None, "--ray-address", help="Ray cluster for --executor ray (default $RAY_ADDRESS)."
    )


def workers_option() -> Any:
    """The ``--workers`` option (Ray tasks at once)."""
    return typer.Option(None, "--workers", min=1, help="Ray tasks at once (default: all CPUs).")


def check_executor(name: str, address: str | None) -> None:
    """Refuse a bad ``--executor`` / ``--ray-address`` before any work (exit 2)."""
    from forgebench.run.executor import EXECUTORS

    if name not in EXECUTORS:
        fail(f"unknown executor {name!r}; known: {', '.join(EXECUTORS)}", 2)
    if address and name != "ray":
        fail("--ray-address needs --executor ray", 2)


def get_executor(name: str, address: str | None, workers: int | None) -> Any:
    """The executor of the flags; one-line usage error (exit 2) when it cannot be had."""
    from forgebench.run.executor import ExecutorError, make_executor

    try:
        return make_executor(name, address=address, workers=workers)
    except ExecutorError as exc:
        fail(str(exc), 2)
