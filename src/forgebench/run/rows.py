"""The columns every benchmark's row-level export shares, read from the run store.

``forgebench export`` writes one row per current task (a superseded task is left out):
:data:`SHARED_COLUMNS` from here, then the benchmark's own reading of each task
(a suite's ``Export.rows``). ``status`` is ``answered``, ``error`` (the task ended as an error) or
``pending`` (not asked yet); ``text`` and the token and latency columns are empty unless it was
answered.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from forgebench.run.store import Store

__all__ = ["SHARED_COLUMNS", "task_rows"]

SHARED_COLUMNS = (
    "task_key",
    "benchmark",
    "item_id",
    "model",
    "probe",
    "condition",
    "status",
    "text",
    "input_tokens",
    "output_tokens",
    "latency_s",
)
"""The first columns of every benchmark's export, in order."""

_SQL = """
SELECT t.key AS task_key, t.benchmark, t.item_id, t.model, t.probe, t.condition,
       CASE WHEN a.task_key IS NOT NULL THEN 'answered'
            WHEN e.task_key IS NOT NULL THEN 'error' ELSE 'pending' END AS status,
       a.text, a.input_tokens, a.output_tokens, a.latency_s
FROM tasks t
LEFT JOIN answers a ON a.task_key = t.key
LEFT JOIN errors e ON e.task_key = t.key
WHERE t.superseded_by IS NULL AND t.benchmark = ?
ORDER BY t.rowid
"""


def task_rows(run_dir: Path, benchmark: str) -> pd.DataFrame:
    """The shared columns of ``benchmark``'s current tasks in the run, in the order they were
    stored (tokens as nullable integers)."""
    with Store.open(run_dir, create=False) as store:
        rows = store.connection.execute(_SQL, (benchmark,)).fetchall()
    frame = pd.DataFrame([tuple(r) for r in rows], columns=list(SHARED_COLUMNS))
    for col in ("input_tokens", "output_tokens"):
        frame[col] = frame[col].astype("Int64")
    frame["latency_s"] = frame["latency_s"].astype("float64")
    return frame
