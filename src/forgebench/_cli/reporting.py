"""CLI commands (reporting): ``forgebench tables RUN`` and ``forgebench figures RUN``."""

from __future__ import annotations

from pathlib import Path

import typer

from forgebench._cli.app import app, console, fail


@app.command("tables")
def tables(
    run_dir: Path = typer.Argument(..., help="The run directory (holds metrics.csv / run.sqlite)."),
    out: Path | None = typer.Option(None, "--out", help="Output folder (default RUN/report)."),
    judge: str | None = typer.Option(
        None, "--judge", help="Judge whose grades the tables use (default: the most frequent)."
    ),
    reps: int = typer.Option(2000, "--reps", min=100, help="Cluster-bootstrap replicates."),
) -> None:
    """Regenerate seed 000's tables as Markdown, LaTeX (booktabs) and CSV under RUN/report/."""
    from forgebench.suites.mandela.tables import ReportError, write_tables

    if not run_dir.is_dir():
        fail(f"{run_dir}: run directory not found", 2)
    try:
        result = write_tables(run_dir, out, judge=judge, reps=reps)
    except (ReportError, ValueError) as exc:
        fail(str(exc), 2)
    numbers = ", ".join(str(t.number) for t in result.tables) or "none"
    console.print(f"tables written: {numbers} (judge: {result.judge or '-'})", markup=False)
    for s in result.skipped:
        console.print(f"  table {s.number} skipped: {s.reason}", markup=False)
    console.print(f"{result.out_dir / 'tables.md'}", markup=False)


@app.command("figures")
def figures(
    run_dir: Path = typer.Argument(..., help="The run directory (holds metrics.csv)."),
    out: Path | None = typer.Option(
        None, "--out", help="Output folder (default RUN/report/figures)."
    ),
    judge: str | None = typer.Option(None, "--judge", help="Judge whose grades the figures use."),
) -> None:
    """Draw Figure 4 (a-c) and the per-family KGR charts as PNG and SVG."""
    from forgebench.suites.mandela.figures import write_figures

    if not run_dir.is_dir():
        fail(f"{run_dir}: run directory not found", 2)
    try:
        written = write_figures(run_dir, out, judge=judge)
    except ValueError as exc:
        fail(str(exc), 2)
    if not written:
        fail(f"{run_dir / 'metrics.csv'}: no numbers any figure needs", 1)
    for path in written:
        console.print(str(path), markup=False)
