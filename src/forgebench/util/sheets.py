"""Reading a table from outside (an ``.xlsx`` spreadsheet, a CSV or TSV file) row by row, within
the bounds of :mod:`forgebench.util.input_limits`, before anything large is allocated.

:func:`read_table` returns the header and, for the columns asked for, each row's cells as text.
An ``.xlsx`` file is read with the standard library alone: its zip directory is checked first
(the file's size, and the declared uncompressed size of each XML member read: the workbook, its
relationships, the shared strings, the first sheet), then the XML is streamed through ``expat``
in chunks, each cell's text counted as it arrives, so a cell, a row count or a shared-string
table over its limit stops the read at once. A ``DOCTYPE`` (the door to entity expansion) is
refused; Office files never carry one. CSV and TSV are read a line at a time, each row's text
bounded. Every problem is a :class:`TableError`: one line naming the file and the limit or the
fault.
"""

from __future__ import annotations

import csv
import io
import math
import re
import zipfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from xml.parsers import expat

from forgebench.errors import UserError
from forgebench.util.input_limits import (
    MAX_CELL_CHARS,
    MAX_SHARED_STRINGS,
    MAX_TABLE_BYTES,
    MAX_TABLE_ROWS,
    mib,
)
from forgebench.util.paths import InputFileError, regular_file

CHUNK = 1 << 20
"""Bytes fed to the XML parser (or read from a delimited file) at a time."""


class TableError(UserError):
    """A table file that cannot be read within the bounds; the message names the file."""


class _Stop(Exception):
    """Raised inside an ``expat`` handler to stop the parse with a message."""


def _limits(
    rows: int | None, cell: int | None, size: int | None, strings: int | None
) -> tuple[int, int, int, int]:
    return (
        MAX_TABLE_ROWS if rows is None else rows,
        MAX_CELL_CHARS if cell is None else cell,
        MAX_TABLE_BYTES if size is None else size,
        MAX_SHARED_STRINGS if strings is None else strings,
    )


def _check_regular(path: Path, max_bytes: int | None) -> None:
    try:
        size = regular_file(path).stat().st_size
    except InputFileError as exc:
        raise TableError(str(exc)) from None
    if max_bytes is not None and size > max_bytes:
        raise TableError(f"{path}: {size:,} bytes, over the limit of {mib(max_bytes)}")


def read_table(
    path: Path,
    wanted: tuple[str, ...],
    *,
    max_rows: int | None = None,
    max_cell: int | None = None,
    max_bytes: int | None = None,
    max_strings: int | None = None,
) -> tuple[list[str], list[dict[str, str]]]:
    """``(header, rows)`` of the table at ``path`` (``.xlsx``, ``.csv``, ``.tsv`` by suffix):
    each row a dict of the ``wanted`` columns the header has (a missing cell is ``""``). The
    limits default to :mod:`~forgebench.util.input_limits`' constants (tests pass small ones).
    :class:`TableError` names the file and the first limit crossed or fault found."""
    limits = _limits(max_rows, max_cell, max_bytes, max_strings)
    suffix = path.suffix.lower()
    if suffix == ".xlsx":
        _check_regular(path, limits[2])
        return _read_xlsx(path, wanted, *limits)
    _check_regular(path, None)
    return _read_delimited(path, "\t" if suffix == ".tsv" else ",", wanted, *limits)


# ---- CSV / TSV ---------------------------------------------------------------------------------


def _read_delimited(
    path: Path,
    sep: str,
    wanted: tuple[str, ...],
    max_rows: int,
    max_cell: int,
    max_bytes: int,
    _s: int,
) -> tuple[list[str], list[dict[str, str]]]:
    used = [0, 0]  # characters read for the current row, characters kept in all

    def lines(fh: io.TextIOBase) -> Iterator[str]:
        while True:
            line = fh.readline(max_cell + 1)
            if not line:
                return
            used[0] += len(line)
            if used[0] > max_cell:
                raise _Stop(f"a row longer than the limit of {max_cell:,} characters")
            yield line

    header: list[str] = []
    rows: list[dict[str, str]] = []
    try:
        with path.open("r", encoding="utf-8-sig", newline="") as fh:
            reader = csv.reader(lines(fh), delimiter=sep)
            for cells in reader:
                used[0] = 0
                if not cells:
                    continue  # a blank line
                if not header:
                    header = cells
                    picks = [(name, header.index(name)) for name in wanted if name in header]
                    continue
                if len(cells) > len(header):
                    raise _Stop(
                        f"row {reader.line_num}: {len(cells)} cells, the header has {len(header)}"
                    )
                if len(rows) >= max_rows:
                    raise _Stop(f"more than the limit of {max_rows:,} rows")
                row = {name: cells[i] if i < len(cells) else "" for name, i in picks}
                used[1] += sum(len(v) for v in row.values())
                if used[1] > max_bytes:
                    raise _Stop(f"more text than the limit of {mib(max_bytes)}")
                rows.append(row)
    except _Stop as exc:
        raise TableError(f"{path}: {exc}") from None
    except UnicodeDecodeError as exc:
        raise TableError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    except csv.Error as exc:
        raise TableError(f"{path}: cannot read as a table ({exc})") from None
    except OSError as exc:
        raise TableError(f"{path}: cannot read ({exc.strerror or exc})") from None
    return header, rows


