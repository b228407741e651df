"""The settings of a judge stage, shared by every suite's judge (Mandela's E0-E4 grades and
uptake, the Forensics option extractor): what ``forgebench judge`` and
:func:`forgebench.api.judge` hand to :meth:`forgebench.suites.facets.Judge.judge`.

Each field left at None takes the judge config's value; :meth:`JudgeSettings.exec_settings`
turns both into the runner's sending policy, with the rules every judge stage shares (at most 3
attempts by default; an invalid reply counts as a failed call, so the "stop after N failures in a
row" limit is raised to ``max(10, 2 x concurrency)``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from forgebench.models.spec import number_problem
from forgebench.run.send.retry import RetryPolicy
from forgebench.run.send.runner import ExecSettings

if TYPE_CHECKING:
    from rich.console import Console

    from forgebench.models.spec import ModelConfig

DEFAULT_MAX_ATTEMPTS = 3
"""Attempts per judge call when neither the settings nor a lower config value say otherwise."""


@dataclass(frozen=True)
class JudgeSettings:
    """How a judge stage asks its judge (None: the judge config's value)."""

    concurrency: int | None = None
    """Judge calls in flight at once."""
    rpm: float | None = None
    """Requests per minute to the judge."""
    max_attempts: int | None = None
    """Attempts per call (default: the config's, at most 3)."""
    timeout_s: float | None = None
    """Limit of one attempt, in seconds."""
    max_reply_bytes: int | None = None
    """The most bytes of one judge reply read (None: the judge config's, 64 MiB by default)."""
    retry_unscored: bool = False
    """Ask again for answers stored as unscored (replies that stayed invalid)."""
    retry: RetryPolicy | None = None
    """Backoff between attempts (default :class:`RetryPolicy`)."""
    console: Console | None = None
    """Where a progress bar is drawn (None: no bar)."""
    options: Mapping[str, str] = field(default_factory=dict)
    """Values of the suites' own options given to ``judge`` (``suites.base.SuiteOption``)."""

    def __post_init__(self) -> None:
        for name in ("concurrency", "rpm", "max_attempts", "timeout_s", "max_reply_bytes"):
            why = number_problem(name, getattr(self, name))
            if why is not None:
                raise ValueError(f"judge {name} {why}")

    def exec_settings(self, config: ModelConfig) -> ExecSettings:
        """The runner's sending policy for the judge ``config`` under these settings."""
        workers = self.concurrency or config.concurrency
        return ExecSettings(
            concurrency=workers,
            rpm=self.rpm if self.rpm is not None else config.rpm,
            max_attempts=self.max_attempts or min(config.max_attempts, DEFAULT_MAX_ATTEMPTS),
            timeout_s=self.timeout_s or config.timeout_s,
            retry=self.retry or RetryPolicy(),
            give_up_after=max(10, 2 * workers),
        )
