"""CLI commands: ``forgebench report`` (tables, figures, page) and ``forgebench view`` (serve it)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from forgebench._cli.app import console, err_console, fail, verbs
from forgebench.cli_support import say

if TYPE_CHECKING:
    from forgebench._api.outputs import ReportResult


def print_report(result: ReportResult) -> None:
    """What building the report noted: skipped tables, then up to 20 warnings."""
    for line in result.notes:
        say(line, err=line.startswith("warning"))
    for w in result.warnings[:20]:
        err_console.print(f"warning: {w}", markup=False)
    if len(result.warnings) > 20:
        err_console.print(f"warning: ... and {len(result.warnings) - 20} more", markup=False)


def build_report(
    run_dir: Path,
    *,
    dataset: Path | None = None,
    judge: str | None = None,
    calibration: Path | None = None,
) -> Path:
    """Each suite's tables, figures and section, then the page (``api.report``); its path.

    Without ``metrics.csv`` (a run not yet scored) the tables and figures are skipped, saying so,
    and the page still shows every item and answer.
    """
    from forgebench import api
    from forgebench.run.store import StoreError

    try:
        result = api.report(run_dir, dataset=dataset, judge=judge, calibration=calibration)
    except StoreError as exc:
        fail(str(exc), 2)
    print_report(result)
    return result.index


@verbs.command("report")
def report(
    run_dir: Path = typer.Argument(..., help="The run directory (holds run.sqlite)."),
    dataset: Path | None = typer.Option(
        None,
        "--dataset",
        help="Dataset folder to take the pictures from, instead of the one the run recorded "
        "(a run moved away from its dataset).",
    ),
    judge: str | None = typer.Option(
        None, "--judge", help="Judge whose grades to show (default: the one with most grades)."
    ),
    calibration: Path | None = typer.Option(
        None, "--calibration", help="Calibration sample CSV to grade in the viewer."
    ),
) -> None:
    """Write RUN/report/: each benchmark's tables (Markdown, LaTeX, CSV), figures and section, and index.html."""
    index = build_report(run_dir, dataset=dataset, judge=judge, calibration=calibration)
    console.print(f"report: {index}", markup=False)


@verbs.command("view")
def view(
    run_dir: Path = typer.Argument(..., help="The run directory."),
    port: int = typer.Option(8765, "--port", help="Port on 127.0.0.1 (0 picks a free one)."),
    rebuild: bool = typer.Option(False, "--rebuild", help="Rebuild the report first."),
) -> None:
    """Serve RUN/report on localhost for people who prefer a URL (Ctrl-C stops)."""
    from forgebench import api
    from forgebench.run.store import StoreError

    try:
        viewer = api.view(run_dir, port, rebuild=rebuild, on_report=print_report)
    except StoreError as exc:
        fail(str(exc), 2)
    console.print(f"serving {viewer.root} at {viewer.url} (Ctrl-C stops)", markup=False)
    viewer.serve()
