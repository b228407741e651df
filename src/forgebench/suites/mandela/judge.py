"""The judge stage: grade forged items' REAL/FAKE answers on the E0-E4 ladder (seed 000, §4.3, App. F).

``forgebench judge RUN --judge SPEC`` (and ``forgebench run --judge``) call :func:`judge_run`:

1. verdicts are parsed first (``parse_run.py``);
2. every stored answer of a REAL/FAKE probe (L0, L1, L-adv, any condition) on a *forged* item is
   gradable; authentic items are never graded;
3. a verdict that is not FAKE (REAL or a miss) is E0 with status ``auto``, without a judge call
   (Appendix F: "Answers without a parsed verdict are counted as misses and assigned E0");
4. FAKE answers go to the judge through the runner (``run.runner.execute``: the judge model's
   concurrency, rate limit, retries). The request carries the rubric prompt (``rubric.py``)
   and, in ``Request.meta["judge_input"]``, the structured input (offline judges such as
   ``builtin/rules`` read it). A reply that is not a valid grade is retried; after the last attempt
   it is stored with status ``unscored`` and level NULL (never silently E0). A transport failure
   stores nothing, so the next run asks again.

Then the uptake stage (``uptake_stage.py``) asks the same judge about every L1 answer under
``full_wrong_caption`` (Table 11's uptake and dispute, our prompt).

Resume: a grade row of ``(task_key, judge)`` is never recomputed (``retry_unscored`` re-asks the
unscored ones). Unscored replies count as failed calls for the runner's "stop after N failures in
a row" rule; the judge stage raises that limit to ``max(10, 2 x concurrency)``. Each row records the judge name, the spec and :data:`RUBRIC_VERSION`; grades of a
second judge live beside the first.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forgebench import suites
from forgebench.models.base import Model, ModelError, Request, Response
from forgebench.models.spec import ModelConfig
from forgebench.run.judge_stage import JudgeStage, judge_session, run_stage
from forgebench.run.judging import JudgeSettings
from forgebench.run.send.runner import Call, CallOutcome
from forgebench.run.store import Judgement, Store, TaskRecord
from forgebench.suites.mandela.parse_run import BENCHMARK, GRADE_KIND, load_items, parse_run
from forgebench.suites.mandela.rubric import (
    RUBRIC_VERSION,
    JudgeReplyError,
    judge_prompt,
    parse_judge_reply,
)
from forgebench.suites.mandela.uptake_stage import uptake_run_async
from forgebench.suites.mandela.verdict import REAL_FAKE_PROBES, final_answer


@dataclass
class JudgeStats:
    """What :func:`judge_run` did."""

    judge: str
    """The judge's name (as stored in ``grades.judge``)."""
    spec: str
    """The judge spec."""
    eligible: int = 0
    """Forged items' REAL/FAKE answers in the run."""
    existing: int = 0
    """Of those, already graded by this judge (left alone)."""
    auto: int = 0
    """New E0 rows without a call (verdict REAL or a miss)."""
    graded: int = 0
    """New grades from the judge."""
    unscored: int = 0
    """New rows whose judge replies stayed invalid after every attempt."""
    errors: int = 0
    """Calls that failed in transport (nothing stored; asked again next run)."""
    errors_text: str = ""
    """``errors`` as the summary says it (with the first reason when every call failed)."""
    fatal: str | None = None
    """Why the judge was stopped early, if it was."""
    uptake: str | None = None
    """The uptake stage's summary (wrong-caption answers, Table 11), None when it had none."""
    elapsed_s: float = 0.0

    def summary(self) -> str:
        """One line for the console."""
        line = (
            f"judge {self.judge}: {self.eligible} forged answers; {self.graded} graded, "
            f"{self.auto} E0 without a call, {self.unscored} unscored, {self.existing} already "
            f"graded, {self.errors_text or f'{self.errors} errors'} ({self.elapsed_s:.1f}s)"
        )
        line += f"; stopped: {self.fatal}" if self.fatal else ""
        return line + (f"\n{self.uptake}" if self.uptake else "")


def ground_truth(item: Mapping[str, Any]) -> dict[str, Any]:
    """The item's annotation as the judge sees it (entity, role, region, contradiction, event)."""
    keys = (
        "label",
        "family",
        "control_for",
        "k1_type",
        "variant",
        "domain",
        "noun",
        "entity",
        "erased",
        "edit",
        "contradiction",
        "event",
        "principal_figures",
    )
    return {k: item.get(k) for k in keys}


def build_judge_input(
    item: Mapping[str, Any],
    *,
    probe: str,
    condition: str,
    prompt: str,
    verdict: str,
    answer: str | None,
    task_key: str | None = None,
) -> dict[str, Any]:
    """The structured judge input of one answer (JSON-able)."""
    return {
        "task_key": task_key,
        "item_id": item.get("id"),
        "probe": probe,
        "condition": condition,
        "protocol": f"probe {probe}, condition {condition}. Prompt: {prompt}",
        "verdict": verdict,
        "answer": final_answer(answer),
        "ground_truth": ground_truth(item),
    }


def _validate(response: Response) -> None:
    """The runner's validate hook: an unparseable grade is a retryable error (asked again); the
    last one is stored as unscored with its text (``CallOutcome.invalid``)."""
    try:
        parse_judge_reply(response.text)
    except JudgeReplyError as exc:
        raise ModelError(f"invalid judge reply: {exc}", retryable=True) from None


