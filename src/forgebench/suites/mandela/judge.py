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
import json
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from forgebench.models.base import Model, ModelError, Request, Response
from forgebench.models.spec import ModelConfig
from forgebench.run.judging import JudgeSettings
from forgebench.run.store import Judgement
from forgebench.suites.mandela.parse_run import load_items, parse_run
from forgebench.suites.mandela.rubric import (
    RUBRIC_VERSION,
    JudgeReplyError,
    judge_prompt,
    parse_judge_reply,
)
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
            f"graded, {self.errors} errors ({self.elapsed_s:.1f}s)"
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


KIND = "evidence"
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


def _gradable(con: Any, judge: str, retry_unscored: bool) -> tuple[list[tuple[Any, ...]], int]:
    items = load_items(con)
    probes = sorted(REAL_FAKE_PROBES)
    marks = ",".join("?" * len(probes))
    sql = (
        "SELECT t.key, t.item_id, t.probe, t.condition, t.prompt, a.text, v.verdict, g.status "
        "FROM tasks t JOIN answers a ON a.task_key = t.key "
        "JOIN verdicts v ON v.task_key = t.key "
        "LEFT JOIN grades g ON g.task_key = t.key AND g.judge = ? "
        f"WHERE t.probe IN ({marks}) AND t.superseded_by IS NULL AND t.benchmark = 'mandela' "
        "ORDER BY t.rowid"
    )
    todo, existing = [], 0
    for key, item_id, probe, cond, prompt, text, verdict, status in con.execute(
        sql, (judge, *probes)
    ):
        item = items.get(item_id)
        if item is None or item.get("label") != "forged":
            continue
        if status is not None and not (retry_unscored and status == "unscored"):
            existing += 1
            continue
        todo.append((key, item, probe, cond, prompt, text, verdict))
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
    from forgebench import suites
    from forgebench.models.registry import create_model
    from forgebench.run.progress import RunProgress
    from forgebench.run.runner import Call, CallOutcome, execute
    from forgebench.run.store import Store

    suites.load()  # builtin/rules is registered by the Mandela suite
    settings = settings or JudgeSettings()
    retry_unscored = settings.retry_unscored
    cfg = config or ModelConfig(spec=judge_spec, max_tokens=None)
    started = time.monotonic()
    store = Store.open(run_dir, create=False)
    con = store.connection
    try:
        parse_run(con)
        judge_model = model or create_model(cfg)
        name = judge_model.name
        stats = JudgeStats(judge=name, spec=judge_spec)
        todo, stats.existing = _gradable(con, name, retry_unscored)
        stats.eligible = len(todo) + stats.existing
        autos = [
            grade(key, name, 0, "auto", f"verdict {verdict}: E0 without a judge call", judge_spec,
                  attempts=0)
            for key, _i, _p, _c, _pr, _t, verdict in todo if verdict != "FAKE"
        ]  # fmt: skip
        store.put_judgements(autos, replace=retry_unscored)
        stats.auto = len(autos)
        to_call = [row for row in todo if row[6] == "FAKE"]
        params = cfg.generation_params()

        def calls() -> Iterator[Call]:
            for key, item, probe, cond, prompt, text, verdict in to_call:
                ji = build_judge_input(
                    item, probe=probe, condition=cond, prompt=prompt, verdict=verdict,
                    answer=text, task_key=key,
                )  # fmt: skip
                meta = {"task_key": key, "item_id": item.get("id"), "judge_input": ji}
                yield Call(key, Request(prompt=judge_prompt(ji), params=dict(params), meta=meta))

        def on_outcome(out: CallOutcome) -> None:
            row: Judgement | None = None
            if out.response is not None:
                reply = parse_judge_reply(out.response.text)
                row = grade(out.key, name, reply.level, "graded", reply.reason, judge_spec,
                            identity=reply.identity_asserted,
                            contradiction=reply.contradiction_asserted,
                            raw=out.response.text, attempts=out.attempts)  # fmt: skip
                stats.graded += 1
            elif out.invalid is not None:
                row = grade(out.key, name, None, "unscored", out.error, judge_spec,
                            raw=out.invalid.text, attempts=out.attempts)  # fmt: skip
                stats.unscored += 1
            else:
                stats.errors += 1
            if row is not None:
                store.put_judgement(row, replace=retry_unscored)

        console = settings.console
        with RunProgress(console or Console(stderr=True), enabled=None if console else False) as rp:
            mp = rp.add(f"judge {name}", len(to_call))
            ex = await execute(
                judge_model,
                calls(),
                settings.exec_settings(cfg),
                on_outcome=on_outcome,
                validate=_validate,
                progress=mp,
            )
        stats.fatal = ex.fatal
        if not ex.fatal:
            from forgebench.suites.mandela.uptake_stage import uptake_run_async

            stats.uptake = await uptake_run_async(store, judge_model, cfg, settings)
        if model is None:
            await judge_model.aclose()
    finally:
        store.close()
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


def judges(con: Any) -> list[str]:
    """Judge names that have grades in a run, sorted."""
    return [r[0] for r in con.execute("SELECT DISTINCT judge FROM grades ORDER BY 1")]


def grade_counts(con: Any, judge: str) -> dict[str, int]:
    """``{status: count}`` of one judge's grades."""
    rows = con.execute(
        "SELECT status, COUNT(*) FROM grades WHERE judge=? GROUP BY status", (judge,)
    )
    return {str(s): int(n) for s, n in rows}


def describe(stats: JudgeStats) -> str:
    """JSON of the stats (for logs)."""
    return json.dumps(stats.__dict__, sort_keys=True)
