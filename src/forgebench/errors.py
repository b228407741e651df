"""The one base class of the errors a user can cause.

Every error a user can cause (a bad file, a bad flag, an unreachable server, a run directory in
the wrong state) derives from :class:`UserError`: its message is one clear line naming the thing,
and the command line prints ``error: <message>`` and exits with :attr:`UserError.exit_code`,
catching this class once. Anything else that escapes is a bug and keeps its traceback.
"""

from __future__ import annotations

__all__ = ["NothingToDo", "UserError"]


class UserError(Exception):
    """An error the user can fix; ``str(error)`` is one line, the exit code is ``exit_code``."""

    exit_code: int = 2
    """The process exit status the CLI uses (2: bad input; 4: the run is busy; 1: a stage
    failed)."""

    def details(self) -> list[str]:
        """Lines the CLI prints before the ``error:`` line (every problem of a file, one a
        line); none by default."""
        return []


class NothingToDo(UserError):
    """A stage asked of a run or dataset where no benchmark has it (``calibrate`` on a
    Forensics-only run): one line naming what is missing, exit 2."""