# ---- XLSX --------------------------------------------------------------------------------------

_COLUMN = re.compile(r"([A-Z]{1,3})[0-9]*$")


def _column(ref: str | None, previous: int) -> int:
    """The 0-based column of a cell reference (``C7`` -> 2); the next one when it has none."""
    m = _COLUMN.match(ref or "")
    if m is None:
        return previous + 1
    n = 0
    for ch in m.group(1):
        n = n * 26 + ord(ch) - 64
    return n - 1


def _local(name: str) -> str:
    """An element's name without its namespace prefix (``x:row`` -> ``row``)."""
    return name.rpartition(":")[2] if ":" in name else name


def _refuse_dtd(*_args: Any) -> None:
    raise _Stop("an XML document type declaration (refused: entity expansion)")


def _parse_member(
    book: zipfile.ZipFile,
    name: str,
    start: Callable[[str, dict[str, str]], None],
    end: Callable[[str], None],
    text: Callable[[str], None],
) -> None:
    """Stream the XML member ``name`` through ``expat``: the handlers get the names as written
    (prefixed or not: :func:`_local`); text arrives in pieces of at most 64 KiB."""
    parser = expat.ParserCreate()
    parser.buffer_text = True
    parser.buffer_size = 1 << 16
    parser.StartDoctypeDeclHandler = _refuse_dtd
    parser.EntityDeclHandler = _refuse_dtd
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    try:
        with book.open(name) as fh:
            while chunk := fh.read(CHUNK):
                parser.Parse(chunk, False)
            parser.Parse(b"", True)
    except expat.ExpatError as exc:
        raise _Stop(f"{name}: not well-formed XML ({expat.ErrorString(exc.code)}, line "
                    f"{exc.lineno})") from None  # fmt: skip


class _Collector:
    """Text of the elements named ``inside`` (``t``, ``v``), counted against the cell limit."""

    def __init__(self, max_cell: int) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.on = False
        self.max_cell = max_cell

    def text(self, data: str) -> None:
        if self.on:
            self.size += len(data)
            if self.size > self.max_cell:
                raise _Stop(f"a cell longer than the limit of {self.max_cell:,} characters")
            self.parts.append(data)

    def take(self) -> str:
        out = "".join(self.parts)
        self.parts, self.size = [], 0
        return out


def _member(book: zipfile.ZipFile, name: str, max_bytes: int) -> zipfile.ZipInfo | None:
    try:
        info = book.getinfo(name)
    except KeyError:
        return None
    if info.file_size > max_bytes:
        raise _Stop(
            f"{name} declares {info.file_size:,} bytes uncompressed, over the limit of "
            f"{mib(max_bytes)}"
        )
    return info


def _first_sheet(book: zipfile.ZipFile, max_bytes: int) -> tuple[str, str | None]:
    """The zip names of the first sheet and of the shared strings (None: the file has none)."""
    first: list[str] = []
    targets: dict[str, tuple[str, str]] = {}

    def on_book(tag: str, attrs: dict[str, str]) -> None:
        if _local(tag) == "sheet" and not first:
            first.append(next((v for k, v in attrs.items() if k.endswith(":id")), ""))

    def on_rel(tag: str, attrs: dict[str, str]) -> None:
        if _local(tag) == "Relationship":
            targets[attrs.get("Id", "")] = (attrs.get("Type", ""), attrs.get("Target", ""))

    def noop(*_: Any) -> None:
        pass

    sheet, strings = "xl/worksheets/sheet1.xml", "xl/sharedStrings.xml"
    if _member(book, "xl/workbook.xml", max_bytes) and _member(
        book, "xl/_rels/workbook.xml.rels", max_bytes
    ):
        _parse_member(book, "xl/workbook.xml", on_book, noop, noop)
        _parse_member(book, "xl/_rels/workbook.xml.rels", on_rel, noop, noop)

        def where(target: str) -> str:
            return target.lstrip("/") if target.startswith("/") else "xl/" + target

        if first and first[0] in targets:
            sheet = where(targets[first[0]][1])
        for kind, target in targets.values():
            if kind.endswith("/sharedStrings"):
                strings = where(target)
    if _member(book, sheet, max_bytes) is None:
        raise _Stop("no worksheet")
    return sheet, strings if _member(book, strings, max_bytes) is not None else None


