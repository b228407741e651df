"""The ``forgebench`` command line: a thin Typer app; each stage's commands live in ``_cli/``, and
each suite's own sub-commands (their ``commands`` facet) are mounted as ``forgebench <suite> ...``."""

from __future__ import annotations

from forgebench._cli import app as app_module
from forgebench._cli import (  # noqa: F401  (importing registers the commands)
    compare,
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


def main() -> None:
    """Entry point of the ``forgebench`` script: an error the user can cause outside any command
    (the root group catches the rest) is one line, not a traceback."""
    import sys

    from forgebench.cli_support import err_console, user_error_line
    from forgebench.util.memory import claim_process
    from forgebench.util.redact import redact_text

    claim_process()
    app_module.FREEZE = True
    try:
        app()
    except Exception as exc:
        found = user_error_line(exc)
        if found is None:
            raise
        err_console.print(f"error: {redact_text(found[0])}", markup=False)
        sys.exit(found[1])


if __name__ == "__main__":
    main()
