"""The LLM option extractor as the judge stage: ``forgebench judge RUN --judge SPEC``.

Only answers that the rules of :mod:`.extract` cannot decide (step ``none``) are sent: the judge
reads the question, the options and the answer (:func:`.extract.extractor_prompt`) and replies
with a letter or ``Z`` (:func:`.extract.parse_extractor_reply`). Its letters are stored as
judgements of kind ``letter`` under the judge's name (resumable: a task the judge has already
judged is not asked again), and ``forgebench metrics RUN --judge NAME`` uses them; metrics.csv's
``judge`` column then names it. Transport errors are retried by the runner and reported, never
stored as a letter.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from forgebench.models.base import Model, Request, Response
from forgebench.models.spec import ModelConfig
from forgebench.run.judge_stage import JudgeStage, judge_session, run_stage
from forgebench.run.judging import JudgeSettings
from forgebench.run.runner import Call, CallOutcome
from forgebench.run.store import Judgement, Store
from forgebench.suites.forensics.extract import (
    EXTRACTOR_VERSION,
    extract_option,
    extractor_prompt,
    parse_extractor_reply,
)
from forgebench.suites.forensics.extract_chain import undecided
from forgebench.suites.forensics.run_score import LETTER_KIND
from forgebench.suites.forensics.scores import BENCHMARK


@dataclass
class ExtractorStats:
    """What one extractor pass did."""

    judge: str
    undecided: int = 0
    """Answers the rules left undecided."""
    existing: int = 0
    judged: int = 0
    letters: int = 0
    """Of ``judged``, replies naming an option (the rest are Z)."""
    errors: int = 0
    errors_text: str = ""
    """``errors`` as the summary says it (with the first reason when every call failed)."""
    fatal: str | None = None
    """Why the extractor stopped early (the runner gave up on it), if it did."""
    elapsed_s: float = 0.0

    def summary(self) -> str:
        return (
            f"extractor {self.judge}: {self.undecided} undecided answers, {self.existing} already "
            f"judged, {self.judged} judged now ({self.letters} to a letter, "
            f"{self.judged - self.letters} to Z), {self.errors_text or f'{self.errors} errors'}, "
            f"{self.elapsed_s:.1f} s"
        )


def _todo(store: Store, judge: str) -> tuple[list[tuple[str, str, dict[str, str], str]], int]:
    done = store.judged_keys(judge, LETTER_KIND)
    todo, existing = [], 0
    for rec in store.records(BENCHMARK, answered=True):
        extra = rec.extra
        options = {str(k): str(v) for k, v in (extra.get("options") or {}).items()}
        text = rec.text or ""
        if not undecided(extract_option(text, options, str(extra.get("question", "")))):
            continue
        if rec.key in done:
            existing += 1
            continue
        todo.append((rec.key, str(extra.get("question", "")), options, text))
    return todo, existing


async def extract_run_async(
    run_dir: Path,
    config: ModelConfig,
    settings: JudgeSettings | None = None,
    *,
    model: Model | None = None,
) -> ExtractorStats:
    """Ask the extractor about every undecided answer of the run (see the module docstring).
    ``settings`` override the judge config's concurrency, rate, attempts and timeout; their
    ``console`` draws a progress bar. ``model`` replaces the one the config would create."""
    started = time.monotonic()
    settings = settings or JudgeSettings()
    async with judge_session(run_dir, config, model) as (store, judge_model):
        name = judge_model.name
        todo, existing = _todo(store, name)
        stats = ExtractorStats(judge=name, undecided=len(todo) + existing, existing=existing)
        options_of = {key: opts for key, _q, opts, _t in todo}
        params = config.generation_params()

        def calls() -> Iterator[Call]:
            for key, question, options, text in todo:
                prompt = extractor_prompt(question, options, text)
                yield Call(key, Request(prompt=prompt, params=dict(params), meta={"task_key": key}))

        def on_reply(out: CallOutcome, response: Response) -> Judgement:
            letter = parse_extractor_reply(response.text, options_of[out.key])
            stats.letters += letter != "Z"
            return Judgement(
                task_key=out.key, judge=name, kind=LETTER_KIND, status="graded",
                version=EXTRACTOR_VERSION, judge_spec=config.spec, value=letter,
                raw=response.text, attempts=out.attempts,
            )  # fmt: skip

        stage = JudgeStage(f"extract {name}", calls(), len(todo), on_reply)
        result = await run_stage(store, judge_model, config, settings, stage)
    stats.judged, stats.errors, stats.fatal = result.judged, result.errors, result.fatal
    stats.errors_text = result.errors_text()
    stats.elapsed_s = time.monotonic() - started
    return stats


def extract_run(
    run_dir: Path, config: ModelConfig, settings: JudgeSettings | None = None
) -> ExtractorStats:
    """Synchronous :func:`extract_run_async`."""
    return asyncio.run(extract_run_async(Path(run_dir), config, settings))