def _shared_strings(book: zipfile.ZipFile, name: str, max_cell: int, max_strings: int) -> list[str]:
    out: list[str] = []
    grab = _Collector(max_cell)
    depth = [0]  # inside a phonetic run (``rPh``): its text is not the cell's

    def start(tag: str, _attrs: dict[str, str]) -> None:
        tag = _local(tag)
        if tag == "t" and not depth[0]:
            grab.on = True
        elif tag == "rPh":
            depth[0] += 1

    def end(tag: str) -> None:
        tag = _local(tag)
        if tag == "t":
            grab.on = False
        elif tag == "rPh":
            depth[0] -= 1
        elif tag == "si":
            if len(out) >= max_strings:
                raise _Stop(f"more than the limit of {max_strings:,} shared strings")
            out.append(grab.take())

    _parse_member(book, name, start, end, grab.text)
    return out


def _number(text: str) -> str:
    """A numeric cell as pandas showed it before (``3.0`` -> ``3``)."""
    try:
        value = float(text)
    except ValueError:
        return text
    if math.isfinite(value) and value.is_integer():
        return str(int(value))
    return text


def _read_xlsx(
    path: Path,
    wanted: tuple[str, ...],
    max_rows: int,
    max_cell: int,
    max_bytes: int,
    max_strings: int,
) -> tuple[list[str], list[dict[str, str]]]:
    header: list[str] = []
    rows: list[dict[str, str]] = []
    picks: dict[int, str] = {}
    try:
        with zipfile.ZipFile(path) as book:
            sheet, strings_name = _first_sheet(book, max_bytes)
            strings = (
                _shared_strings(book, strings_name, max_cell, max_strings) if strings_name else []
            )
            grab = _Collector(max_cell)
            cell: dict[str, Any] = {"col": -1, "type": "n", "keep": False}
            current: dict[int, str] = {}
            kept = [0]

            def start(tag: str, attrs: dict[str, str]) -> None:
                if ":" in tag:
                    tag = tag.rpartition(":")[2]
                if tag == "c":
                    cell["col"] = _column(attrs.get("r"), cell["col"])
                    cell["type"] = attrs.get("t", "n")
                    cell["keep"] = not header or cell["col"] in picks
                elif tag in ("v", "t") and cell["keep"]:
                    grab.on = True
                elif tag == "row":
                    if header and len(rows) >= max_rows:
                        raise _Stop(f"more than the limit of {max_rows:,} rows")
                    cell["col"] = -1
                    current.clear()

            def end(tag: str) -> None:
                if ":" in tag:
                    tag = tag.rpartition(":")[2]
                if tag in ("v", "t"):
                    grab.on = False
                elif tag == "c" and cell["keep"]:
                    raw, kind = grab.take(), cell["type"]
                    if kind == "s":
                        try:
                            raw = strings[int(raw)]
                        except (ValueError, IndexError):
                            raise _Stop(
                                f"{sheet}: a shared string {raw[:20]!r} not in the table"
                            ) from None
                    elif kind == "n":
                        raw = _number(raw)
                    elif kind == "b":
                        raw = "True" if raw.strip() == "1" else "False"
                    current[cell["col"]] = raw
                elif tag == "row":
                    if not header:
                        width = max(current, default=-1) + 1
                        header.extend(current.get(i, "") for i in range(width))
                        for name in wanted:
                            if name in header:
                                picks[header.index(name)] = name
                        return
                    row = {name: current.get(i, "") for i, name in picks.items()}
                    kept[0] += sum(len(v) for v in row.values())
                    if kept[0] > max_bytes:
                        raise _Stop(f"more text than the limit of {mib(max_bytes)}")
                    rows.append(row)

            _parse_member(book, sheet, start, end, grab.text)
    except _Stop as exc:
        raise TableError(f"{path}: {exc}") from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, NotImplementedError) as exc:
        raise TableError(f"{path}: cannot read as .xlsx ({exc})") from None
    except (OSError, ValueError, RuntimeError, zlib.error) as exc:  # bad members, encryption
        raise TableError(f"{path}: cannot read as .xlsx ({type(exc).__name__}: {exc})") from None
    return header, rows
