"""The rows of the official release ``ForensicsBench.tsv`` (a VLMEvalKit-style TSV), one at a time.

Columns: ``index``, ``image`` (base64; or a Python list literal of base64 strings for multi-image
rows; or a reference to another row's ``index``, :mod:`.tsv_import`), ``question``, option
columns ``A``.. (empty when unused), ``answer`` (a letter), ``category`` (see :mod:`.taxonomy`),
optional ``hint`` and ``image_path``. A base64 cell exceeds Python ``csv``'s default field limit,
which is raised here.

Empty cells are missing values. (VLMEvalKit reads the TSV with pandas, which also treats the
strings ``NA``, ``None``, ``nan``... as missing; an option literally reading "None" is kept here.)
"""

from __future__ import annotations

import ast
import csv
import sys
from collections.abc import Iterator
from pathlib import Path

REQUIRED = ("index", "question", "answer", "category", "A", "B")
"""The columns every release TSV has (besides ``image`` or ``image_path``)."""


def raise_field_limit() -> None:
    """Let ``csv`` read cells of any size (a base64 image is megabytes)."""
    csv.field_size_limit(min(sys.maxsize, 2**31 - 1))


def read_header(path: Path) -> list[str]:
    """The TSV's column names (the first line only)."""
    with path.open("r", encoding="utf-8", newline="") as fh:
        first = fh.readline()
    return next(csv.reader([first], delimiter="\t"), [])


def looks_like_release_tsv(path: Path) -> bool:
    """True when ``path`` has the release's columns (how ``forgebench import`` picks this format)."""
    try:
        cols = set(read_header(path))
    except (OSError, UnicodeDecodeError, csv.Error):
        return False
    return set(REQUIRED) <= cols and bool({"image", "image_path"} & cols)


def parse_image_cell(cell: str) -> list[str]:
    """A cell's image strings: one, or a Python list literal of them; ``ValueError`` for a cell
    that starts a list but is not a non-empty list of strings."""
    text = cell.strip()
    if text.startswith("["):
        try:
            value = ast.literal_eval(text)
        except (SyntaxError, ValueError, TypeError, RecursionError, MemoryError):
            raise ValueError("a cell starting with '[' must be a Python list of strings") from None
        if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
            raise ValueError("an image list must be a non-empty list of strings")
        return [v.strip() for v in value]
    return [text]


def read_rows(path: Path) -> Iterator[tuple[int, dict[str, str]]]:
    """Each non-blank row as ``(its first line number, {column: cell})``."""
    raise_field_limit()
    with path.open("r", encoding="utf-8", newline="") as fh:
        reader = csv.reader(fh, delimiter="\t")
        header = next(reader, None)
        if header is None:
            return
        start = reader.line_num + 1
        for row in reader:
            if not any(c.strip() for c in row):
                start = reader.line_num + 1
                continue
            yield start, dict(zip(header, row, strict=False))
            start = reader.line_num + 1


def cell_text(row: dict[str, str], name: str) -> str | None:
    """The cell ``name`` of ``row``; None when it is missing or blank."""
    value = row.get(name)
    if value is None or not value.strip():
        return None
    return value
