"""Reading a run's tasks whole: each task with its answer or error, its verdict and the
judgements a later stage asks for (metrics, the report's viewer, judge stages)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from forgebench.run.store.base import CURRENT, StoreBase
from forgebench.run.store.rows import Judged, TaskRecord

_COLUMNS = (
    "t.key, t.benchmark, t.item_id, t.model, t.probe, t.condition, {prompt}, t.extra, "
    "a.text, a.finish_reason, a.input_tokens, a.output_tokens, a.latency_s, e.reason, "
    "v.verdict, v.detail, v.parser_version, t.variant_id, t.image_path, t.media_type, t.images"
)
_JUDGED = ("value", "level", "status", "reason", "detail")


class RecordsPart(StoreBase):
    """:meth:`records`: the task-level read of later stages."""

    def records(
        self,
        benchmark: str | None = None,
        *,
        judged: Sequence[tuple[str, str]] = (),
        probes: Sequence[str] | None = None,
        conditions: Sequence[str] | None = None,
        items: Sequence[str] | None = None,
        models: Sequence[str] | None = None,
        answered: bool = False,
        current: bool = True,
        prompts: bool = False,
        page: int = 20000,
    ) -> Iterator[TaskRecord]:
        """The tasks of ``benchmark`` (all benchmarks when None) in the order they were stored,
        read in pages of ``page`` (memory flat in the run's size; writes between pages are
        safe), each with the judgements of the ``(judge, kind)`` pairs of ``judged``.

        Narrowed to ``probes`` / ``conditions`` / ``items`` (item ids) / ``models`` when given,
        to tasks with an answer when ``answered``; superseded tasks are left out unless
        ``current`` is False. With both ``items`` and ``models`` the tasks are found through the
        (model, item) index rather than by walking every task: a few items of a run of millions
        of tasks. Prompts (long) are read only with ``prompts``."""
        prompt = "t.prompt" if prompts else "''"
        joins, params, where = [], [], ["1=1"]
        extra_cols = []
        for n, (judge, kind) in enumerate(judged):
            joins.append(
                f"LEFT JOIN judgements j{n} ON j{n}.task_key = t.key "
                f"AND j{n}.judge = ? AND j{n}.kind = ?"
            )
            params += [judge, kind]
            extra_cols += [f"j{n}.{c}" for c in _JUDGED]
        if benchmark is not None:
            where.append("+t.benchmark = ?")  # "+": walk tasks in rowid order, not by index
            params.append(benchmark)
        seek = items is not None and models is not None  # the index tasks_identity leads
        for col, values in (
            ("probe", probes), ("condition", conditions), ("model", models), ("item_id", items)
        ):  # fmt: skip
            if values is not None:
                plus = "" if seek and col in ("model", "item_id") else "+"
                where.append(f"{plus}t.{col} IN ({','.join('?' * len(values))})")
                params += list(values)
        if answered:
            where.append("a.task_key IS NOT NULL")
        if current:
            where.append(f"t.{CURRENT}")
        sql = (
            f"SELECT t.rowid AS rid, {', '.join([_COLUMNS.format(prompt=prompt), *extra_cols])} "
            "FROM tasks t "
            "LEFT JOIN answers a ON a.task_key = t.key "
            "LEFT JOIN errors e ON e.task_key = t.key "
            "LEFT JOIN verdicts v ON v.task_key = t.key "
            f"{' '.join(joins)} WHERE {' AND '.join(where)}"
        )
        starts = [22 + n * len(_JUDGED) for n in range(len(judged))]
        full = sql + " AND t.rowid > ? ORDER BY t.rowid LIMIT ?"
        after, make, mark = -1, TaskRecord._make, Judged._make
        while True:  # pages read whole (plain tuples: the fastest rows sqlite3 makes)
            rows = self.connection.execute(full, (*params, after, page)).fetchall()
            if not rows:
                return
            after = rows[-1][0]
            for r in rows:
                marks = tuple(None if r[s + 2] is None else mark(r[s : s + 5]) for s in starts)
                yield make((*r[1:18], marks, *r[18:22]))
