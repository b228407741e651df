"""Reading a run's tasks as typed columns (Arrow arrays), not as one Python object per task.

Analysis frames hold every task of a run (hundreds of thousands of rows); :meth:`task_columns`
reads them in one SQL pass per page, with SQLite itself writing each page as JSON lines that
Arrow parses straight into typed columns. No row ever becomes a Python object, except the REAL
columns: SQLite's JSON renders a REAL with 15 significant digits (lossy), so those come back as
plain values from a second query in the same read transaction and are placed by rowid.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from forgebench.run.store_base import CURRENT, StoreBase

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
    ("text", "a.text", _STR),
    ("finish_reason", "a.finish_reason", _STR),
    ("input_tokens", "a.input_tokens", _INT),
    ("output_tokens", "a.output_tokens", _INT),
    ("answered", "a.task_key IS NOT NULL", _INT),
    ("errored", "e.task_key IS NOT NULL", _INT),
    ("verdict", "v.verdict", _STR),
    ("verdict_json", "v.detail", _STR),
    ("parser_version", "v.parser_version", _STR),
)
_MORE = {
    "benchmark": "t.benchmark",
    "error": "e.reason",
    "variant_id": "t.variant_id",
    "image_path": "t.image_path",
    "media_type": "t.media_type",
    "images_json": "t.images",
}
"""Text columns a read asks for by name (``columns``): the task's benchmark, its error's reason
and the images it showed (as :class:`~forgebench.run.store_rows.TaskRecord` holds them)."""
_REALS = (("latency_s", "a.latency_s"),)
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


class ColumnsPart(StoreBase):
    """:meth:`task_columns`: the column-wise task read of analysis frames."""

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
        finish_reason, input_tokens, output_tokens, latency_s`` (null without one),
        ``answered`` / ``errored`` (1 / 0: an answer row / an error row exists), the verdict's
        ``verdict, verdict_json, parser_version``; each of ``columns`` asked for (``benchmark``,
        ``error``: the error's reason, ``variant_id, image_path, media_type, images_json``: the
        images shown); ``extra.NAME`` for each name of ``extra``
        (that field of the question's stored extra, as text); and for the ``n``-th judgement of
        ``judged`` (:class:`JudgedColumns`; a plain ``(judge, kind)`` returns every field):
        ``jN.FIELD`` for each of its ``fields`` (null without the judgement) and ``jN.FLAG`` for
        each of its ``flags`` (that boolean of the judgement's detail as 1 / 0; null when absent
        or unreadable).

        Read in pages of ``page`` tasks, each in its own read transaction (memory flat in the
        run's size apart from the result; writes between pages are safe)."""
        names: list[str] = []
        exprs: list[str] = []
        import pyarrow as pa
        import pyarrow.json as pa_json

        types: list[str] = []
        params: list[Any] = []

        def add(name: str, expr: str, kind: str, *bound: Any) -> None:
            names.append(name)
            exprs.append(expr)
            types.append(kind)
            params.extend(bound)

        for name, expr, kind in _TASK:
            add(name, expr, kind)
        for name in columns:
            if name not in _MORE:
                raise ValueError(f"not a task column: {name!r}")
            add(name, _MORE[name], _STR)
        for name in extra:
            add(
                f"extra.{name}", "CAST(json_extract(t.extra, ?) AS TEXT)", _STR, f"$.{_field(name)}"
            )
        joins, join_params = [], []
        for n, spec in enumerate(judged):
            spec = JudgedColumns(*spec)
            joins.append(
                f"LEFT JOIN judgements j{n} ON j{n}.task_key = t.key "
                f"AND j{n}.judge = ? AND j{n}.kind = ?"
            )
            join_params += [spec.judge, spec.kind]
            for col in spec.fields:
                if col not in _JUDGED:
                    raise ValueError(f"not a judgement column: {col!r}")
                add(f"j{n}.{col}", f"j{n}.{col}", _JUDGED[col])
            for flag in spec.flags:
                add(
                    f"j{n}.{flag}",
                    f"CASE WHEN json_valid(j{n}.detail) THEN "
                    f"CAST(json_extract(j{n}.detail, ?) AS INTEGER) END",
                    _INT,
                    f"$.{_field(flag)}",
                )
        where, where_params = [f"t.{CURRENT}"], []
        if benchmark is not None:
            where.append("+t.benchmark = ?")  # "+": walk tasks in rowid order, not by index
            where_params.append(benchmark)
        source = (
            "FROM tasks t "
            "LEFT JOIN answers a ON a.task_key = t.key "
            "LEFT JOIN errors e ON e.task_key = t.key "
            "LEFT JOIN verdicts v ON v.task_key = t.key "
            f"{' '.join(joins)} WHERE {' AND '.join(where)}"
        )
        line = "json_object(" + ", ".join(f"'{i}', {e}" for i, e in enumerate(exprs)) + ")"
        lines_sql = (
            f"SELECT max(rid), count(*), group_concat(line, char(10)) FROM (SELECT t.rowid AS rid, "
            f"{line} AS line {source} AND t.rowid > ? ORDER BY t.rowid LIMIT ?)"
        )
        lines_params = [*params, *join_params, *where_params]
        # every join matches at most one row a task (keys, or the key and a fixed judge and
        # kind), so the REALs' own join walks the same tasks in the same order
        reals_sql = (
            f"SELECT {', '.join(e for _, e in _REALS)} FROM tasks t "
            f"LEFT JOIN answers a ON a.task_key = t.key WHERE {' AND '.join(where)} "
            "AND t.rowid > ? AND t.rowid <= ? ORDER BY t.rowid"
        )
        schema = pa.schema([(str(i), getattr(pa, typ)()) for i, typ in enumerate(types)])
        options = pa_json.ParseOptions(explicit_schema=schema, unexpected_field_behavior="error")
        pages: list[pa.Table] = []
        reals: list[list[np.ndarray]] = [[] for _ in _REALS]
        after = -1
        con = self.connection
        while True:
            owner = not con.in_transaction  # one snapshot for both queries of the page
            if owner:
                con.execute("BEGIN")
            try:
                last, count, blob = con.execute(lines_sql, (*lines_params, after, page)).fetchone()
                rows = (
                    []
                    if last is None
                    else con.execute(reals_sql, (*where_params, after, last)).fetchall()
                )
            finally:
                if owner:
                    con.execute("COMMIT")
            if last is None:
                break
            block = blob.encode()
            pages.append(
                pa_json.read_json(
                    io.BytesIO(block),
                    read_options=pa_json.ReadOptions(use_threads=False, block_size=len(block) + 1),
                    parse_options=options,
                )
            )
            if len(rows) != count:  # the same snapshot: cannot differ
                raise RuntimeError("task pages disagree within one read transaction")
            for i in range(len(_REALS)):
                reals[i].append(np.array([r[i] for r in rows], dtype=float))
            after = last
        arrays: list[pa.ChunkedArray | pa.Array] = [
            pa.chunked_array(
                [c for p in pages for c in p.column(i).chunks], type=schema.field(i).type
            )
            for i in range(len(types))
        ]
        for i, (name, _expr) in enumerate(_REALS):
            values = np.concatenate(reals[i]) if reals[i] else np.zeros(0)
            arrays.append(pa.array(values, type=pa.float64(), from_pandas=True))
            names.append(name)
        return pa.Table.from_arrays(arrays, names=names)
