"""The error of a Forensics file that cannot be used, carrying every problem found in it."""

from __future__ import annotations

from forgebench.errors import UserError
from forgebench.util.problems import Problem


class ForensicsDataError(UserError):
    """A file that cannot be used as it is; :attr:`problems` lists every problem found."""

    def __init__(self, message: str, problems: list[Problem] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or []

    def details(self) -> list[str]:
        return [str(p) for p in self.problems]
