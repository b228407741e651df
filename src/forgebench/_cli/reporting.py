"""CLI commands (reporting): ``forgebench tables RUN`` and ``forgebench figures RUN``, each
benchmark's own (``api.tables``, ``api.figures``)."""

from __future__ import annotations

from pathlib import Path

import typer

from forgebench._cli.app import verbs
from forgebench._cli.dataset import benchmark_option, show
from forgebench.cli_support import say


@verbs.command("tables")
def tables(
    run_dir: Path = typer.Argument(..., help="The run directory (holds metrics.csv / run.sqlite)."),
    out: Path | None = typer.Option(None, "--out", help="Output folder (default RUN/report)."),
    judge: str | None = typer.Option(
        None, "--judge", help="Judge whose grades the tables use (default: the most frequent)."
    ),
    reps: int = typer.Option(2000, "--reps", min=100, help="Cluster-bootstrap replicates."),
    benchmark: str | None = benchmark_option(),
) -> None:
    """Regenerate each benchmark's tables as Markdown, LaTeX (booktabs) and CSV under RUN/report/."""
    from forgebench import api

    done = api.tables(run_dir, out, judge=judge, reps=reps, benchmark=benchmark)
    for line in done.skipped:
        say(line, err=True)
    for o in done.outputs.values():
        show(o.lines)
        for note in o.notes:
            say(note)


@verbs.command("figures")
def figures(
    run_dir: Path = typer.Argument(..., help="The run directory (holds metrics.csv)."),
    out: Path | None = typer.Option(
        None, "--out", help="Output folder (default RUN/report/figures)."
    ),
    judge: str | None = typer.Option(None, "--judge", help="Judge whose grades the figures use."),
    benchmark: str | None = benchmark_option(),
) -> None:
    """Draw each benchmark's figures as PNG and SVG (Mandela: Figure 4 a-c and the per-family KGR charts)."""
    from forgebench import api

    done = api.figures(run_dir, out, judge=judge, benchmark=benchmark)
    for line in done.skipped:
        say(line, err=True)
    for o in done.outputs.values():
        for note in o.notes:
            say(note, err=True)
        show(o.lines)
