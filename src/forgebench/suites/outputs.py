"""What a suite's core and facets hand back to :mod:`forgebench.api` (``suites/base.py``): plain
records the command line prints and a notebook reads, so no suite prints anything itself."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "ImportSettings",
    "JudgeOutcome",
    "MatrixRow",
    "Outcome",
    "Output",
    "Section",
    "TaskMatrix",
    "Validation",
]


@dataclass
class Output:
    """What a stage made: files, and what the console shows."""

    files: list[Path] = field(default_factory=list)
    """Files written."""
    lines: list[Any] = field(default_factory=list)
    """Results for standard output: strings (printed as they are) or rich renderables."""
    notes: list[str] = field(default_factory=list)
    """Lines for standard error (a table skipped and why, warnings)."""


@dataclass
class Validation:
    """A dataset's check (``forgebench validate``)."""

    errors: list[str] = field(default_factory=list)
    """Every error as ``FILE:LINE: FIELD: message``; any error exits 2."""
    warnings: list[str] = field(default_factory=list)
    """Warnings, same form; they never change the exit code."""
    summary: list[Any] = field(default_factory=list)
    """What a valid dataset holds (strings or rich renderables)."""
    items: int = 0
    """Items that passed the check."""

    @property
    def ok(self) -> bool:
        """No error."""
        return not self.errors


@dataclass(frozen=True)
class ImportSettings:
    """How ``forgebench import`` writes a dataset folder (a suite ignores what it has no use
    for)."""

    images_root: Path | None = None
    """Folder that relative image paths start from (default: the table's folder)."""
    normalize: bool = False
    """Re-encode images as the benchmark's paper does before evaluation."""
    force: bool = False
    """Replace an existing non-empty output folder."""
    kb: Path | None = None
    """A knowledge-base file to copy into the dataset."""


@dataclass(frozen=True)
class MatrixRow:
    """One probe x condition of the task matrix (``forgebench tasks``)."""

    probe: str
    condition: str
    questions: int
    """Questions (tasks per model)."""
    population: str = ""
    """Which items it runs on, in the suite's words ('' when the suite says nothing)."""
    source: str = ""
    """Where the paper runs it (table or section; '' when the suite says nothing)."""


@dataclass
class TaskMatrix:
    """The dry-run task matrix of a dataset: nothing is written."""

    rows: list[MatrixRow]
    items: int
    """Items loaded (after ``--sample``)."""
    questions: int
    """Questions in all."""
    variants: int
    """Distinct image variants the questions show."""


@dataclass
class Section:
    """A suite's part of the report page."""

    title: str
    """Heading."""
    html: str
    """Body (already escaped HTML)."""
    files: list[Path] = field(default_factory=list)
    """Files written for it under ``report/`` (tables, figures)."""
    notes: list[str] = field(default_factory=list)
    """Lines for the console (skipped tables and why)."""


@dataclass
class JudgeOutcome:
    """What a suite's judge stage did."""

    judge: str
    """The judge's name (as stored with its judgements and in metrics.csv's ``judge``)."""
    summary: str
    """One line for the console."""
    fatal: str | None = None
    """Why the judge stopped, when it did (the command exits non-zero)."""
    skipped: bool = False
    """The suite was left out: ``summary`` says why (a judge that grades another benchmark)."""


@dataclass(frozen=True)
class Outcome:
    """Whether one answer was right (``Suite.outcome``): one row per current task with a single
    right answer, keyed as the store keys it, for paired comparisons of two runs."""

    task_key: str
    model: str
    item_id: str
    probe: str
    condition: str
    right: bool
