"""Progress of a run: one rich bar per model (done/total, rate, ETA, retries, errors).

The bars are drawn only on a terminal; elsewhere (logs, CI, pipes) the counters are kept and the
caller prints a summary line per model instead of animation frames.
"""

from __future__ import annotations

from collections.abc import Callable
from types import TracebackType

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TaskID,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text


class _RateColumn(ProgressColumn):
    def render(self, task: object) -> Text:
        speed = getattr(task, "speed", None)
        return Text("  -  /s" if speed is None else f"{speed:5.1f}/s")


class ModelProgress:
    """One model's counters (and bar, when drawn). Passed to ``runner.execute``."""

    def __init__(self, name: str, total: int, bar: tuple[Progress, TaskID] | None) -> None:
        self.name = name
        self.total = total
        self.done = 0
        """Answers stored."""
        self.errors = 0
        """Tasks that ended as errors."""
        self.retries = 0
        """Attempts that were retried."""
        self.detail: Callable[[], str] | None = None
        """Extra live text (per-replica counts of a replicated model)."""
        self._bar = bar

    def advance(self, *, error: bool = False) -> None:
        """One task finished (an answer, or an error after its last attempt)."""
        if error:
            self.errors += 1
        else:
            self.done += 1
        self._refresh(advance=1)

    def retried(self) -> None:
        """One attempt failed and will be retried."""
        self.retries += 1
        self._refresh(advance=0)

    def summary(self) -> str:
        """``name: 120/200 answered, 3 errors, 17 retries``."""
        line = (
            f"{self.name}: {self.done}/{self.total} answered, {self.errors} errors, "
            f"{self.retries} retries"
        )
        return f"{line}; replicas: {self.detail()}" if self.detail is not None else line

    def _refresh(self, advance: int) -> None:
        if self._bar is not None:
            progress, task_id = self._bar
            detail = f"  {self.detail()}" if self.detail is not None else ""
            progress.update(
                task_id,
                advance=advance,
                retries=self.retries,
                errors=self.errors,
                replicas=detail,
            )


class RunProgress:
    """Context manager holding one :class:`ModelProgress` per model."""

    def __init__(self, console: Console, *, enabled: bool | None = None) -> None:
        self.enabled = console.is_terminal if enabled is None else enabled
        self.models: list[ModelProgress] = []
        self._progress = (
            Progress(
                TextColumn("{task.description}", markup=False),  # a model's name, as written
                BarColumn(),
                MofNCompleteColumn(),
                _RateColumn(),
                TimeRemainingColumn(),
                TextColumn(
                    "retries {task.fields[retries]}  errors {task.fields[errors]}"
                    "{task.fields[replicas]}"
                ),
                console=console,
                transient=False,
            )
            if self.enabled
            else None
        )

    def add(self, name: str, total: int) -> ModelProgress:
        """A bar for ``name`` with ``total`` tasks to send."""
        bar = None
        if self._progress is not None:
            bar = (
                self._progress,
                self._progress.add_task(name, total=total, retries=0, errors=0, replicas=""),
            )
        mp = ModelProgress(name, total, bar)
        self.models.append(mp)
        return mp

    def __enter__(self) -> RunProgress:
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._progress is not None:
            self._progress.stop()
