"""An exclusive lock on a run directory for the stages that send paid requests.

Two ``forgebench run`` on one run directory would each send every pending task (the store keeps
one answer per task, the bill counts both). :func:`run_lock` takes an exclusive ``fcntl.flock`` on
``RUN/.lock`` for the whole of a paid stage (``run``, ``judge``, ``pixar run``; any later stage
that sends requests calls the same helper). A second holder is refused at once with
:class:`RunLocked`, whose one-line message names the holder's PID and stage, or, with
``wait=True``, blocks until the lock is free. The kernel drops the lock when its process ends, so
a killed run (``kill -9``) never leaves the directory locked; the file itself stays, holding the
last holder's PID and stage for the message.

Readers (``status``, ``metrics``, ``report``, ``view``) never take the lock; the store's own
transactions keep them consistent while a paid stage writes.

A directory the lock had to create is removed again when the stage ends without writing anything
into it (a refused command leaves nothing behind).

The lock is re-entrant within a process (``run --judge`` holds it once for generation and
judging): a nested :func:`run_lock` on the same directory is a no-op.
"""

from __future__ import annotations

import errno
import fcntl
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from forgebench.errors import UserError

LOCK_NAME = ".lock"

_held: dict[Path, int] = {}
"""Resolved run directory -> nesting depth of this process's holds."""


class RunLocked(UserError):
    """The run directory is locked by another process; the message is one line."""

    exit_code = 4


def _holder(fd: int) -> str:
    try:
        text = os.pread(fd, 200, 0).decode("utf-8", "replace").split()
    except OSError:
        text = []
    if text and text[0].isdigit():
        stage = " ".join(text[1:])
        return f"PID {text[0]}" + (f" (forgebench {stage})" if stage else "")
    return "another process"


@contextmanager
def run_lock(
    run_dir: Path,
    stage: str,
    *,
    wait: bool = False,
    on_wait: Callable[[str], None] | None = None,
) -> Iterator[None]:
    """Hold the exclusive lock on ``run_dir`` (created if missing) for the ``with`` block.

    With ``wait``, ``on_wait(message)`` is called once before blocking (to say who is waited for).

    Raises :class:`RunLocked` when another process holds it and ``wait`` is false; ``OSError``
    when the directory cannot be created or the lock file cannot be opened (a read-only place).
    """
    run_dir = Path(run_dir)
    created = not run_dir.exists()
    run_dir.mkdir(parents=True, exist_ok=True)
    key = run_dir.resolve()
    if key in _held:
        _held[key] += 1
        try:
            yield
        finally:
            _held[key] -= 1
        return
    fd = os.open(key / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EWOULDBLOCK, errno.EACCES):
                raise
            if not wait:
                raise RunLocked(
                    f"{run_dir} is in use by {_holder(fd)}; wait for it to finish, or give "
                    "--wait to start when it does"
                ) from None
            if on_wait is not None:
                on_wait(f"waiting for {_holder(fd)} to release {run_dir}")
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()} {stage}\n".encode(), 0)
        _held[key] = 1
        try:
            yield
        finally:
            del _held[key]
            if created:
                _remove_if_unused(key)
    finally:
        os.close(fd)


def _remove_if_unused(run_dir: Path) -> None:
    """A run directory this lock created and the stage left empty (it failed before writing
    anything) is removed again, lock file included: a refused command leaves nothing behind."""
    try:
        if [p.name for p in run_dir.iterdir()] == [LOCK_NAME]:
            (run_dir / LOCK_NAME).unlink()
            run_dir.rmdir()
    except OSError:
        pass
