"""The bounds every reader of a file from outside (a prediction spreadsheet, a dataset folder, a
batch result) holds to before it allocates: one set of constants, in one place.

They are generous for real use (a VLMEvalKit prediction file of a real benchmark has tens of
thousands of rows and cells of at most a few MB; a dataset item's JSON nests a few levels) and
small enough that a hostile file ends as one ``error:`` line naming the file and the limit
instead of taking the machine's memory or a Python traceback.
"""

from __future__ import annotations

MAX_TABLE_ROWS = 500_000
"""Rows of a spreadsheet or delimited table (xlsx sheet, CSV, TSV), the header excluded."""

MAX_CELL_CHARS = 16 * 2**20
"""Characters of one cell (xlsx) or of one row's text (CSV, TSV line, quoted newlines included)."""

MAX_TABLE_BYTES = 256 * 2**20
"""Bytes of a table file: an ``.xlsx`` file itself, the declared uncompressed size of each XML
member read from it (checked from the zip directory before any is decompressed) and the text a
reader keeps from a CSV or TSV."""

MAX_SHARED_STRINGS = 2_000_000
"""Entries of an ``.xlsx`` file's shared-string table."""

MAX_JSON_DEPTH = 100
"""Nesting of a JSON value read from outside (arrays and objects; Python's own parser fails
with a RecursionError near 1,000, and code walking the value later would too)."""


def mib(n: int) -> str:
    """``n`` bytes as a limit reads in a message (``256 MiB``)."""
    return f"{n / 2**20:g} MiB"
