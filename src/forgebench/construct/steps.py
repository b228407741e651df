"""Finished steps of multi-step candidates, kept durably so that no step is paid for twice.

A candidate of a multi-step specification (a PIXAR multi-edit sequence) is one task of the work
store, answered only when its last step is rendered. Each step's image is kept as soon as the
editor returns it: the bytes in ``WORK/blobs/`` by content hash (:class:`forgebench.run.blobs.
BlobStore`, the blobs candidates use) and a row of the ``construct_steps`` table of
``WORK/run.sqlite`` (the work store's own SQLite file, so a row is committed, in WAL mode, the
moment it is written, and lives and moves with the work folder), keyed by

- the candidate's task key (:func:`forgebench.construct.render.candidate_key`: specification,
  editor, candidate index),
- the step's index,
- the step's inputs (:func:`step_inputs`: the step as JSON and the pixels it starts from, so a
  changed seed image or a changed earlier step never reuses a stale image),

with what the step cost at the price of the run that rendered it (a step rendered again because
its image went missing adds its cost to the row). A later attempt of the runner, or a later
``forgebench build`` after a kill or after the candidate ended as an error, reads the image back
instead of calling the editor. Every step the editor rendered has a row, the last one too, so
the rows are what the editor was paid: :func:`steps_cost` is the spend of every candidate with
rows (finished or not), and :func:`forgebench.construct.render.spent` adds the answers' cost
only for candidates without rows (rendered by an earlier version, or refused at once).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from collections.abc import Iterable

import numpy as np

from forgebench.construct.specs import EditStep
from forgebench.run.blobs import BlobStore

TABLE = "construct_steps"
PNG = "image/png"
NO_IMAGE = hashlib.sha256(b"").hexdigest()
"""The blob of a step whose reply was paid for but held no usable image: counted in the spend,
never as a rendered step (it is rendered again)."""
_SCHEMA = (
    f"CREATE TABLE IF NOT EXISTS {TABLE} (task_key TEXT NOT NULL, step INTEGER NOT NULL, "
    "inputs TEXT NOT NULL, sha256 TEXT NOT NULL, cost REAL NOT NULL, created_at REAL NOT NULL, "
    "PRIMARY KEY (task_key, step, inputs))"
)


def step_inputs(step: EditStep, image: np.ndarray) -> str:
    """Hash of what a step renders from: the step (as JSON) and the pixels it edits."""
    h = hashlib.sha256()
    h.update(json.dumps(step.model_dump(mode="json"), sort_keys=True).encode())
    h.update(json.dumps([list(image.shape), str(image.dtype)]).encode())
    h.update(np.ascontiguousarray(image).tobytes())
    return h.hexdigest()


def _has_table(con: sqlite3.Connection) -> bool:
    sql = "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?"
    return con.execute(sql, (TABLE,)).fetchone() is not None


class StepStore:
    """The ``construct_steps`` rows and their images in one work folder."""

    def __init__(self, con: sqlite3.Connection, blobs: BlobStore) -> None:
        self.con = con
        self.blobs = blobs
        con.execute(_SCHEMA)

    def get(self, key: str, step: int, inputs: str) -> bytes | None:
        """The stored image of a step, or None (no row, or its blob is gone)."""
        row = self.con.execute(
            f"SELECT sha256 FROM {TABLE} WHERE task_key=? AND step=? AND inputs=?",
            (key, step, inputs),
        ).fetchone()
        if row is None:
            return None
        path = self.blobs.path(str(row[0]), PNG)
        return path.read_bytes() if path.is_file() else None

    def cost(self, key: str, step: int, inputs: str) -> float:
        """What a stored step cost when it was rendered (0 when not stored)."""
        row = self.con.execute(
            f"SELECT cost FROM {TABLE} WHERE task_key=? AND step=? AND inputs=?",
            (key, step, inputs),
        ).fetchone()
        return float(row[0]) if row else 0.0

    def put(self, key: str, step: int, inputs: str, image: bytes, cost: float) -> None:
        """Keep a rendered step: its bytes first (by hash), then the row that names them."""
        digest = self.blobs.put(image, PNG)
        self.con.execute(
            f"INSERT INTO {TABLE}(task_key, step, inputs, sha256, cost, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(task_key, step, inputs) DO UPDATE SET "
            "sha256=excluded.sha256, cost=cost+excluded.cost, created_at=excluded.created_at",
            (key, step, inputs, digest, cost, time.time()),
        )


def stored_steps(con: sqlite3.Connection, keys: Iterable[str]) -> dict[str, int]:
    """Steps stored per candidate key (keys without any are left out)."""
    if not _has_table(con):
        return {}
    wanted = list(dict.fromkeys(keys))
    out: dict[str, int] = {}
    for i in range(0, len(wanted), 500):
        chunk = wanted[i : i + 500]
        marks = ",".join("?" * len(chunk))
        sql = (
            f"SELECT task_key, COUNT(DISTINCT step) FROM {TABLE} "
            f"WHERE task_key IN ({marks}) AND sha256 != ? GROUP BY task_key"
        )
        out.update({str(k): int(n) for k, n in con.execute(sql, [*chunk, NO_IMAGE])})
    return out


def steps_cost(con: sqlite3.Connection) -> float:
    """What every kept step cost (finished candidates, unfinished ones and steps whose inputs
    changed since: each was paid for)."""
    if not _has_table(con):
        return 0.0
    row = con.execute(f"SELECT SUM(cost) FROM {TABLE}").fetchone()
    return float(row[0] or 0.0)
