"""The uptake judge stage: every L1 answer under ``full_wrong_caption`` judged for uptake and
dispute (:mod:`forgebench.suites.mandela.uptake`), stored as judgements of kind ``uptake``.

Runs after the E0-E4 stage of ``forgebench judge`` with the same judge (``builtin/rules`` answers
with :func:`~forgebench.suites.mandela.uptake.rules_uptake`). A judgement of ``(task, judge)`` is
never recomputed; a reply that stays invalid after the last attempt is stored ``unscored``; a
transport failure stores nothing (asked again next run). Runs without wrong-caption answers do
nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from forgebench.models.base import Model, ModelError, Request, Response
from forgebench.models.spec import ModelConfig
from forgebench.run.judge_stage import JudgeStage, run_stage
from forgebench.run.judging import JudgeSettings
from forgebench.run.send.runner import Call, CallOutcome
from forgebench.run.store import Judgement, Store
from forgebench.suites.mandela.parse_run import BENCHMARK, load_items
from forgebench.suites.mandela.uptake import (
    CONDITION,
    KIND,
    PROBE,
    UPTAKE_VERSION,
    UptakeReplyError,
    parse_uptake_reply,
    uptake_input,
    uptake_prompt,
)


def _validate(response: Response) -> None:
    try:
        parse_uptake_reply(response.text)
    except UptakeReplyError as exc:
        raise ModelError(f"invalid uptake reply: {exc}", retryable=True) from None


def _todo(store: Store, judge: str) -> list[tuple[str, dict[str, Any], str | None]]:
    items = load_items(store)
    done = store.judged_keys(judge, KIND)
    rows = store.records(BENCHMARK, probes=[PROBE], conditions=[CONDITION], answered=True)
    return [
        (r.key, items[r.item_id], r.text) for r in rows if r.key not in done and r.item_id in items
    ]


async def uptake_run_async(
    store: Store, judge_model: Model, config: ModelConfig, settings: JudgeSettings
) -> str | None:
    """Judge the run's wrong-caption answers; a summary line, or None when there are none."""
    name = judge_model.name
    todo = _todo(store, name)
    if not todo:
        return None
    params = config.generation_params()

    def calls() -> Iterator[Call]:
        for key, item, text in todo:
            ui = uptake_input(item, text, key)
            meta = {"task_key": key, "item_id": item.get("id"), "uptake_input": ui}
            yield Call(key, Request(prompt=uptake_prompt(ui), params=dict(params), meta=meta))

    def on_reply(out: CallOutcome, response: Response) -> Judgement:
        r = parse_uptake_reply(response.text)
        return Judgement(
            task_key=out.key, judge=name, kind=KIND, status="graded",
            version=UPTAKE_VERSION, judge_spec=config.spec,
            value=f"uptake={int(r.uptake)},dispute={int(r.dispute)}", reason=r.reason,
            detail={"uptake": r.uptake, "dispute": r.dispute}, raw=response.text,
            attempts=out.attempts,
        )  # fmt: skip

    def on_invalid(out: CallOutcome, response: Response) -> Judgement:
        return Judgement(
            task_key=out.key, judge=name, kind=KIND, status="unscored",
            version=UPTAKE_VERSION, judge_spec=config.spec, reason=out.error,
            raw=response.text, attempts=out.attempts,
        )  # fmt: skip

    stage = JudgeStage(f"uptake {name}", calls(), len(todo), on_reply, on_invalid, _validate)
    result = await run_stage(store, judge_model, config, settings, stage, progress=False)
    return (
        f"uptake {name}: {len(todo)} wrong-caption answers; {result.judged} judged, "
        f"{result.unscored} unscored, {result.errors_text()}"
    )
