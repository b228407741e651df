"""CLI command: ``forgebench demo``, the whole pipeline on the bundled offline benchmark
(``api.demo`` runs the steps; this module prints them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from forgebench._cli.app import console, err_console, verbs


class _Printed:
    """``api.demo``'s steps on the terminal (:class:`forgebench._api.demo.DemoShow`)."""

    console = console

    def step(self, title: str) -> None:
        console.print(f"\n{title}", style="bold")

    def line(self, text: str, *, err: bool = False, dim: bool = False) -> None:
        (err_console if err else console).print(text, markup=False, style="dim" if dim else None)

    def render(self, part: Any) -> None:
        console.print(part)

    def task_matrix(self, dataset: Path, model: str) -> None:
        from forgebench._cli.protocol import tasks

        tasks(dataset, probes=None, conditions=None, models=model)

    def metrics_summary(self, run_dir: Path, judge: str) -> None:
        from forgebench._cli.scoring import print_summary

        print_summary(run_dir, judge, console)


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
    from forgebench import api

    api.demo(out, cache_dir, show=_Printed())
