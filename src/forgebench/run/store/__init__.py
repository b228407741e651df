"""The run store: one SQLite file per run directory (``RUN/run.sqlite``,
:data:`~forgebench.run.rundir.DB_NAME`), the only code that speaks SQL to it.

Every other stage reads and writes through the typed methods of :class:`Store`
(:mod:`.core`: opening, ``meta``), which is assembled from one part per family of tables:

- :mod:`.schema`: every table and index, with the history of the schema versions;
- :mod:`.migrate`: the steps that upgrade a store of an earlier version when it is opened;
- :mod:`.items`: each benchmark's dataset items;
- :mod:`.tasks`: tasks (with superseding) and a new run's fast load;
- :mod:`.pending`: what is still to be asked, and this invocation's tasks;
- :mod:`.answers`: answers, errors, output files, status and token counts;
- :mod:`.judgements`: verdicts and judgements (grades, letters, uptake, gates);
- :mod:`.records`: tasks read whole (answer, error, verdict, judgements) in pages;
- :mod:`.columns`: the same tasks as typed columns (Arrow), for analysis frames;
- :mod:`.steps`: the construction steps of multi-step candidates;
- :mod:`.replicas`: the per-replica counters of a run that used replicas;
- :mod:`.pairs`: per-pair scores of predictions scored from files (PIXAR's score maps);
- :mod:`.rows` and :mod:`.base`: the typed rows, and what every part shares.
"""

from __future__ import annotations

from forgebench.run.rundir import DB_NAME
from forgebench.run.store.base import CURRENT, LIVE, SUPERSEDING
from forgebench.run.store.core import Store, StoreError, meta_value
from forgebench.run.store.items import BadStoredRow
from forgebench.run.store.pairs import PairScore
from forgebench.run.store.replicas import ReplicaRow
from forgebench.run.store.rows import (
    GRADE_KIND,
    CountRow,
    Judged,
    Judgement,
    StoredAnswer,
    StoredError,
    TaskIdentity,
    TaskRecord,
    TokenRow,
)
from forgebench.run.store.tasks import images_json, task_images

__all__ = [
    "CURRENT",
    "DB_NAME",
    "GRADE_KIND",
    "LIVE",
    "SUPERSEDING",
    "BadStoredRow",
    "CountRow",
    "Judged",
    "Judgement",
    "PairScore",
    "ReplicaRow",
    "Store",
    "StoreError",
    "StoredAnswer",
    "StoredError",
    "TaskIdentity",
    "TaskRecord",
    "TokenRow",
    "images_json",
    "meta_value",
    "task_images",
]  # fmt: skip
