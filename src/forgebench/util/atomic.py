"""One way to write a file so that readers never see half of it: write a hidden temporary file
beside the target, flush and fsync it, then rename it over the target (``os.replace`` is atomic on
one file system). A failure removes the temporary file and leaves the old target untouched.

Temporary names are ``.NAME.PID.TID.tmp`` in the target's folder. Every temporary file or folder
forgebench makes beside a target carries its writer's PID in its name (:func:`temp_name` for
folders: ``.NAME.TAG-PID-RANDOM``); :func:`clean_stale` removes those of one target left behind
by a process that was killed (the one rule: its PID is not this process and no process runs
under it). :func:`atomic_path` removes its target's stale temporary files before each write (a
folder is listed once per process and half-minute, so writing many files into one folder stays
linear), so every
atomic writer (exports, redaction, reports, tables) cleans its own leftovers the next time it
writes; the writers of temporary folders (imports, merge, builds) call :func:`clean_stale` before
they make theirs.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import stat
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any


def _tmp_for(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")


def temp_beside(path: str | Path) -> Path:
    """The hidden temporary name this process and thread use beside ``path`` (``.NAME.PID.TID.tmp``,
    which :func:`clean_stale` recognises), for a writer that renames several files at the end."""
    return _tmp_for(Path(path))


@contextlib.contextmanager
def atomic_path(path: str | Path, *, durable: bool = True) -> Iterator[Path]:
    """A temporary path to write to; renamed over ``path`` when the block ends without error.

    For writers that want a file name (``DataFrame.to_csv``, ``Figure.savefig``). The target's
    folder is created if needed. ``durable=False`` skips the fsync: readers still never see half
    a file, but a power cut may leave an empty or partial one, so it suits only caches whose
    entries check themselves when read (the fsync costs milliseconds of waiting a file).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    _clean_before_write(path)
    tmp = _tmp_for(path)
    try:
        yield tmp
        if tmp.exists():
            if durable:
                with tmp.open("rb+") as fh:
                    os.fsync(fh.fileno())
            os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


@contextlib.contextmanager
def atomic_open(
    path: str | Path, mode: str = "w", *, durable: bool = True, **kwargs: Any
) -> Iterator[IO[Any]]:
    """``open`` a temporary file for writing (``"w"`` or ``"wb"``); renamed over ``path`` at the
    end (``durable``: see :func:`atomic_path`)."""
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_open writes only ('w' or 'wb'), not {mode!r}")
    if mode == "w":
        kwargs.setdefault("encoding", "utf-8")
    with atomic_path(path, durable=durable) as tmp, tmp.open(mode, **kwargs) as fh:
        yield fh
        fh.flush()


def write_bytes(path: str | Path, data: bytes, *, durable: bool = True) -> None:
    """Write ``data`` to ``path`` atomically (``durable``: see :func:`atomic_path`)."""
    with atomic_open(path, "wb", durable=durable) as fh:
        fh.write(data)


def write_text(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    with atomic_open(path, "w", newline="") as fh:
        fh.write(text)


def temp_name(name: str, tag: str) -> str:
    """A temporary folder's (or file's) name for the target ``name``: ``.NAME.TAG-PID-RANDOM``
    (``tag`` lower-case letters: ``importing``, ``merging`` ...), which :func:`clean_stale`
    recognises once its process is gone."""
    if not re.fullmatch(r"[a-z]+", tag):
        raise ValueError(f"temporary tag {tag!r}: lower-case letters only")
    return f".{name}.{tag}-{os.getpid()}-{uuid.uuid4().hex[:8]}"


_TEMP_TAIL = re.compile(
    r"(?P<a>[0-9]+)\.[0-9]+\.tmp"  # atomic files: PID.TID.tmp
    r"|(?P<b>[0-9]+)\.tmp"  # PID.tmp
    r"|[a-z]+-(?P<c>[0-9]+)(?:-[0-9a-f]{8})?"  # folders: TAG-PID[-RANDOM]
)


def temp_pid(entry: str, name: str) -> int | None:
    """The writer's PID in ``entry`` when it is a temporary name of the target ``name`` (one of
    the forms above), else None."""
    prefix = f".{name}."
    if not entry.startswith(prefix):
        return None
    m = _TEMP_TAIL.fullmatch(entry[len(prefix) :])
    if m is None:
        return None
    return int(m["a"] or m["b"] or m["c"])


def clean_stale(folder: str | Path, name: str) -> int:
    """Remove the temporary files and folders of the target ``name`` in ``folder`` whose writing
    process is gone (:func:`temp_pid`); their count. A link is never followed nor removed; one
    that cannot be removed is left for the next time."""
    removed = 0
    folder = Path(folder)
    prefix = f".{name}."
    try:
        entries = [e for e in os.scandir(folder) if e.name.startswith(prefix)]
    except OSError:
        return 0
    for e in entries:
        pid = temp_pid(e.name, name)
        if pid is None or pid == os.getpid() or _alive(pid):
            continue
        try:
            mode = os.lstat(e.path).st_mode
            if stat.S_ISDIR(mode):
                shutil.rmtree(e.path)
            elif stat.S_ISREG(mode):
                os.unlink(e.path)
            else:
                continue
        except OSError:
            continue
        removed += 1
    return removed


_ATOMIC_TMP = re.compile(r"\.(?P<name>.+)\.(?P<pid>[0-9]+)\.[0-9]+\.tmp")
_STALE: dict[str, tuple[float, dict[str, list[str]]]] = {}
"""Per folder listed in this process: when, and target name -> its stale atomic temporary
files."""
_RELIST_S = 30.0
"""A folder is listed again after this long (a long-lived process, a notebook)."""
_STALE_LOCK = threading.Lock()
_STALE_FOLDERS = 4096


def _clean_before_write(path: Path) -> None:
    """Remove ``path``'s stale atomic temporary files (:func:`clean_stale`'s rule), listing its
    folder only the first time this process writes there (again after :data:`_RELIST_S`)."""
    folder = os.fspath(path.parent)
    now = time.monotonic()
    with _STALE_LOCK:
        listed = _STALE.get(folder)
        index = listed[1] if listed is not None and now - listed[0] < _RELIST_S else None
        if index is None:
            index = {}
            with contextlib.suppress(OSError), os.scandir(folder) as it:
                for e in it:
                    m = _ATOMIC_TMP.fullmatch(e.name)
                    if m is not None and int(m["pid"]) != os.getpid() and not _alive(int(m["pid"])):
                        index.setdefault(m["name"], []).append(e.path)
            if len(_STALE) >= _STALE_FOLDERS:
                _STALE.clear()
            _STALE[folder] = (now, index)
        stale = index.pop(path.name, None) if index else None
    for p in stale or ():
        with contextlib.suppress(OSError):
            if stat.S_ISREG(os.lstat(p).st_mode):
                os.unlink(p)


def _alive(pid: int) -> bool:
    if pid <= 0:
        return True  # never a process of ours: kept
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True
