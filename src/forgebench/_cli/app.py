"""The Typer application and the shared helpers of every command module."""

from __future__ import annotations

from typing import NoReturn

import typer
from rich.console import Console

app = typer.Typer(
    name="forgebench",
    help="Build and run image-forgery benchmarks (Mandela, Forensics, PIXAR) for multimodal models.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


@app.callback()
def _root() -> None:
    """Build and run image-forgery benchmarks (Mandela, Forensics, PIXAR) for multimodal models."""


def _console(stderr: bool = False) -> Console:
    """A console that keeps tables readable when output is piped (rich assumes 80 columns)."""
    probe = Console(stderr=stderr)
    width = None if probe.is_terminal else 120
    return Console(stderr=stderr, highlight=False, soft_wrap=True, width=width)


console = _console()
err_console = _console(stderr=True)


def fail(message: str, code: int = 1) -> NoReturn:
    """One clear line on stderr and a non-zero exit: for errors a user can cause."""
    err_console.print(f"error: {message}", markup=False)
    raise typer.Exit(code)


@app.command("version")
def version() -> None:
    """Print the forgebench version."""
    from forgebench import __version__

    console.print(f"forgebench {__version__}")
