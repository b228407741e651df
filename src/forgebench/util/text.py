"""Text from outside (answers, server errors, dataset text, model names): valid before it is
stored, harmless before it is printed.

- :func:`valid`: a model's reply can hold a lone UTF-16 surrogate (``"\\ud800"`` in its JSON,
  what a server emits when a token splits a character). Python decodes it into the string, but
  it is no Unicode text: SQLite's UTF-8 encoder refuses it, so one such reply would stop the
  writer and be asked (and paid for) again on every resume. Every lone surrogate becomes U+FFFD
  (a surrogate pair written as two code points is joined into its character).
- :func:`json_text`: JSON of outside data with lone surrogates kept losslessly as their
  ``\\uXXXX`` escapes (valid UTF-8 text that ``json.loads`` reads back to the same string): how
  the store keeps a server's raw reply.
- :func:`printable`: control characters (C0 but newline and tab, DEL, C1, and the bidirectional
  overrides) written as visible escapes (``\\x1b``), so no server message, dataset question or
  model name can move the cursor, retitle or clear the terminal, or write the clipboard.
- :func:`markup_safe`: :func:`printable`, then rich markup escaped (a model named
  ``openai/[link=file:///etc/passwd]x[/link]`` is shown as written, not as a link).
- :func:`xlsx_safe`: the characters an ``.xlsx`` cell cannot hold (the C0 controls but tab, LF
  and CR: XML 1.0 forbids them, openpyxl raises ``IllegalCharacterError``) as U+FFFD; a writer
  counts the cells it changed and says so.
"""

from __future__ import annotations

import json
import re
from typing import Any

REPLACEMENT = "\ufffd"
"""What a lone surrogate becomes in stored text."""

_SURROGATE = re.compile("[\ud800-\udfff]")
_XLSX_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")
"""openpyxl's ``ILLEGAL_CHARACTERS_RE``: what XML 1.0 text cannot hold."""
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def valid(text: str) -> str:
    """``text`` as valid Unicode: each lone surrogate replaced by U+FFFD (unchanged, and not
    copied, when it holds none)."""
    if _SURROGATE.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def valid_or_none(text: str | None) -> str | None:
    """:func:`valid` for an optional text."""
    return None if text is None else valid(text)


def json_text(value: Any) -> str:
    """``json.dumps(value, ensure_ascii=False, default=str)`` with every lone surrogate kept as
    its ``\\uXXXX`` escape: storable text that reads back to ``value`` exactly."""
    encoded = json.dumps(value, ensure_ascii=False, default=str)
    if _SURROGATE.search(encoded) is None:
        return encoded
    # a surrogate can only stand inside a JSON string, where an escape means the same code point
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", encoded)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` safe to write to a terminal: control characters (all C0 but ``\\n`` and
    ``\\t``, DEL, C1, bidirectional overrides) as visible escapes (``ESC`` as ``\\x1b``), lone
    surrogates as U+FFFD."""
    text = valid(text)
    if _CONTROL.search(text) is None:
        return text
    text = text.replace("\r\n", "\n")  # a line ending, not a cursor movement
    if _CONTROL.search(text) is None:
        return text
    return _CONTROL.sub(_escape, text)


def markup_safe(text: str) -> str:
    """``text`` for a rich string that is parsed as markup: :func:`printable`, brackets
    escaped."""
    from rich.markup import escape

    return escape(printable(text))


def xlsx_safe(text: str) -> str:
    """``text`` as an ``.xlsx`` cell can hold it: :func:`valid`, and each character XML 1.0
    forbids (NUL, ESC, the other C0 controls but tab, LF and CR) as U+FFFD."""
    text = valid(text)
    if _XLSX_FORBIDDEN.search(text) is None:
        return text
    return _XLSX_FORBIDDEN.sub(REPLACEMENT, text)
