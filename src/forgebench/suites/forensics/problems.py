"""Problems found in a Forensics file, rendered ``FILE:LINE: FIELD: message``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Problem:
    """One problem: where it is (file, line, field) and what is wrong."""

    file: str
    line: int | None
    field: str
    message: str
    severity: Literal["error", "warning"] = "error"

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        tag = "warning: " if self.severity == "warning" else ""
        return f"{where}: {self.field}: {tag}{self.message}"


class ForensicsDataError(Exception):
    """A file that cannot be used as it is; :attr:`problems` lists every problem found."""

    def __init__(self, message: str, problems: list[Problem] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or []
