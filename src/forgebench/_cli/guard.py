"""Shared CLI guards: the run-directory lock of paid stages, and one-line file-system errors."""

from __future__ import annotations

import errno
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from forgebench._cli.app import err_console, fail

LOCKED_EXIT = 4
"""Exit code when another paid stage holds the run directory."""

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