KIND = GRADE_KIND
"""The judgement kind of an E0-E4 grade (``judgements.kind``; ``grades`` is its view)."""


def grade(
    key: str,
    judge: str,
    level: int | None,
    status: str,
    reason: str | None,
    spec: str,
    *,
    identity: str | None = None,
    contradiction: str | None = None,
    raw: str | None = None,
    attempts: int = 1,
) -> Judgement:
    """An E0-E4 grade as the store's generic judgement (kind ``evidence``)."""
    return Judgement(
        task_key=key, judge=judge, kind=KIND, status=status, version=RUBRIC_VERSION,
        judge_spec=spec, value=None if level is None else f"E{level}", level=level,
        reason=reason, raw=raw, attempts=attempts,
        detail={"identity_asserted": identity, "contradiction_asserted": contradiction},
    )  # fmt: skip


def _gradable(
    store: Store, judge: str, retry_unscored: bool
) -> tuple[list[tuple[str, dict[str, Any], TaskRecord]], int]:
    items = load_items(store)
    done = store.judged_keys(judge, KIND)
    todo, existing = [], 0
    probes = sorted(REAL_FAKE_PROBES)
    for r in store.records(BENCHMARK, probes=probes, answered=True, prompts=True):
        item = items.get(r.item_id)
        if r.verdict is None or item is None or item.get("label") != "forged":
            continue
        status = done.get(r.key)
        if status is not None and not (retry_unscored and status == "unscored"):
            existing += 1
            continue
        todo.append((r.key, item, r))
    return todo, existing


async def judge_run_async(
    run_dir: Path,
    judge_spec: str,
    settings: JudgeSettings | None = None,
    *,
    config: ModelConfig | None = None,
    model: Model | None = None,
) -> JudgeStats:
    """Async form of :func:`judge_run` (for callers already inside an event loop); ``model``
    replaces the one the config would create (it is not closed)."""
    suites.load()  # builtin/rules is registered by the Mandela suite
    settings = settings or JudgeSettings()
    retry_unscored = settings.retry_unscored
    cfg = config or ModelConfig(spec=judge_spec, max_tokens=None)
    started = time.monotonic()
    async with judge_session(run_dir, cfg, model) as (store, judge_model):
        parse_run(store)
        name = judge_model.name
        stats = JudgeStats(judge=name, spec=judge_spec)
        todo, stats.existing = _gradable(store, name, retry_unscored)
        stats.eligible = len(todo) + stats.existing
        autos = [
            grade(key, name, 0, "auto", f"verdict {r.verdict}: E0 without a judge call",
                  judge_spec, attempts=0)
            for key, _item, r in todo if r.verdict != "FAKE"
        ]  # fmt: skip
        store.put_judgements(autos, replace=retry_unscored)
        stats.auto = len(autos)
        to_call = [row for row in todo if row[2].verdict == "FAKE"]
        params = cfg.generation_params()

        def calls() -> Iterator[Call]:
            for key, item, r in to_call:
                ji = build_judge_input(
                    item, probe=r.probe, condition=r.condition, prompt=r.prompt,
                    verdict=r.verdict or "", answer=r.text, task_key=key,
                )  # fmt: skip
                meta = {"task_key": key, "item_id": item.get("id"), "judge_input": ji}
                yield Call(key, Request(prompt=judge_prompt(ji), params=dict(params), meta=meta))

        def on_reply(out: CallOutcome, response: Response) -> Judgement:
            reply = parse_judge_reply(response.text)
            return grade(out.key, name, reply.level, "graded", reply.reason, judge_spec,
                         identity=reply.identity_asserted,
                         contradiction=reply.contradiction_asserted,
                         raw=response.text, attempts=out.attempts)  # fmt: skip

        def on_invalid(out: CallOutcome, response: Response) -> Judgement:
            return grade(out.key, name, None, "unscored", out.error, judge_spec,
                         raw=response.text, attempts=out.attempts)  # fmt: skip

        stage = JudgeStage(
            f"judge {name}", calls(), len(to_call), on_reply, on_invalid, _validate,
            replace=retry_unscored,
        )  # fmt: skip
        result = await run_stage(store, judge_model, cfg, settings, stage)
        stats.graded, stats.unscored, stats.errors = result.judged, result.unscored, result.errors
        stats.errors_text, stats.fatal = result.errors_text(), result.fatal
        if not result.fatal:
            stats.uptake = await uptake_run_async(store, judge_model, cfg, settings)
    stats.elapsed_s = time.monotonic() - started
    return stats


def judge_run(
    run_dir: Path,
    judge_spec: str,
    settings: JudgeSettings | None = None,
    *,
    config: ModelConfig | None = None,
) -> JudgeStats:
    """Grade a run's forged REAL/FAKE answers with the judge ``judge_spec`` (see the module
    docstring): ``config`` is the judge's :class:`ModelConfig` (default: the spec's),
    ``settings`` how it is asked (concurrency, rate, attempts, ``retry_unscored``, a progress
    console)."""
    return asyncio.run(judge_run_async(Path(run_dir), judge_spec, settings, config=config))
