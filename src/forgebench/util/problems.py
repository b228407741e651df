"""One problem a validator or importer found in a file, rendered ``FILE:LINE: FIELD: message``.

Every suite's validator reports :class:`Problem` values, so the CLI prints them one way
(warnings as ``FILE:LINE: FIELD: warning: message``) whatever the benchmark.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Problem:
    """One problem: where it is (file, line, field) and what is wrong."""

    file: str
    """The file, as the user named it (or relative to the dataset folder)."""
    line: int | None
    """1-based line number; None for a problem of the whole file."""
    field: str
    """The field (dotted path), or ``(row)`` for the line as a whole."""
    message: str
    """What is wrong, in one line."""
    severity: Literal["error", "warning"] = "error"
    """Errors make validation fail; warnings are printed and change no exit code."""

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        tag = "warning: " if self.severity == "warning" else ""
        return f"{where}: {self.field}: {tag}{self.message}"
