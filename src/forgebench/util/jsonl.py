"""Reading a JSONL file line by line, naming the line of every problem (the datasets' one reader).

:func:`iter_jsonl` streams (one line in memory) and yields ``(line_number, object, error)`` for
each non-blank line: a line that is not UTF-8, not JSON, not a JSON object, or an object that
gives one key twice (``json``'s default is last-wins, which would hide a mistake), or nesting too
deep to decode yields its
error instead of an object, so each reader (a suite's loader, validator, importer) can name it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any


class _DuplicateKey(Exception):
    pass


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's dict; a key given twice is an error."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def json_type(value: Any) -> str:
    """How a JSON value's type reads in an error message ("a number", "null", ...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "a list"
    return "an object" if isinstance(value, dict) else type(value).__name__


def iter_jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any] | None, str | None]]:
    """``(line_number, object, error)`` for each non-blank line of ``path`` (see the module)."""
    with path.open("rb") as fh:
        for lineno, raw in enumerate(fh, start=1):
            obj, err = parse_line(raw)
            if obj is not None or err is not None:
                yield lineno, obj, err


def parse_line(raw: bytes) -> tuple[dict[str, Any] | None, str | None]:
    """One line as ``(object, None)`` or ``(None, error)``; ``(None, None)`` for a blank line."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, f"not UTF-8 text (byte {exc.start + 1})"
    if not text.strip():
        return None, None
    try:
        obj = json.loads(text, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        return None, f"invalid JSON: {exc.msg} (column {exc.colno})"
    except _DuplicateKey as exc:
        return None, f"duplicate key {exc.args[0]!r} in one JSON object"
    except RecursionError:
        return None, "invalid JSON: nested too deeply"
    if not isinstance(obj, dict):
        return None, f"expected a JSON object, got {json_type(obj)}"
    return obj, None
