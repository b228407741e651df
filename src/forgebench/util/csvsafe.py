"""CSV formula neutralising for files meant for people, and the quoting every CSV/TSV writer of
outside text shares.

A spreadsheet opening a CSV runs any cell that starts with ``=``, ``+``, ``-`` or ``@`` (also
after leading spaces, tabs, carriage returns or line feeds, which some spreadsheets skip) as a
formula; a model's answer or an imported field can start that way. The common convention (OWASP
"CSV Injection") is to prefix such a text cell with a single quote, which spreadsheets show as
text. :func:`neutralise` does that to text only: a cell that reads as a number (``+4.8``,
``-0.25``, ``-1e-3``: the signed values of the report tables) is left alone, so numbers stay
numbers.

Python's ``csv`` writer (and pandas' ``to_csv``) with rows ending in ``\n`` quotes a cell holding
a line feed but not one holding a bare carriage return, which every CSV reader (spreadsheets,
pandas' ``read_csv``) takes for the end of the row: an answer ``"\r=cmd|..."`` then ends its row
early and the next row starts with the raw formula. :func:`writer`, :func:`frame_text` and
:func:`write_frame` quote every cell holding a CR or an LF (rows still end in ``\n``); a reader
gets the cell back whole.

Only CSVs meant for people are neutralised (``export --format csv``, ``calibration_sample.csv``,
the report's table CSVs). ``metrics.csv`` and ``paired_tests.csv`` are machine-readable and stay
raw, as do Parquet and the store; machine-readable TSVs of outside text (the VLMEvalKit
predictions, the release TSV) use :func:`writer` for its quoting only.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")
"""First characters a spreadsheet reads as the start of a formula."""
LEADING = " \t\r\n"
"""What a spreadsheet may skip before a formula's first character."""


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def neutralise(value: Any) -> Any:
    """``value`` with a ``'`` in front when it is text a spreadsheet would run; anything else as
    it is."""
    if not isinstance(value, str):
        return value
    if value.startswith(FORMULA_START) and not _is_number(value):
        return "'" + value
    if value[:1] == " " and value.lstrip(LEADING).startswith(FORMULA_START[:4]):
        return "'" + value  # " =1+1": a leading space does not make it text everywhere
    return value


def neutralise_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` with every text cell neutralised (numeric columns untouched)."""
    out = frame.copy()
    for col in out.columns:
        if out[col].dtype == object or str(out[col].dtype) in ("string", "str"):
            out[col] = out[col].map(neutralise)
    return out


class _LineFeedRows:
    """A text stream for a ``csv`` writer whose rows end in ``\r\n`` (so that it quotes every
    cell holding a CR or an LF): writes them to ``fh`` ending in ``\n``. Outside quotes a
    ``\r\n`` can only be a row's end (an unquoted cell holds neither), so the quotes seen so far
    tell them apart, across writes."""

    def __init__(self, fh: IO[Any]) -> None:
        self.fh = fh
        self.quoted = False
        self.held = ""

    def write(self, text: str) -> int:
        text, self.held = self.held + text, ""
        parts = text.split('"')
        for i, part in enumerate(parts):
            if i:
                self.quoted = not self.quoted
            if not self.quoted:
                parts[i] = part.replace("\r\n", "\n")
        out = '"'.join(parts)
        if not self.quoted and out.endswith("\r"):  # the row's end may be cut between writes
            out, self.held = out[:-1], "\r"
        self.fh.write(out)
        return len(text)

    def __iter__(self) -> Any:  # pandas takes an object with ``write`` and ``__iter__`` as a file
        return iter(())

    def close(self) -> None:
        if self.held:
            self.fh.write(self.held)
            self.held = ""


def writer(fh: IO[Any], *, delimiter: str = ",") -> Any:
    """A ``csv.writer`` on ``fh`` (opened with ``newline=""``): rows end in ``\n``, and every
    cell holding a CR, an LF, the delimiter or a quote is quoted. Neutralises nothing (call
    :func:`neutralise` on the cells of a CSV meant for people)."""
    return csv.writer(_LineFeedRows(fh), delimiter=delimiter, lineterminator="\r\n")


def _frame_to(frame: pd.DataFrame, fh: IO[Any]) -> None:
    rows = _LineFeedRows(fh)
    neutralise_frame(frame).to_csv(rows, index=False, lineterminator="\r\n")  # type: ignore[call-overload]
    rows.close()


def frame_text(frame: pd.DataFrame) -> str:
    """``frame`` as CSV for people: text neutralised, cells with a CR or an LF quoted."""
    buf = io.StringIO()
    _frame_to(frame, buf)
    return buf.getvalue()


def write_frame(frame: pd.DataFrame, path: str | Path) -> None:
    """Write :func:`frame_text` of ``frame`` to ``path`` (UTF-8), streaming (use
    :func:`forgebench.util.atomic.atomic_path` for the atomic replace)."""
    with Path(path).open("w", encoding="utf-8", newline="") as fh:
        _frame_to(frame, fh)
