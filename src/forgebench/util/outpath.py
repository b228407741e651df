"""The one check of an output path a user names (``--out`` of export, tables, figures, ...).

Before a writer creates anything, :func:`check_out` says in one line why ``path`` cannot be
written: it is a special file (``/dev/null``, a pipe), a file where a folder is needed, a path
under a regular file (``afile/x``), or its nearest existing folder refuses a file (read-only,
``/proc``, ``/sys``); it is probed by creating and removing one hidden file there. Nothing else
is created or changed.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from forgebench.errors import UserError


class BadOutput(UserError):
    """An output path that cannot be written (one line, exit 2)."""


def _kind(mode: int) -> str:
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def check_out(path: str | Path, *, file_ok: bool = False) -> None:
    """Raise :class:`BadOutput` when ``path`` cannot be written as an output folder (or, with
    ``file_ok``, as an output file); see the module docstring."""
    path = Path(path)
    try:
        mode: int | None = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except NotADirectoryError:
        mode = None  # a parent is a file: named below
    except OSError as exc:
        raise BadOutput(f"{path}: cannot be used ({exc.strerror or exc})") from None
    if mode is not None and not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
        raise BadOutput(f"{path}: is {_kind(mode)}, not a folder or a file forgebench can write")
    if mode is not None and stat.S_ISREG(mode) and not file_ok:
        raise BadOutput(f"{path}: is a file, not a folder (give a folder)")
    holder = path if mode is not None and stat.S_ISDIR(mode) else None
    if holder is None:
        for parent in path.absolute().parents:
            try:
                pmode = os.stat(parent).st_mode
            except (FileNotFoundError, NotADirectoryError):
                continue
            except OSError as exc:
                raise BadOutput(f"{path}: cannot write: {parent}: {exc.strerror or exc}") from None
            if not stat.S_ISDIR(pmode):
                what = "a file" if stat.S_ISREG(pmode) else _kind(pmode)
                raise BadOutput(f"{path}: cannot write: {parent} is {what}, not a folder")
            holder = parent
            break
    if holder is None:
        return
    try:
        fd, probe = tempfile.mkstemp(prefix=".forgebench-probe-", dir=holder)
    except OSError as exc:
        raise BadOutput(f"{path}: cannot write into {holder} ({exc.strerror or exc})") from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)
