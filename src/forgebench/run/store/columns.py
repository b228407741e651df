"""Reading a run's tasks as typed columns (Arrow arrays), not as one Python object per task.

Analysis frames and the report's item viewer hold every task of a run (a 25-model run of the
Forensics release holds 1.6 million); :meth:`task_columns` reads each table once, in its own
order (a sequential scan: no index lookup per task), page by page into typed Arrow arrays, and
places the answers, errors, verdicts and judgements beside their tasks with one hashed lookup of
the task keys per table (``pyarrow.compute.index_in``). Rows are plain tuples only for the page
being read; REALs come back exact.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from forgebench.run.store.base import CURRENT, StoreBase

if TYPE_CHECKING:  # pyarrow loads on the first read: importing the store must stay light
    import pyarrow as pa

_STR, _INT, _REAL = "large_string", "int64", "float64"
"""Column kinds, named as pyarrow's type factories."""

_TASK = (
    ("key", "t.key", _STR),
    ("item_id", "t.item_id", _STR),
    ("model", "t.model", _STR),
    ("probe", "t.probe", _STR),
    ("condition", "t.condition", _STR),
)
_ANSWER = (
    ("text", "text", _STR),
    ("finish_reason", "finish_reason", _STR),
    ("input_tokens", "input_tokens", _INT),
    ("output_tokens", "output_tokens", _INT),
    ("latency_s", "latency_s", _REAL),
)
_VERDICT = (
    ("verdict", "verdict", _STR),
    ("verdict_json", "detail", _STR),
    ("parser_version", "parser_version", _STR),
)
_MORE = {
    "benchmark": "t.benchmark",
    "error": "reason",
    "variant_id": "t.variant_id",
    "image_path": "t.image_path",
    "media_type": "t.media_type",
    "images_json": "t.images",
}
"""Text columns a read asks for by name (``columns``): the task's benchmark, its error's reason
(from the errors table) and the images it showed (as
:class:`~forgebench.run.store.rows.TaskRecord` holds them)."""
_JUDGED = {"value": _STR, "level": _INT, "status": _STR, "reason": _STR}
_FIELD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _field(name: str) -> str:
    if not _FIELD.fullmatch(name):
        raise ValueError(f"not a JSON field name: {name!r}")
    return name


class JudgedColumns(NamedTuple):
    """A judgement a column read joins, ``(judge, kind)``, and which of its columns it returns:
    ``fields`` of ``value, level, status, reason``, and ``flags``, booleans of its detail."""

    judge: str
    kind: str
    fields: tuple[str, ...] = tuple(_JUDGED)
    flags: tuple[str, ...] = ()


class _Scan(NamedTuple):
    """One table read whole: ``SELECT rowid, <exprs> FROM <source> WHERE <where>``, its columns
    named and typed."""

    source: str
    where: str
    params: tuple[Any, ...]
    columns: tuple[tuple[str, str, str], ...]
    """(name, expression, kind)"""
    bound: tuple[Any, ...] = ()
    """Parameters of the expressions (they come first in the SQL)."""


