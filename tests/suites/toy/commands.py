"""The toy's own sub-commands: ``forgebench toy count DATASET``."""

from __future__ import annotations

from pathlib import Path

import typer

from forgebench.suites.base import Commands, Selection

from .suite import ToySuite

app = typer.Typer(name="toy", help="Toy multiple choice: its own sub-commands.")


@app.command("count")
def count(dataset: Path = typer.Argument(..., help="A toy dataset folder.")) -> None:
    """Print how many questions the toy dataset holds."""
    n = len(ToySuite().load(dataset, Selection()).items)
    typer.echo(f"{n} toy questions")


COMMANDS = Commands(app)
