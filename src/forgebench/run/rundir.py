"""A run directory: the one type that checks, creates (marks), locks and names the store of one.

``RUN/`` holds the store (:data:`DB_NAME`, ``run.sqlite``: the one place that name is written),
``config.json``, ``metrics.csv``, ``report/`` and the lock file (DESIGN.md, "Run directory").
:class:`RunDir` is what every stage asks about it:

- **checks**: :meth:`RunDir.is_run` (whether it holds a store) and :meth:`RunDir.check`, which
  refuses a folder that holds none with one line (``RUN: not a run directory (no run.sqlite)``,
  :class:`NotARun`, exit 2);
- **creates**: :meth:`RunDir.claim` creates a missing folder with forgebench's run marker
  (:mod:`forgebench.util.owned`, hostile round 3); an existing folder gets the marker only when it
  holds nothing but what a run writes, never a folder of the user's other files. It is the one
  place a run directory is marked (:meth:`forgebench.run.store.Store.open` calls it);
- **locks**: :meth:`RunDir.lock` holds the exclusive lock of the paid stages
  (:func:`forgebench.run.lock.run_lock`: ``RunLocked``, exit 4, or ``--wait``);
- **opens**: ``Store.open(run_dir)`` opens :attr:`RunDir.db` (it takes a :class:`RunDir` or a
  path), with ``create=False`` refusing with :meth:`RunDir.not_a_run`'s line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from forgebench.errors import UserError
from forgebench.run.lock import run_lock
from forgebench.util.owned import claim

DB_NAME = "run.sqlite"
"""The store's file name inside a run directory (and a construction work folder)."""


class NotARun(UserError):
    """A path that is not a run directory (it holds no store): one line, exit 2."""


class RunDir:
    """One run directory (the folder need not exist yet); a value (equal when the paths are)."""

    __slots__ = ("path",)

    def __init__(self, path: str | Path | RunDir) -> None:
        self.path: Path = path.path if isinstance(path, RunDir) else Path(path)
        """The folder, as given."""

    def __fspath__(self) -> str:
        return str(self.path)

    def __str__(self) -> str:
        return str(self.path)

    def __repr__(self) -> str:
        return f"RunDir({str(self.path)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RunDir) and other.path == self.path

    def __hash__(self) -> int:
        return hash(self.path)

    @property
    def db(self) -> Path:
        """The store's file, ``RUN/run.sqlite``."""
        return self.path / DB_NAME

    def is_run(self) -> bool:
        """Whether the folder holds a store (the file need not be a valid one)."""
        return self.db.is_file()

    def not_a_run(self) -> str:
        """The one line that refuses this folder as a run directory."""
        return f"{self.path}: not a run directory (no {DB_NAME})"

    @classmethod
    def check(cls, path: str | Path | RunDir) -> RunDir:
        """``path`` as a run directory; :class:`NotARun` (one line) when it holds no store."""
        run_dir = cls(path)
        if not run_dir.is_run():
            raise NotARun(run_dir.not_a_run())
        return run_dir

    def claim(self) -> bool:
        """Create the folder if it is missing, with the run marker; an existing folder gets the
        marker only when it holds nothing but what a run writes (``.lock``, ``run.sqlite``,
        ``config.json``, ``metrics.csv``, ``report/`` ...). Whether it carries the run marker."""
        return claim(self.path, "run")

    @contextmanager
    def lock(
        self, stage: str, *, wait: bool = False, on_wait: Callable[[str], None] | None = None
    ) -> Iterator[None]:
        """Hold the run directory's exclusive lock for a paid ``stage`` (``run``, ``judge`` ...)
        for the ``with`` block (:func:`forgebench.run.lock.run_lock`)."""
        with run_lock(self.path, stage, wait=wait, on_wait=on_wait):
            yield
