"""Shared CLI guards: the run-directory lock of paid stages, and one-line file-system errors.

:func:`guarded` wraps the whole command line (``forgebench.cli.main``): a full disk, a read-only
or forbidden place, or a ``run.sqlite`` that is not a forgebench store, wherever a command meets
it, ends as one ``error:`` line and exit 1 (2 for a store the user pointed at wrongly), never a
traceback. What was committed before stays (every store write is its own transaction; every file
is replaced atomically).
"""

from __future__ import annotations

import errno
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import typer

from forgebench._cli.app import err_console, fail

LOCKED_EXIT = 4
"""Exit code when another paid stage holds the run directory."""


def wait_option(what: str = "another stage holds the run directory") -> Any:
    """The ``--wait`` option of the paid stages (wait for the lock instead of exit 4)."""
    return typer.Option(False, "--wait", help=f"If {what}, wait for it to finish.")


_HINTS = {
    errno.ENOSPC: "the disk is full; what was already stored is kept, free space and run again",
    errno.EDQUOT: "the disk quota is used up; what was already stored is kept",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
}


def os_error_line(exc: OSError, where: Path | str) -> str:
    """One line for a file-system error: the path, the reason and, for a full disk or a read-only
    place, what it means."""
    path = exc.filename or where
    reason = _HINTS.get(exc.errno or 0) or exc.strerror or str(exc)
    return f"{path}: {reason}"


_SQLITE_HINTS = (
    ("database or disk is full", "the disk is full; what was already stored is kept"),
    ("readonly database", "the run store is read-only"),
    ("file is not a database", "run.sqlite is not a SQLite database (not a run directory?)"),
    ("unable to open database", "the run store cannot be opened"),
)


def one_line_for(exc: BaseException) -> tuple[str, int] | None:
    """The one-line message and exit code for an environmental failure, or None for others."""
    import sqlite3

    from forgebench.run.store import StoreError

    if isinstance(exc, StoreError):
        return str(exc), 2
    if isinstance(exc, sqlite3.Error):
        text = str(exc)
        for needle, hint in _SQLITE_HINTS:
            if needle in text:
                return f"run store: {hint} ({text})", 1
        return f"run store: {text} (is it a run directory of this forgebench version?)", 1
    if isinstance(exc, OSError) and exc.errno in _HINTS:
        return os_error_line(exc, "?"), 1
    return None


def guarded(main: Callable[[], None]) -> None:
    """Run ``main``; an environmental failure (:func:`one_line_for`) is one line, not a
    traceback."""
    import sys

    from forgebench.util.redact import redact_text

    try:
        main()
    except Exception as exc:
        found = one_line_for(exc)
        if found is None:
            raise
        message, code = found
        err_console.print(f"error: {redact_text(message)}", markup=False)
        sys.exit(code)


@contextmanager
def paid_stage(run_dir: Path, stage: str, wait: bool) -> Iterator[None]:
    """Hold ``run_dir``'s lock (:mod:`forgebench.run.lock`) for a stage that sends paid
    requests; exit 4 with one line when another process holds it (unless ``wait``)."""
    from forgebench.run.lock import RunLocked, run_lock

    def say(message: str) -> None:
        err_console.print(message, markup=False)

    with ExitStack() as stack:
        try:
            stack.enter_context(run_lock(run_dir, stage, wait=wait, on_wait=say))
        except RunLocked as exc:
            fail(str(exc), LOCKED_EXIT)
        except OSError as exc:
            fail(f"cannot lock the run directory: {os_error_line(exc, run_dir)}", 1)
        yield
