"""The :class:`Store` itself: opening a run directory's store (migrating an older schema,
refusing a newer one), closing it, and the ``meta`` table; the parts it is assembled from are the
other modules of this package (see its ``__init__``).

Write rules that make resume safe: every answer is its own transaction, committed as it arrives
(WAL journal, ``synchronous=NORMAL``: a crash of the process loses nothing committed; a power cut
may lose the last few commits, never corrupt the file); a key never gets a second answer.

During ``run``, pending pages are read on worker threads of the event loop that opened the store
(the connection is opened with ``check_same_thread=False``; SQLite serialises its use), and
answers are written on the store writer's own connection (``send/writer.py``).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from forgebench.errors import UserError
from forgebench.run.rundir import RunDir
from forgebench.run.store.answers import AnswersPart
from forgebench.run.store.columns import ColumnsPart
from forgebench.run.store.items import ItemsPart
from forgebench.run.store.judgements import JudgementsPart
from forgebench.run.store.migrate import SchemaError, migrate
from forgebench.run.store.pairs import PairScoresPart
from forgebench.run.store.pending import PendingPart
from forgebench.run.store.records import RecordsPart
from forgebench.run.store.replicas import ReplicasPart
from forgebench.run.store.steps import StepsPart
from forgebench.run.store.tasks import TasksPart
from forgebench.run.tasks import canonical_json


def meta_value(run_dir: Path, key: str, text: str) -> Any:
    """A ``meta`` entry's JSON value; :class:`StoreError` (one line) when it is not JSON (a
    damaged store, or one made by someone else)."""
    try:
        return json.loads(text)
    except (TypeError, ValueError, RecursionError):
        raise StoreError(
            f"{RunDir(run_dir).db}: meta entry {key!r} is not JSON (a damaged store?)"
        ) from None


class StoreError(UserError):
    """A run directory that cannot be opened as a store; the message is one clear line."""


class Store(
    ItemsPart,
    TasksPart,
    PendingPart,
    AnswersPart,
    JudgementsPart,
    RecordsPart,
    ColumnsPart,
    StepsPart,
    ReplicasPart,
    PairScoresPart,
):
    """A run directory's SQLite store. Use :meth:`open`; close with :meth:`close` or ``with``."""

    def __init__(self, run_dir: Path, connection: sqlite3.Connection) -> None:
        self.run_dir = run_dir
        self.connection = connection
        """The SQLite connection (for the run package's own modules: merge, writer, ...)."""
        self._invocation = False

    @classmethod
    def open(cls, run_dir: RunDir | Path | str, *, create: bool = True) -> Store:
        """Open (and with ``create``, make and mark: :meth:`RunDir.claim`) ``RUN/run.sqlite`` in
        WAL mode with the schema; without ``create`` a folder holding no store is refused with
        :meth:`RunDir.not_a_run`'s line."""
        folder = RunDir(run_dir)
        run_dir, path = folder.path, folder.db
        if not create and not path.is_file():
            raise StoreError(folder.not_a_run())
        try:
            folder.claim()
            # the loop's worker threads read pending pages on it (SQLite serialises access)
            con = sqlite3.connect(path, timeout=30.0, isolation_level=None, check_same_thread=False)
            con.execute("PRAGMA foreign_keys=ON")
            migrate(con, str(path))
            con.execute("PRAGMA journal_mode=WAL")
            con.execute("PRAGMA synchronous=NORMAL")
        except SchemaError as exc:
            raise StoreError(str(exc)) from None
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{path}: not a forgebench run store ({exc})") from None
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"{path}: cannot open run store ({exc})") from None
        return cls(run_dir, con)

    def close(self) -> None:
        """Close the connection (everything is already committed)."""
        self.connection.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- meta ----------------------------------------------------------------------------------

    def meta_get(self, key: str, default: Any = None) -> Any:
        """The JSON value stored under ``key`` (``default`` when absent)."""
        row = self.connection.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return default if row is None else meta_value(self.run_dir, key, row[0])

    def meta_set(self, key: str, value: Any) -> None:
        """Store a JSON value under ``key`` (replacing it)."""
        self.connection.execute(
            "INSERT INTO meta(key, value) VALUES(?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value=excluded.value",
            (key, canonical_json(value)),
        )

    def dataset_folder(self, benchmark: str, given: Path | None = None) -> Path | None:
        """Where ``benchmark``'s images are: the folder ``given`` (``report --dataset``, for a
        run moved away from its dataset), else the one the run recorded (``meta.datasets``)
        while it is a folder; None when neither."""
        if given is not None:
            return given
        recorded = self.meta_get("datasets")
        folder = recorded.get(benchmark) if isinstance(recorded, dict) else None
        return Path(folder) if isinstance(folder, str) and Path(folder).is_dir() else None

    def meta_all(self) -> dict[str, Any]:
        """Every meta value, by key."""
        rows = self.connection.execute("SELECT key, value FROM meta")
        return {k: meta_value(self.run_dir, k, v) for k, v in rows}
