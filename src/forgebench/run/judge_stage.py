"""One judge-like stage: ask a judge about stored answers and store what it says.

Mandela's E0-E4 grades, its uptake stage and the Forensics option extractor share this shape;
each says only what it asks (:class:`JudgeStage`: the calls, how a reply becomes a
:class:`~forgebench.run.store.Judgement`, which replies are invalid), and :func:`run_stage`
does the rest: send through :func:`forgebench.run.send.runner.execute` under
:meth:`JudgeSettings.exec_settings`, store each judgement as it arrives (so an interrupted
stage resumes where it stopped), count, and say in the summary why a stage that failed for
every call failed (:meth:`StageResult.errors_text`: the first reason, redacted).

:func:`judge_session` opens the run's store and the judge model for the stage and closes both.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from forgebench.models.base import Model, Response
from forgebench.models.registry import create_model
from forgebench.models.spec import ModelConfig
from forgebench.run.judging import JudgeSettings
from forgebench.run.send.progress import RunProgress
from forgebench.run.send.runner import Call, CallOutcome, execute
from forgebench.run.store import Judgement, Store
from forgebench.util.redact import redact_text


@dataclass(frozen=True)
class JudgeStage:
    """What one judge-like stage asks, and how its replies are stored."""

    label: str
    """Names the stage in its progress bar, e.g. ``judge builtin/rules``."""
    calls: Iterable[Call]
    """One call per task to judge, keyed by the task key (produced lazily)."""
    total: int
    """How many calls ``calls`` yields (for the progress bar)."""
    on_reply: Callable[[CallOutcome, Response], Judgement]
    """A valid reply as the judgement to store."""
    on_invalid: Callable[[CallOutcome, Response], Judgement] | None = None
    """A reply that ``validate`` still rejected after the last attempt, as the (unscored)
    judgement to store; None: such a call counts as an error and stores nothing."""
    validate: Callable[[Response], None] | None = None
    """Raises a retryable ``ModelError`` for a reply that cannot be read (asked again)."""
    replace: bool = False
    """Replace a stored judgement of the same task, judge and kind (re-asking unscored ones)."""


@dataclass
class StageResult:
    """What :func:`run_stage` did."""

    asked: int = 0
    """Calls the stage had to make."""
    judged: int = 0
    """Valid replies, stored."""
    unscored: int = 0
    """Replies still invalid after the last attempt, stored as unscored."""
    errors: int = 0
    """Calls that failed (nothing stored: asked again next time)."""
    first_error: str | None = None
    """The first failure's reason, redacted."""
    fatal: str | None = None
    """Why the runner stopped the judge early, if it did."""

    def errors_text(self) -> str:
        """``N errors``, with the first reason when no call succeeded."""
        text = f"{self.errors} errors"
        if self.errors and not self.judged and not self.unscored and self.first_error:
            text += f" (first: {self.first_error})"
        return text


@asynccontextmanager
async def judge_session(
    run_dir: Path, config: ModelConfig, model: Model | None = None
) -> AsyncIterator[tuple[Store, Model]]:
    """The run's store (which must exist) and the judge model of ``config`` (``model`` when
    given: it is not closed here), both closed on exit."""
    store = Store.open(run_dir, create=False)
    try:
        judge_model = model or create_model(config)
        try:
            yield store, judge_model
        finally:
            if model is None:
                await judge_model.aclose()
    finally:
        store.close()


async def run_stage(
    store: Store,
    model: Model,
    config: ModelConfig,
    settings: JudgeSettings,
    stage: JudgeStage,
    *,
    progress: bool = True,
) -> StageResult:
    """Send ``stage``'s calls to ``model`` and store each judgement as it arrives (see the
    module docstring); a progress bar on ``settings.console`` when ``progress``."""
    result = StageResult(asked=stage.total)

    def on_outcome(out: CallOutcome) -> None:
        row: Judgement | None = None
        if out.response is not None:
            row = stage.on_reply(out, out.response)
            result.judged += 1
        elif out.invalid is not None and stage.on_invalid is not None:
            row = stage.on_invalid(out, out.invalid)
            result.unscored += 1
        else:
            result.errors += 1
            if result.first_error is None:
                result.first_error = redact_text(out.error or "unknown error")
        if row is not None:
            store.put_judgement(row, replace=stage.replace)

    console = settings.console
    shown = progress and console is not None
    with RunProgress(console or Console(stderr=True), enabled=None if shown else False) as rp:
        ex = await execute(
            model,
            stage.calls,
            settings.exec_settings(config),
            on_outcome=on_outcome,
            validate=stage.validate,
            progress=rp.add(stage.label, stage.total) if progress else None,
        )
    result.fatal = ex.fatal
    return result
