"""One way to write a file so that readers never see half of it: write a hidden temporary file
beside the target, flush and fsync it, then rename it over the target (``os.replace`` is atomic on
one file system). A failure removes the temporary file and leaves the old target untouched.

Temporary names are ``.NAME.PID.tmp`` in the target's folder; :func:`clean_stale` removes those
left behind by a process that was killed (its PID no longer running).
"""

from __future__ import annotations

import contextlib
import os
import threading
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


def clean_stale(folder: str | Path, name: str) -> int:
    """Remove temporary files of ``name`` in ``folder`` whose writing process is gone; their count."""
    removed = 0
    folder = Path(folder)
    if not folder.is_dir():
        return 0
    for p in folder.glob(f".{name}.*.tmp"):
        parts = p.name[len(name) + 2 : -4].split(".")
        try:
            pid = int(parts[0])
        except (ValueError, IndexError):
            continue
        if pid != os.getpid() and not _alive(pid):
            with contextlib.suppress(OSError):
                p.unlink()
                removed += 1
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
