"""Finished steps of multi-step candidates, kept durably so that no step is paid for twice.

A candidate of a multi-step specification (a PIXAR multi-edit sequence) is one task of the work
store, answered only when its last step is rendered. Each step's image is kept as soon as the
editor returns it: the bytes in ``WORK/blobs/`` by content hash (:class:`forgebench.run.blobs.
BlobStore`, the blobs candidates use) and a row of the store's ``construct_steps`` table in
``WORK/run.sqlite`` (:mod:`forgebench.run.store.steps`: committed, in WAL mode, the moment it is
written, and lives and moves with the work folder), keyed by

- the candidate's task key (:func:`forgebench.construct.render.candidate_key`: specification,
  editor, candidate index),
- the step's index,
- the step's inputs (:func:`step_inputs`: the step as JSON and the pixels it starts from, so a
  changed seed image or a changed earlier step never reuses a stale image),

with what the step cost at the price of the run that rendered it (a step rendered again because
its image went missing adds its cost to the row). A later attempt of the runner, or a later
``forgebench build`` after a kill or after the candidate ended as an error, reads the image back
instead of calling the editor. Every step the editor rendered has a row, the last one too, so
the rows are what the editor was paid: ``Store.steps_cost`` is the spend of every candidate with
rows (finished or not), and :func:`forgebench.construct.render.spent` adds the answers' cost
only for candidates without rows (rendered by an earlier version, or refused at once).
"""

from __future__ import annotations

import hashlib
import json

import numpy as np

from forgebench.construct.specs import EditStep
from forgebench.run.blobs import BlobStore
from forgebench.run.store import Store

PNG = "image/png"
NO_IMAGE = hashlib.sha256(b"").hexdigest()
"""The blob of a step whose reply was paid for but held no usable image: counted in the spend,
never as a rendered step (it is rendered again)."""


def step_inputs(step: EditStep, image: np.ndarray) -> str:
    """Hash of what a step renders from: the step (as JSON) and the pixels it edits."""
    h = hashlib.sha256()
    h.update(json.dumps(step.model_dump(mode="json"), sort_keys=True).encode())
    h.update(json.dumps([list(image.shape), str(image.dtype)]).encode())
    h.update(np.ascontiguousarray(image).tobytes())
    return h.hexdigest()


class StepStore:
    """The kept steps of one work folder: rows in its store, images in its blobs."""

    def __init__(self, store: Store, blobs: BlobStore) -> None:
        self.store = store
        self.blobs = blobs

    def get(self, key: str, step: int, inputs: str) -> bytes | None:
        """The stored image of a step, or None (no row, or its blob is gone or damaged: the step
        is rendered again)."""
        sha = self.store.step_blob(key, step, inputs)
        if sha is None:
            return None
        return self.blobs.get(sha, PNG)

    def cost(self, key: str, step: int, inputs: str) -> float:
        """What a stored step cost when it was rendered (0 when not stored)."""
        return self.store.step_cost(key, step, inputs)

    def put(self, key: str, step: int, inputs: str, image: bytes, cost: float) -> None:
        """Keep a rendered step: its bytes first (by hash), then the row that names them."""
        self.store.put_step(key, step, inputs, self.blobs.put(image, PNG), cost)
