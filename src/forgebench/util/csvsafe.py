"""CSV formula neutralising for files meant for people.

A spreadsheet opening a CSV runs any cell that starts with ``=``, ``+``, ``-`` or ``@`` (and, in
some, a tab or carriage return) as a formula; a model's answer or an imported field can start
that way. The common convention (OWASP "CSV Injection") is to prefix such a text cell with a single
quote, which spreadsheets show as text. :func:`neutralise` does that to text only: a cell that
reads as a number (``+4.8``, ``-0.25``, ``-1e-3``: the signed values of the report tables) is left
alone, so numbers stay numbers.

Only CSVs meant for people pass here (``export --format csv``, ``calibration_sample.csv``, the
report's table CSVs). ``metrics.csv`` and ``paired_tests.csv`` are machine-readable and stay raw,
as do Parquet and the store.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""First characters a spreadsheet reads as the start of a formula."""


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def neutralise(value: Any) -> Any:
    """``value`` with a ``'`` in front when it is text a spreadsheet would run; anything else as
    it is."""
    if isinstance(value, str) and value.startswith(FORMULA_START) and not _is_number(value):
        return "'" + value
    return value


def neutralise_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` with every text cell neutralised (numeric columns untouched)."""
    out = frame.copy()
    for col in out.columns:
        if out[col].dtype == object or str(out[col].dtype) in ("string", "str"):
            out[col] = out[col].map(neutralise)
    return out
