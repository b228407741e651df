"""Reading a JSONL file line by line, naming the line of every problem (the datasets' one reader).

:func:`iter_jsonl` streams (one line in memory) and yields ``(line_number, object, error)`` for
each non-blank line: a line that is not UTF-8, not JSON, not a JSON object, or an object that
gives one key twice (``json``'s default is last-wins, which would hide a mistake), or nesting too
deep to decode yields its
error instead of an object, so each reader (a suite's loader, validator, importer) can name it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from forgebench.util.input_limits import MAX_JSON_DEPTH


class _DuplicateKey(Exception):
    pass


class JSONTooDeep(ValueError):
    """JSON text that nests arrays and objects deeper than the limit (a ``ValueError``, so a
    reader that turns unparsable JSON into its own one-line error turns this one too)."""


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_OTHER = re.compile(r"[^\[\]{}]+")
_PAIRS = str.maketrans("[{]}", "(())")


def json_depth_over(text: str | bytes, max_depth: int = MAX_JSON_DEPTH) -> bool:
    """Whether ``text`` opens more than ``max_depth`` arrays/objects inside one another (brackets
    inside JSON strings do not count; unbalanced text is left to the parser). A cheap scan, at C
    speed: text with at most ``max_depth`` opening brackets in all is answered by two ``count``
    calls; otherwise the brackets alone are kept and innermost pairs removed, one level a pass."""
    if isinstance(text, bytes | bytearray):
        if text.count(b"[") + text.count(b"{") <= max_depth:
            return False
        text = bytes(text).decode("utf-8", "replace")
    elif text.count("[") + text.count("{") <= max_depth:
        return False
    rest = _OTHER.sub("", _STRING.sub("", text)).translate(_PAIRS)
    for _ in range(max_depth):
        shorter = rest.replace("()", "")
        if shorter == rest:  # balanced and gone, or unbalanced: not too deep
            return False
        rest = shorter
    return "()" in rest


def load_json_bounded(text: str | bytes, *, max_depth: int = MAX_JSON_DEPTH, **kwargs: Any) -> Any:
    """``json.loads(text, **kwargs)`` for JSON from outside: text nested deeper than
    ``max_depth`` (:data:`~forgebench.util.input_limits.MAX_JSON_DEPTH`) raises
    :class:`JSONTooDeep` before it is parsed (never a ``RecursionError``, here or in code that
    walks the value later). Other errors are ``json.loads``'s own (``ValueError``s, or a
    ``TypeError`` for a value that is not text)."""
    if not isinstance(text, str | bytes | bytearray):
        raise TypeError(f"JSON text must be str or bytes, not {type(text).__name__}")
    if json_depth_over(text, max_depth):
        raise JSONTooDeep(f"JSON nested deeper than {max_depth} levels")
    try:
        return json.loads(text, **kwargs)
    except RecursionError:
        raise JSONTooDeep(f"JSON nested deeper than {max_depth} levels") from None


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
        obj = load_json_bounded(text, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        return None, f"invalid JSON: {exc.msg} (column {exc.colno})"
    except _DuplicateKey as exc:
        return None, f"duplicate key {exc.args[0]!r} in one JSON object"
    except JSONTooDeep as exc:
        return None, f"invalid JSON: {exc}"
    if not isinstance(obj, dict):
        return None, f"expected a JSON object, got {json_type(obj)}"
    return obj, None
