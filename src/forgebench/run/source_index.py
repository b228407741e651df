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

Every entry is verified before it is used, so a damaged or edited entry is hashed again, never
served: each row carries a checksum over its path, identity, digest and media type (a flipped
digit in a stored digest fails it), and a digest that several rows share is not taken from the
index at all (each of those files is hashed again), so two images recorded under one digest can
never both be served from it. A database of the format before checksums (table ``sources``) is
stale: it is dropped and its files hashed again once.

The same file also records each derived image variant's digest (table ``variants``: the sha256
of the rendered bytes, with a checksum), so that the variant cache can check the bytes of a
cached variant against it before using them (``images.py``).
"""

from __future__ import annotations

import contextlib
import hashlib
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
SERVED_MAX = 100_000
"""Digests remembered as served in one process (about 200 bytes each) before starting again."""

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS entries(path TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER, "
    "ctime_ns INTEGER, ino INTEGER, dev INTEGER, sha256 TEXT, media_type TEXT, checksum TEXT)",
    "CREATE TABLE IF NOT EXISTS variants(id TEXT PRIMARY KEY, sha256 TEXT, checksum TEXT)",
    "DROP TABLE IF EXISTS sources",  # the format before checksums: stale, hashed again
)

Row = tuple[str, int, int, int, int, int, str, str, str]
"""An ``entries`` row: path, the five identity fields, sha256, media type, checksum."""


def row_checksum(*fields: object) -> str:
    """The checksum of a row's other fields (BLAKE2b, 16 bytes, hex)."""
    text = "\0".join(str(f) for f in fields)
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


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
        self._pending: list[Row] = []
        self._pending_variants: list[tuple[str, str, str]] = []
        self._shared: set[str] | None = None  # digests several rows hold (read once)
        self._served: dict[str, str] = {}  # digest -> the path it was served for
        self._lock = threading.Lock()
        self._finalizer = weakref.finalize(
            self, _close, self._pending, self._pending_variants, [None]
        )

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
            self._finalizer = weakref.finalize(
                self, _close, self._pending, self._pending_variants, [con]
            )
        return self._con

    def _open(self) -> sqlite3.Connection | None:
        con = None
        try:
            claim(self.path.parent, "cache")
            con = sqlite3.connect(self.path, timeout=0.5, check_same_thread=False)
            con.execute("PRAGMA journal_mode=WAL")  # a reader never holds up a writer
            con.execute("PRAGMA synchronous=OFF")
            for statement in _SCHEMA:
                con.execute(statement)
            con.commit()
            return con
        except (OSError, sqlite3.Error):
            if con is not None:
                con.close()
            return None

    def get(self, path: str, ident: Identity) -> tuple[str, str] | None:
        """``(sha256, media type)`` recorded for ``path`` (absolute) with this identity, when the
        row passes its checksum and no other row holds the same digest (else None: hash the
        file again, which rewrites the row)."""
        with self._lock:
            con = self._connection(create=False)
            if con is None:
                return None
            try:
                if not con.in_transaction:  # lookups share one read transaction (a quarter of
                    con.execute("BEGIN")  # the time of one each); a write ends it first
                if self._shared is None:
                    self._shared = shared = {
                        str(r[0])
                        for r in con.execute(
                            "SELECT sha256 FROM entries GROUP BY sha256 HAVING COUNT(*) > 1"
                        )
                    }
                else:
                    shared = self._shared
                row = con.execute(
                    "SELECT size, mtime_ns, ctime_ns, ino, dev, sha256, media_type, checksum "
                    "FROM entries WHERE path=?",
                    (path,),
                ).fetchone()
            except sqlite3.Error:
                return None
        if row is None or tuple(row[:5]) != ident:
            return None
        sha256, media_type = str(row[5]), str(row[6])
        if row[7] != row_checksum(path, *ident, sha256, media_type) or sha256 in shared:
            return None  # a changed row, or a digest two files claim: verified by hashing
        with self._lock:
            if self._served.setdefault(sha256, path) != path:
                return None  # served for another file in this process: hash this one
            if len(self._served) > SERVED_MAX:
                self._served.clear()
        return sha256, media_type

    def put(self, path: str, ident: Identity, sha256: str, media_type: str) -> None:
        """Record an entry (written with the next batch) when the file has settled."""
        if self._failed or not ident.settled(time.time_ns()):
            return
        check = row_checksum(path, *ident, sha256, media_type)
        with self._lock:
            self._pending.append((path, *ident, sha256, media_type, check))
            if len(self._pending) >= BATCH:
                _write(self._connection(), self._pending, self._pending_variants)

    def variant_digest(self, variant_id: str) -> str | None:
        """The sha256 recorded for a derived variant's rendered bytes (None: none recorded, or
        a row that fails its checksum)."""
        with self._lock:
            for vid, sha256, _ in reversed(self._pending_variants):
                if vid == variant_id:
                    return sha256
            con = self._connection(create=False)
            if con is None:
                return None
            try:
                if not con.in_transaction:
                    con.execute("BEGIN")
                row = con.execute(
                    "SELECT sha256, checksum FROM variants WHERE id=?", (variant_id,)
                ).fetchone()
            except sqlite3.Error:
                return None
        if row is None or row[1] != row_checksum(variant_id, row[0]):
            return None
        return str(row[0])

    def put_variant(self, variant_id: str, sha256: str) -> None:
        """Record a derived variant's digest (written with the next batch)."""
        if self._failed:
            return
        with self._lock:
            self._pending_variants.append((variant_id, sha256, row_checksum(variant_id, sha256)))
            if len(self._pending_variants) >= BATCH:
                _write(self._connection(), self._pending, self._pending_variants)

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
                        con.execute("DELETE FROM entries WHERE path=?", (path,))

    def flush(self) -> None:
        """Write the entries recorded since the last batch and end the lookups' transaction."""
        with self._lock:
            if self._pending or self._pending_variants:
                _write(self._connection(), self._pending, self._pending_variants)
            elif self._con is not None and self._con.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    self._con.commit()

    def close(self) -> None:
        """Flush and close."""
        with self._lock:
            self._finalizer()
            self._con = None


def _write(
    con: sqlite3.Connection | None, pending: list[Row], variants: list[tuple[str, str, str]]
) -> None:
    """Insert ``pending`` and ``variants`` in one transaction and empty them (a busy or damaged
    database: dropped)."""
    if con is not None:
        with contextlib.suppress(sqlite3.Error), con:
            con.executemany(
                "INSERT OR REPLACE INTO entries VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)", pending
            )
            con.executemany("INSERT OR REPLACE INTO variants VALUES(?, ?, ?)", variants)
    pending.clear()
    variants.clear()


def _close(
    pending: list[Row],
    variants: list[tuple[str, str, str]],
    con_box: list[sqlite3.Connection | None],
) -> None:
    con = con_box[0]
    if pending or variants:
        _write(con, pending, variants)
    if con is not None:
        with contextlib.suppress(sqlite3.Error):
            con.close()
