"""Reading an item table (CSV, Parquet or JSONL) into item dicts, for :mod:`.importer`.

The cell rules are in the docstring of :mod:`forgebench.suites.mandela.importer`. Which fields are JSON cells
is read off the pydantic :class:`~forgebench.suites.mandela.contract.Item` model, so a field added there is
imported the right way without a change here.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import math
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel

from forgebench.errors import UserError
from forgebench.suites.mandela.contract import Item
from forgebench.util.jsonl import JSONTooDeep, iter_jsonl, load_json_bounded
from forgebench.util.problems import Problem

Kind = Literal["json", "object", "text"]
BOX_PATHS = {("edit", "region"), ("crop",), ("faces", "original"), ("faces", "replacement")}


class TableError(UserError):
    """A table that cannot be read at all (one line naming the file)."""


@dataclass
class Row:
    """One item row: where it came from and its nested fields."""

    file: str
    """File name of the table, for messages."""
    line: int
    """CSV: line in the file (header = 1); Parquet: 1-based row; JSONL: line."""
    data: dict[str, Any]
    """The item as a nested dict (empty cells left out)."""


def _field_kinds(
    model: type[BaseModel], prefix: tuple[str, ...] = ()
) -> dict[tuple[str, ...], Kind]:
    kinds: dict[tuple[str, ...], Kind] = {}
    for name, info in model.model_fields.items():
        ann = info.annotation
        if get_origin(ann) in (Union, types.UnionType):
            args = [a for a in get_args(ann) if a is not type(None)]
            ann = args[0] if len(args) == 1 else ann
        path = (*prefix, name)
        if isinstance(ann, type) and issubclass(ann, BaseModel):
            kinds[path] = "object"
            kinds.update(_field_kinds(ann, path))
        elif get_origin(ann) in (list, tuple) or ann in (list, tuple):
            kinds[path] = "json"
        else:
            kinds[path] = "text"
    return kinds


KINDS = _field_kinds(Item)


def _is_empty(value: Any) -> bool:
    return value is None or value == "" or (isinstance(value, float) and math.isnan(value))


def _native(value: Any) -> Any:
    """Parquet values as plain JSON values (structs without null members)."""
    if isinstance(value, dict):
        return {k: _native(v) for k, v in value.items() if not _is_empty(v)}
    if isinstance(value, list | tuple):
        return [_native(v) for v in value]
    if isinstance(value, dt.date | dt.datetime):
        return value.isoformat()
    return value


def convert_cell(path: tuple[str, ...], value: Any) -> Any:
    """One non-empty cell as the value of field ``path``; ``ValueError`` says why not."""
    kind = KINDS.get(path)
    value = _native(value)
    if isinstance(value, str) and (
        kind in ("json", "object") or (kind is None and value.lstrip()[:1] in ("[", "{"))
    ):
        try:
            value = load_json_bounded(value)
        except json.JSONDecodeError as exc:
            raise ValueError(f"not valid JSON ({exc.msg}): {value[:60]!r}") from None
        except JSONTooDeep as exc:
            raise ValueError(f"{exc}: {value[:60]!r}") from None
    if kind == "object" and not isinstance(value, dict):
        raise ValueError(f"expected a JSON object, got {value!r:.60}")
    if kind == "text" and isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if path in BOX_PATHS and isinstance(value, list):
        value = [int(v) if isinstance(v, float) and v.is_integer() else v for v in value]
    return value


def build_row(file: str, line: int, cells: dict[str, Any], problems: list[Problem]) -> Row:
    """Assemble dotted columns into a nested item dict, collecting cell problems."""
    data: dict[str, Any] = {}
    for column in sorted(cells, key=lambda c: c.count(".")):
        value = cells[column]
        if _is_empty(value):
            continue
        path = tuple(column.split("."))
        try:
            value = convert_cell(path, value)
        except ValueError as exc:
            problems.append(Problem(file, line, column, str(exc)))
            value = cells[column]
        target = data
        for depth, part in enumerate(path[:-1]):
            nxt = target.setdefault(part, {})
            if not isinstance(nxt, dict):
                problems.append(
                    Problem(file, line, column, f"{'.'.join(path[: depth + 1])} is not an object")
                )
                break
            target = nxt
        else:
            if path[-1] in target:
                problems.append(Problem(file, line, column, "given twice (object cell and column)"))
            target[path[-1]] = value
    return Row(file, line, data)


def _check_header(file: str, header: list[str]) -> None:
    seen: set[str] = set()
    for col in header:
        if not col or any(not part for part in col.split(".")):
            raise TableError(f"{file}:1: bad column name {col!r}")
        if col in seen:
            raise TableError(f"{file}:1: column {col!r} appears twice")
        seen.add(col)


def _read_csv(src: Path, problems: list[Problem]) -> list[Row]:
    rows: list[Row] = []
    try:
        with src.open(newline="", encoding="utf-8-sig") as fh:
            reader = csv.reader(fh)
            header = [h.strip() for h in next(reader, [])]
            if not header:
                raise TableError(f"{src}: empty file (expected a header row)")
            _check_header(src.name, header)
            start = reader.line_num + 1
            for cells in reader:
                line, start = start, reader.line_num + 1
                if not any(c.strip() for c in cells):
                    continue
                if len(cells) != len(header):
                    problems.append(
                        Problem(
                            src.name, line, "-", f"{len(cells)} cells, header has {len(header)}"
                        )
                    )
                    continue
                rows.append(
                    build_row(src.name, line, dict(zip(header, cells, strict=True)), problems)
                )
    except UnicodeDecodeError:
        raise TableError(f"{src}: not UTF-8 text") from None
    except csv.Error as exc:
        raise TableError(f"{src}: unreadable CSV: {exc}") from None
    return rows


def _read_parquet(src: Path, problems: list[Problem]) -> list[Row]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(src)
    except (pa.ArrowException, OSError) as exc:
        raise TableError(f"{src}: unreadable Parquet: {exc}") from None
    _check_header(src.name, list(table.column_names))
    return [
        build_row(src.name, index, record, problems)
        for index, record in enumerate(table.to_pylist(), start=1)
    ]


def _read_jsonl_table(src: Path, problems: list[Problem]) -> list[Row]:
    rows: list[Row] = []
    for line, obj, err in iter_jsonl(src):
        if obj is None:
            problems.append(Problem(src.name, line, "-", err or "unreadable line"))
        else:
            cells = {k: v for k, v in obj.items() if not _is_empty(v)}
            rows.append(Row(src.name, line, cells))
    return rows


def read_table(src: Path) -> tuple[list[Row], list[Problem]]:
    """Rows of a ``.csv``, ``.parquet`` / ``.pq`` or ``.jsonl`` table and the cell problems found."""
    if not src.is_file():
        raise TableError(f"{src}: no such file")
    readers = {".csv": _read_csv, ".parquet": _read_parquet, ".pq": _read_parquet}
    readers[".jsonl"] = _read_jsonl_table
    reader = readers.get(src.suffix.lower())
    if reader is None:
        raise TableError(f"{src}: unsupported table format (expected .csv, .parquet or .jsonl)")
    problems: list[Problem] = []
    rows = reader(src, problems)
    if not rows and not problems:
        raise TableError(f"{src}: no rows")
    return rows, problems
