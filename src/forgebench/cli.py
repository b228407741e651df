"""The ``forgebench`` command line: a thin Typer app; each stage's commands live in ``_cli/``, and
each suite's own sub-commands (``Suite.cli()``) are mounted as ``forgebench <suite> ...``."""

from __future__ import annotations

from forgebench._cli import (  # noqa: F401  (importing registers the commands)
    construct,
    dataset,
    demo,
    interop,
    protocol,
    redact,
    reporting,
    running,
    scaling,
    scoring,
    site,
)
from forgebench._cli.app import app
from forgebench._cli.guard import guarded


def main() -> None:
    """Entry point of the ``forgebench`` script (environmental failures as one line)."""
    guarded(app)


if __name__ == "__main__":
    main()
