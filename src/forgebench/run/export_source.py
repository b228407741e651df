"""What the export formats read from a run store, as typed records, streamed.

The run-level exports (Inspect logs, VLMEvalKit files, model cards) need every current task of one
benchmark and model with its answer (or error), the suite parser's verdict and the judges'
judgements, plus the facts that say where the numbers come from (:class:`RunFacts`). They read
them here, through one cursor per (benchmark, model) and one judgement query per shard, so an
export holds one shard of records in memory, never the run. (:meth:`Store.records` is the
later stages' read; an export also needs each task's images, prompt version, generation
parameters and answer time, one model at a time, and every judgement a task has.)
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from forgebench.models.base import ImageRef
from forgebench.run.store import CURRENT, LIVE, Store, task_images


@dataclass(frozen=True)
class ExportTask:
    """One current task with what was stored for it."""

    key: str
    benchmark: str
    item_id: str
    probe: str
    condition: str
    model: str
    prompt: str
    """The rendered prompt as sent (the user message's text)."""
    prompt_version: str
    images: tuple[ImageRef, ...]
    """The images shown, in order (paths may point into a cache that was cleaned)."""
    params: dict[str, Any]
    """Generation parameters."""
    extra: dict[str, Any]
    """The suite's extra fields of the question (options, the right answer ...)."""
    status: str
    """``answered``, ``error`` or ``pending``."""
    text: str | None = None
    finish_reason: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    latency_s: float | None = None
    created_at: float | None = None
    """When the answer was stored (epoch seconds)."""
    error: str | None = None
    """The last error's reason, for a task that ended as an error."""
    verdict: str | None = None
    """The suite parser's verdict (None: not parsed yet)."""
    verdict_detail: dict[str, Any] = field(default_factory=dict)
    parser_version: str | None = None
    epoch: int = 1
    """Which repeat of the question (``run --epochs``; 1 for the first ask)."""


@dataclass(frozen=True)
class ExportJudgement:
    """One judge's judgement of a task."""

    judge: str
    kind: str
    value: str | None
    level: int | None
    status: str
    reason: str | None
    version: str


@dataclass(frozen=True)
class RunFacts:
    """Where a run's numbers come from (every export carries them)."""

    run_id: str
    """``meta.run_id`` when the run has one, else a digest of its current task keys (the same
    questions to the same models give the same id)."""
    benchmark: str
    dataset_hash: str
    """SHA-256 of the benchmark's items as stored in the run (id and JSON, in id order)."""
    dataset: str | None
    """The dataset folder the run was made from (``meta.datasets``), if recorded."""
    prompt_versions: tuple[str, ...]
    parser_versions: tuple[str, ...]
    judges: tuple[str, ...]
    """Judges that stored judgements for this benchmark's tasks, as ``judge (kind, version)``."""


_TASKS = """
SELECT t.key, t.epoch, t.benchmark, t.item_id, t.probe, t.condition, t.model, t.prompt,
       t.prompt_version, t.variant_id, t.image_path, t.media_type, t.images, t.params, t.extra,
       a.text, a.finish_reason, a.input_tokens, a.output_tokens, a.latency_s,
       a.created_at AS answered_at, e.reason AS error,
       v.verdict, v.detail AS verdict_detail, v.parser_version
FROM tasks t
LEFT JOIN answers a ON a.task_key = t.key
LEFT JOIN errors e ON e.task_key = t.key
LEFT JOIN verdicts v ON v.task_key = t.key
WHERE t.benchmark = ? AND t.model = ? AND t.{where}
ORDER BY t.epoch, t.rowid
"""


def _record(row: sqlite3.Row) -> ExportTask:
    answered = row["text"] is not None
    return ExportTask(
        key=row["key"],
        benchmark=row["benchmark"],
        item_id=row["item_id"],
        probe=row["probe"],
        condition=row["condition"],
        model=row["model"],
        prompt=row["prompt"],
        prompt_version=row["prompt_version"],
        images=task_images(row),
        params=json.loads(row["params"] or "{}"),
        extra=json.loads(row["extra"] or "{}"),
        status="answered" if answered else "error" if row["error"] is not None else "pending",
        text=row["text"],
        finish_reason=row["finish_reason"],
        input_tokens=row["input_tokens"],
        output_tokens=row["output_tokens"],
        latency_s=row["latency_s"],
        created_at=row["answered_at"],
        error=None if answered else row["error"],
        verdict=row["verdict"],
        verdict_detail=json.loads(row["verdict_detail"] or "{}"),
        parser_version=row["parser_version"],
        epoch=int(row["epoch"]),
    )


def models_of(store: Store, benchmark: str) -> list[str]:
    """Models with current tasks of ``benchmark``, sorted."""
    sql = f"SELECT DISTINCT model FROM tasks WHERE benchmark = ? AND {CURRENT} ORDER BY 1"
    return [str(m) for (m,) in store.connection.execute(sql, (benchmark,))]


def iter_tasks(
    store: Store, benchmark: str, model: str, *, epochs: bool = False
) -> Iterator[ExportTask]:
    """Every current task of one benchmark and model, in the order they were stored (a cursor:
    rows are read as they are consumed); with ``epochs`` every epoch's (``run --epochs``), the
    repeats after the first asks, else epoch 1's."""
    cur = store.connection.cursor()
    cur.row_factory = sqlite3.Row
    for row in cur.execute(_TASKS.format(where=LIVE if epochs else CURRENT), (benchmark, model)):
        yield _record(row)


def judgements_of(store: Store, keys: Sequence[str]) -> dict[str, list[ExportJudgement]]:
    """The judgements of ``keys`` (a shard), by task key, ordered by judge and kind."""
    out: dict[str, list[ExportJudgement]] = {}
    for start in range(0, len(keys), 500):
        chunk = list(keys[start : start + 500])
        marks = ",".join("?" * len(chunk))
        rows = store.connection.execute(
            "SELECT task_key, judge, kind, value, level, status, reason, version "
            f"FROM judgements WHERE task_key IN ({marks}) ORDER BY judge, kind",
            chunk,
        )
        for key, judge, kind, value, level, status, reason, version in rows:
            out.setdefault(key, []).append(
                ExportJudgement(judge, kind, value, level, status, reason, version)
            )
    return out


def items_of(store: Store, benchmark: str, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
    """The stored items ``ids`` of ``benchmark`` (a shard's), by id."""
    out: dict[str, dict[str, Any]] = {}
    unique = sorted(set(ids))
    for start in range(0, len(unique), 500):
        chunk = unique[start : start + 500]
        marks = ",".join("?" * len(chunk))
        rows = store.connection.execute(
            f"SELECT item_id, data FROM items WHERE benchmark = ? AND item_id IN ({marks})",
            [benchmark, *chunk],
        )
        out.update({str(i): json.loads(d) for i, d in rows})
    return out


def run_facts(store: Store, benchmark: str) -> RunFacts:
    """The provenance of ``benchmark``'s numbers in this run (see :class:`RunFacts`)."""
    con = store.connection
    run_id = store.meta_get("run_id")
    if not run_id:
        digest = hashlib.sha256()
        for (key,) in con.execute(f"SELECT key FROM tasks WHERE {CURRENT} ORDER BY key"):
            digest.update(key.encode() + b"\n")
        run_id = digest.hexdigest()[:16]
    items = hashlib.sha256()
    for item_id, data in con.execute(
        "SELECT item_id, data FROM items WHERE benchmark = ? ORDER BY item_id", (benchmark,)
    ):
        items.update(f"{item_id}\t{data}\n".encode())
    prompts = con.execute(
        f"SELECT DISTINCT prompt_version FROM tasks WHERE benchmark = ? AND {CURRENT} ORDER BY 1",
        (benchmark,),
    )
    parsers = con.execute(
        "SELECT DISTINCT v.parser_version FROM verdicts v JOIN tasks t ON t.key = v.task_key "
        f"WHERE t.benchmark = ? AND t.{CURRENT} ORDER BY 1",
        (benchmark,),
    )
    judges = con.execute(
        "SELECT DISTINCT j.judge, j.kind, j.version FROM judgements j "
        f"JOIN tasks t ON t.key = j.task_key WHERE t.benchmark = ? AND t.{CURRENT} ORDER BY 1, 2, 3",
        (benchmark,),
    )
    datasets = store.meta_get("datasets") or {}
    return RunFacts(
        run_id=str(run_id),
        benchmark=benchmark,
        dataset_hash=items.hexdigest(),
        dataset=datasets.get(benchmark) if isinstance(datasets, dict) else None,
        prompt_versions=tuple(str(p) for (p,) in prompts),
        parser_versions=tuple(str(p) for (p,) in parsers),
        judges=tuple(f"{j} ({k}, {v})" for j, k, v in judges),
    )
