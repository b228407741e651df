"""Each dataset image's sha256 and media type, kept between prepares in the variant cache folder
(``sources.sqlite``), so that a second prepare of a dataset reads no image it read before.

An entry is found by the file's absolute path and used only while the file's size, modification
time, status-change time (``ctime``), inode and device all still match: rewriting a file changes
its ``ctime`` even when the writer puts the old modification time and size back, and replacing it
(a rename over it, a new copy of the dataset) changes its inode. A file changed in the last
:data:`SETTLE_S` seconds is not recorded (its times may not yet tell two writes in one clock tick
apart), so it is hashed again until it has settled.

It is a cache: a folder that cannot be written, a database another process holds, or a damaged
file only means hashing again (``forgebench cache clean`` removes it with the variants). Entries
are written in batches, without fsync, in WAL mode (lookups share one read transaction, which
never holds up another process's writes); the file is made at the first batch (a lookup creates
nothing).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
import weakref
from pathlib import Path
from typing import NamedTuple

from forgebench.util.owned import claim

INDEX_FILE = "sources.sqlite"
SETTLE_S = 2.0
"""A file whose modification or status-change time is this recent is not recorded."""
BATCH = 2000
"""Entries written per transaction."""

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS sources(path TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER, "
    "ctime_ns INTEGER, ino INTEGER, dev INTEGER, sha256 TEXT, media_type TEXT)"
)


class Identity(NamedTuple):
    """What must still match for a recorded entry to hold."""

    size: int
    mtime_ns: int
    ctime_ns: int
    ino: int
    dev: int

    @classmethod
    def of(cls, st: os.stat_result) -> Identity:
        return cls(st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)

    def settled(self, now_ns: int) -> bool:
        """Whether both times lie at least :data:`SETTLE_S` in the past."""
        return max(self.mtime_ns, self.ctime_ns) <= now_ns - int(SETTLE_S * 1e9)


class SourceIndex:
    """``sources.sqlite`` of one cache folder (opened on first use; see the module docstring)."""

    def __init__(self, folder: Path) -> None:
        self.path = Path(folder) / INDEX_FILE
        self._con: sqlite3.Connection | None = None
        self._failed = False
        self._pending: list[tuple[str, int, int, int, int, int, str, str]] = []
        self._lock = threading.Lock()
        self._finalizer = weakref.finalize(self, _close, self._pending, [None])

    def _connection(self, *, create: bool = True) -> sqlite3.Connection | None:
        """The open database; None when it cannot be used, or (``create`` False) when there is
        none yet (a lookup creates no file)."""
        if self._con is None and not self._failed:
            if not create and not self.path.exists():
                return None
            con = self._open()
            if con is None:  # a damaged file: start a new one
                for suffix in ("", "-wal", "-shm"):
                    with contextlib.suppress(OSError):
                        os.unlink(f"{self.path}{suffix}")
                con = self._open()
            if con is None:
                self._failed = True  # hashing again is always right
                return None
            self._con = con
            self._finalizer.detach()
            self._finalizer = weakref.finalize(self, _close, self._pending, [con])
        return self._con

    def _open(self) -> sqlite3.Connection | None:
        con = None
        try:
            claim(self.path.parent, "cache")
            con = sqlite3.connect(self.path, timeout=0.5, check_same_thread=False)
            con.execute("PRAGMA journal_mode=WAL")  # a reader never holds up a writer
            con.execute("PRAGMA synchronous=OFF")
            con.execute(_SCHEMA)
            return con
        except (OSError, sqlite3.Error):
            if con is not None:
                con.close()
            return None

    def get(self, path: str, ident: Identity) -> tuple[str, str] | None:
        """``(sha256, media type)`` recorded for ``path`` (absolute) with this identity."""
        with self._lock:
            con = self._connection(create=False)
            if con is None:
                return None
            try:
                if not con.in_transaction:  # lookups share one read transaction (a quarter of
                    con.execute("BEGIN")  # the time of one each); a write ends it first
                row = con.execute(
                    "SELECT size, mtime_ns, ctime_ns, ino, dev, sha256, media_type FROM sources "
                    "WHERE path=?",
                    (path,),
                ).fetchone()
            except sqlite3.Error:
                return None
        if row is None or tuple(row[:5]) != ident:
            return None
        return str(row[5]), str(row[6])

    def put(self, path: str, ident: Identity, sha256: str, media_type: str) -> None:
        """Record an entry (written with the next batch) when the file has settled."""
        if self._failed or not ident.settled(time.time_ns()):
            return
        with self._lock:
            self._pending.append((path, *ident, sha256, media_type))
            if len(self._pending) >= BATCH:
                _write(self._connection(), self._pending)

    def forget(self, path: str) -> None:
        """Drop ``path``'s entry (its bytes were found to differ from what it recorded)."""
        with self._lock:
            self._pending[:] = [p for p in self._pending if p[0] != path]
            con = self._connection(create=False)
            if con is not None:
                with contextlib.suppress(sqlite3.Error):
                    if con.in_transaction:
                        con.commit()
                    with con:
                        con.execute("DELETE FROM sources WHERE path=?", (path,))

    def flush(self) -> None:
        """Write the entries recorded since the last batch and end the lookups' transaction."""
        with self._lock:
            if self._pending:
                _write(self._connection(), self._pending)
            elif self._con is not None and self._con.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    self._con.commit()

    def close(self) -> None:
        """Flush and close."""
        with self._lock:
            self._finalizer()
            self._con = None


def _write(
    con: sqlite3.Connection | None, pending: list[tuple[str, int, int, int, int, int, str, str]]
) -> None:
    """Insert ``pending`` in one transaction and empty it (a busy or damaged database: dropped)."""
    if con is not None:
        with contextlib.suppress(sqlite3.Error), con:
            con.executemany(
                "INSERT OR REPLACE INTO sources VALUES(?, ?, ?, ?, ?, ?, ?, ?)", pending
            )
    pending.clear()


def _close(
    pending: list[tuple[str, int, int, int, int, int, str, str]],
    con_box: list[sqlite3.Connection | None],
) -> None:
    con = con_box[0]
    if pending:
        _write(con, pending)
    if con is not None:
        with contextlib.suppress(sqlite3.Error):
            con.close()
