"""The ``forgebench`` command line: a thin Typer app; each stage's commands live in ``_cli/``."""

from __future__ import annotations

from forgebench._cli import (  # noqa: F401  (importing registers the commands)
    dataset,
    demo,
    pixar,
    protocol,
    reporting,
    running,
    scoring,
    site,
)
from forgebench._cli.app import app


def main() -> None:
    """Entry point of the ``forgebench`` script."""
    app()


if __name__ == "__main__":
    main()
