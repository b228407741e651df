"""CLI commands (scaling out): ``merge``."""

from __future__ import annotations

from pathlib import Path

import typer

from forgebench._cli.app import app, console, err_console, fail


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
        stats = merge_runs(runs, out)
    except (MergeError, MetricsFileError) as exc:
        fail(str(exc), 2)
    for note in stats.notes:
        err_console.print(f"note: {note}", markup=False)
    rows = stats.rows
    dupes = sum(stats.duplicates.get(t, 0) for t in ("tasks", "answers"))
    judges = ", ".join(stats.judges) or "none"
    console.print(
        f"merged {len(runs)} runs into {out}: {rows.get('tasks', 0)} tasks, "
        f"{rows.get('answers', 0)} answers, {rows.get('grades', 0)} grades (judges: {judges}); "
        f"{dupes} identical duplicate rows collapsed",
        markup=False,
    )
