"""CLI commands (scaling out): ``merge`` and ``ray-batch``."""

from __future__ import annotations

from pathlib import Path

import typer

from forgebench._cli.app import console, err_console, verbs


@verbs.command("merge")
def merge_cmd(
    runs: list[Path] = typer.Argument(..., help="Run directories to merge (two or more)."),
    out: Path = typer.Option(..., "--out", help="The merged run directory (new)."),
) -> None:
    """Merge runs made on different machines: tasks, answers and grades unioned by key;
    conflicting answers are refused (nothing is written)."""
    from forgebench import api

    stats = api.merge(runs, out)
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


@verbs.command("ray-batch")
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
    from forgebench import api

    n = api.ray_batch(
        shards, url, out, workers=workers, batch_size=batch_size, qps=qps, max_retries=max_retries
    )
    console.print(f"wrote {n} results to {out}; store them with: forgebench import-batch RUN {out}")
