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
from forgebench.run.judging import JudgeSettings
from forgebench.run.store import Judgement, Store
from forgebench.suites.mandela.parse_run import load_items
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
    con = store.connection
    items = load_items(con)
    done = set(store.judgements(judge, KIND))
    rows = con.execute(
        "SELECT t.key, t.item_id, a.text FROM tasks t JOIN answers a ON a.task_key = t.key "
        "WHERE t.probe = ? AND t.condition = ? AND t.superseded_by IS NULL "
        "AND t.benchmark = 'mandela' ORDER BY t.rowid",
        (PROBE, CONDITION),
    )
    return [(k, items[i], text) for k, i, text in rows if k not in done and i in items]


async def uptake_run_async(
    store: Store, judge_model: Model, config: ModelConfig, settings: JudgeSettings
) -> str | None:
    """Judge the run's wrong-caption answers; a summary line, or None when there are none."""
    from forgebench.run.runner import Call, CallOutcome, execute

    name = judge_model.name
    todo = _todo(store, name)
    if not todo:
        return None
    counts = {"graded": 0, "unscored": 0, "errors": 0}
    params = config.generation_params()

    def calls() -> Iterator[Call]:
        for key, item, text in todo:
            ui = uptake_input(item, text, key)
            meta = {"task_key": key, "item_id": item.get("id"), "uptake_input": ui}
            yield Call(key, Request(prompt=uptake_prompt(ui), params=dict(params), meta=meta))

    def on_outcome(out: CallOutcome) -> None:
        if out.response is not None:
            r = parse_uptake_reply(out.response.text)
            row = Judgement(
                task_key=out.key, judge=name, kind=KIND, status="graded",
                version=UPTAKE_VERSION, judge_spec=config.spec,
                value=f"uptake={int(r.uptake)},dispute={int(r.dispute)}", reason=r.reason,
                detail={"uptake": r.uptake, "dispute": r.dispute}, raw=out.response.text,
                attempts=out.attempts,
            )  # fmt: skip
            counts["graded"] += 1
        elif out.invalid is not None:
            row = Judgement(
                task_key=out.key, judge=name, kind=KIND, status="unscored",
                version=UPTAKE_VERSION, judge_spec=config.spec, reason=out.error,
                raw=out.invalid.text, attempts=out.attempts,
            )  # fmt: skip
            counts["unscored"] += 1
        else:
            counts["errors"] += 1
            return
        store.put_judgement(row)

    await execute(
        judge_model,
        calls(),
        settings.exec_settings(config),
        on_outcome=on_outcome,
        validate=_validate,
    )
    return (
        f"uptake {name}: {len(todo)} wrong-caption answers; {counts['graded']} judged, "
        f"{counts['unscored']} unscored, {counts['errors']} errors"
    )