class ColumnsPart(StoreBase):
    """:meth:`task_columns`: the column-wise task read of analysis frames and the viewer."""

    def task_columns(
        self,
        benchmark: str | None = None,
        *,
        extra: Sequence[str] = (),
        judged: Sequence[JudgedColumns | tuple[str, str]] = (),
        columns: Sequence[str] = (),
        page: int = 50000,
    ) -> pa.Table:
        """The current tasks of ``benchmark`` (all when None) in the order they were stored, as
        one Arrow table: ``key, item_id, model, probe, condition``, the answer's ``text,
        finish_reason, input_tokens, output_tokens`` (null without one), ``answered`` /
        ``errored`` (1 / 0: an answer row / an error row exists), the verdict's ``verdict,
        verdict_json, parser_version``; each of ``columns`` asked for (``benchmark``,
        ``error``: the error's reason, ``variant_id, image_path, media_type, images_json``: the
        images shown); ``extra.NAME`` for each name of ``extra`` (that field of the question's
        stored extra, as text); for the ``n``-th judgement of ``judged``
        (:class:`JudgedColumns`; a plain ``(judge, kind)`` returns every field): ``jN.FIELD``
        for each of its ``fields`` (null without the judgement) and ``jN.FLAG`` for each of its
        ``flags`` (that boolean of the judgement's detail as 1 / 0; null when absent or
        unreadable); last the answer's ``latency_s``.

        Every table is read in one read transaction (one snapshot), ``page`` rows at a time."""
        import pyarrow as pa
        import pyarrow.compute as pc

        for name in columns:
            if name not in _MORE:
                raise ValueError(f"not a task column: {name!r}")
        specs = [JudgedColumns(*spec) for spec in judged]
        for spec in specs:
            for col in spec.fields:
                if col not in _JUDGED:
                    raise ValueError(f"not a judgement column: {col!r}")
        own = [(n, _MORE[n], _STR) for n in columns if n != "error"]
        own += [(f"extra.{n}", "CAST(json_extract(t.extra, ?) AS TEXT)", _STR) for n in extra]
        where, params = f"t.{CURRENT}", tuple[str, ...]()
        if benchmark is not None:
            where, params = where + " AND +t.benchmark = ?", (benchmark,)
        tasks = _Scan(
            "tasks t",
            where,
            params,
            (*_TASK, *own),
            tuple(f"$.{_field(n)}" for n in extra),
        )
        keyed = "task_key"
        answers = _Scan("answers", "1", (), (("k", keyed, _STR), *_ANSWER))
        errors = _Scan("errors", "1", (), (("k", keyed, _STR), ("error", "reason", _STR)))
        verdicts = _Scan("verdicts", "1", (), (("k", keyed, _STR), *_VERDICT))
        judgements = []
        for spec in specs:
            cols: list[tuple[str, str, str]] = [("k", keyed, _STR)]
            cols += [(f, f, _JUDGED[f]) for f in spec.fields]
            cols += [
                (
                    flag,
                    "CASE WHEN json_valid(detail) THEN "
                    f"CAST(json_extract(detail, '$.{_field(flag)}') AS INTEGER) END",
                    _INT,
                )
                for flag in spec.flags
            ]
            judgements.append(
                _Scan("judgements", "judge = ? AND kind = ?", (spec.judge, spec.kind), tuple(cols))
            )
        con = self.connection
        owner = not con.in_transaction  # one snapshot for every table
        if owner:
            con.execute("BEGIN")
        try:
            task, answer, error, verdict = (
                self._scan(s, page) for s in (tasks, answers, errors, verdicts)
            )
            judgement = [self._scan(s, page) for s in judgements]
        finally:
            if owner:
                con.execute("COMMIT")
        keys = task.column("key")

        def beside(table: pa.Table) -> tuple[pa.Array, pa.Table]:
            """Where each task's row of ``table`` is (null: none) and ``table`` taken so."""
            at = pc.index_in(keys, value_set=table.column("k"))
            return at, table.take(at)

        a_at, a = beside(answer)
        e_at, e = beside(error)
        _v_at, v = beside(verdict)
        names = [n for n, _e, _k in _TASK] + ["text", "finish_reason"]
        arrays = [task.column(n) for n, _e, _k in _TASK] + [
            a.column("text"),
            a.column("finish_reason"),
        ]
        names += ["input_tokens", "output_tokens", "answered", "errored"]
        arrays += [a.column("input_tokens"), a.column("output_tokens")]
        arrays += [pc.is_valid(a_at).cast(pa.int64()), pc.is_valid(e_at).cast(pa.int64())]
        names += [n for n, _e, _k in _VERDICT]
        arrays += [v.column(n) for n, _e, _k in _VERDICT]
        for name in columns:
            names.append(name)
            arrays.append(e.column("error") if name == "error" else task.column(name))
        for name in extra:
            names.append(f"extra.{name}")
            arrays.append(task.column(f"extra.{name}"))
        for n, (spec, table) in enumerate(zip(specs, judgement, strict=True)):
            _at, j = beside(table)
            for col in (*spec.fields, *spec.flags):
                names.append(f"j{n}.{col}")
                arrays.append(j.column(col))
        names.append("latency_s")
        arrays.append(a.column("latency_s"))
        return pa.Table.from_arrays(arrays, names=names)

    def _scan(self, scan: _Scan, page: int) -> pa.Table:
        """Every row of ``scan`` in rowid order as one typed table, read ``page`` rows at a time:
        SQLite writes each page as JSON lines that Arrow parses straight into typed columns (no
        row becomes a Python object), except the REAL columns: SQLite's JSON renders a REAL with
        15 significant digits (lossy), so those come back as plain values from a second query
        over the same rowids."""
        import pyarrow as pa
        import pyarrow.json as pa_json

        alias = scan.source.split()[-1]
        texts = [
            (i, expr, kind) for i, (_n, expr, kind) in enumerate(scan.columns) if kind != _REAL
        ]
        reals = [(i, expr) for i, (_n, expr, kind) in enumerate(scan.columns) if kind == _REAL]
        line = "json_object(" + ", ".join(f"'{i}', {e}" for i, e, _k in texts) + ")"
        lines_sql = (
            f"SELECT max(rid), count(*), CAST(group_concat(line, char(10)) AS BLOB) FROM (SELECT "
            f"{alias}.rowid AS rid, {line} AS line FROM {scan.source} WHERE {scan.where} "
            f"AND {alias}.rowid > ? ORDER BY {alias}.rowid LIMIT ?)"
        )
        reals_sql = (
            f"SELECT {', '.join(e for _i, e in reals) or 'NULL'} FROM {scan.source} WHERE "
            f"{scan.where} AND {alias}.rowid > ? AND {alias}.rowid <= ? ORDER BY {alias}.rowid"
        )
        schema = pa.schema([(str(i), getattr(pa, kind)()) for i, _e, kind in texts])
        options = pa_json.ParseOptions(explicit_schema=schema, unexpected_field_behavior="error")
        chunks: dict[int, list[pa.Array]] = {i: [] for i in range(len(scan.columns))}
        after = -1
        con = self.connection
        while True:
            last, count, blob = con.execute(
                lines_sql, (*scan.bound, *scan.params, after, page)
            ).fetchone()
            if last is None:
                break
            block = blob  # bytes: the UTF-8 SQLite wrote, never decoded to a str
            table = pa_json.read_json(
                pa.BufferReader(block),
                read_options=pa_json.ReadOptions(use_threads=False, block_size=len(block) + 1),
                parse_options=options,
            )
            for i, _e, _k in texts:
                chunks[i].extend(table.column(str(i)).chunks)
            if reals:
                rows = con.execute(reals_sql, (*scan.params, after, last)).fetchall()
                if len(rows) != count:  # one snapshot: cannot differ
                    raise RuntimeError("pages of one table disagree within one read transaction")
                for k, (i, _e) in enumerate(reals):
                    chunks[i].append(pa.array([r[k] for r in rows], type=pa.float64()))
            after = last
        return pa.Table.from_arrays(
            [
                pa.chunked_array(chunks[i], type=getattr(pa, kind)())
                for i, (_n, _e, kind) in enumerate(scan.columns)
            ],
            names=[n for n, _e, _k in scan.columns],
        )
