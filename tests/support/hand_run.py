"""Real run stores built from hand-written rows (for the metrics, export and judge tests).

Imported as ``from support import hand_run`` (pytest puts ``tests/`` on the path).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from forgebench.models.base import Response, Usage
from forgebench.run.store import Store
from forgebench.run.tasks import Question, make_task
from forgebench.suites.mandela.contract import Item
from forgebench.suites.mandela.judge import grade

Row = tuple[str, str, str, str, Any]
"""(model, item_id, probe, condition, answer): answer is a str, None (pending) or ("error", why)."""


def make_item(item_id: str, **fields: Any) -> dict[str, Any]:
    """A valid item dict with defaults for the required fields."""
    base: dict[str, Any] = {
        "id": item_id,
        "seed_id": fields.pop("seed_id", "s-" + item_id),
        "image": f"images/{item_id}.jpg",
        "label": fields.pop("label", "forged"),
        "domain": fields.pop("domain", "A1"),
        "noun": "photograph",
        "event": fields.pop("event", {"label": "Some event", "date": "1986-06-29"}),
    }
    base.update(fields)
    return base


def build_run(
    run_dir: Path,
    items: Iterable[dict[str, Any]],
    rows: Iterable[Row],
    grades: Iterable[tuple[str, str, str, str, int | None, str]] = (),
    judge: str = "hand",
) -> dict[tuple[str, str, str, str], str]:
    """Write items, tasks, answers/errors and grades ``(model, item, probe, cond, level, status)``
    into a real ``run.sqlite``; returns the task keys by (model, item, probe, condition)."""
    keys: dict[tuple[str, str, str, str], str] = {}
    with Store.open(run_dir) as store:
        store.put_items("mandela", [Item.model_validate(it) for it in items])
        for model, item_id, probe, cond, answer in rows:
            q = Question(
                item_id=item_id,
                probe=probe,
                condition=cond,
                prompt=f"{probe} prompt",
                prompt_version="v",
                benchmark="mandela",
            )
            task = make_task(q, model, {"temperature": 0})
            store.put_tasks([task])
            keys[(model, item_id, probe, cond)] = task.key
            if isinstance(answer, str):
                store.put_answer(task.key, Response(text=answer, usage=Usage(10, 20)), 1, 0.5, {})
            elif isinstance(answer, tuple):
                store.put_error(task.key, answer[1], 500, 3)
        for model, item_id, probe, cond, level, status in grades:
            store.put_judgement(
                grade(keys[(model, item_id, probe, cond)], judge, level, status, "hand", judge)
            )
    return keys
