"""``forgebench run --dry-run``: what would be sent, without sending anything or writing RUN/.

For each model: the exact request of its first pending task (each image's data URL shortened to
``data:image/png;base64,iVBORw0KGgo...(123456 chars)``), the number of tasks (and how many are
still pending when RUN/ already exists), the estimated input tokens (``costs.py`` explains the
estimate) and, where the models file gives prices, the estimated cost: input tokens at
``price_in`` plus an upper bound for output (every answer at ``max_tokens``, and
``images_per_call`` images at ``price_image`` for image editors).
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forgebench.models.base import Model, Request
from forgebench.models.registry import describe_request
from forgebench.models.spec import ModelConfig
from forgebench.run.costs import cost_usd, estimate_input_tokens
from forgebench.run.generate import Plan
from forgebench.run.rundir import RunDir
from forgebench.run.settings import scrub, secret_values
from forgebench.run.store import Store
from forgebench.run.tasks import Task

SHOWN_B64_CHARS = 12


@dataclass
class Preview:
    """One model's dry-run summary."""

    name: str
    tasks: int
    pending: int
    input_tokens: int
    cost_in: float | None
    cost_out_max: float | None
    example_key: str | None
    example: dict[str, Any] | None
    """The exact request of the first pending task, image data shortened."""

    def lines(self) -> list[str]:
        """What ``--dry-run`` prints for this model."""
        out = [
            f"model {self.name}: {self.tasks} tasks, {self.pending} to send, "
            f"~{self.input_tokens:,} input tokens (estimate)"
        ]
        if self.cost_in is not None and self.cost_out_max is not None:
            total = self.cost_in + self.cost_out_max
            out.append(
                f"  estimated cost: {_usd(self.cost_in)} input + up to {_usd(self.cost_out_max)} "
                f"output (every answer at max_tokens) = at most {_usd(total)}"
            )
        if self.example is not None:
            out.append(f"  request of task {self.example_key}:")
            text = json.dumps(self.example, indent=2, ensure_ascii=False)
            out.extend("  " + line for line in text.splitlines())
        return out


def _usd(x: float) -> str:
    return f"${x:,.2f}" if x >= 1 else f"${x:.4f}"


def shorten_data_url(b64: str, media_type: str) -> str:
    """``data:MEDIA;base64,FIRST12...(N chars)``."""
    return f"data:{media_type};base64,{b64[:SHOWN_B64_CHARS]}...({len(b64)} chars)"


def _replace(obj: Any, old: str, new: str) -> Any:
    if isinstance(obj, dict):
        return {k: _replace(v, old, new) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_replace(v, old, new) for v in obj]
    return new if obj == old else obj


def example_request(model: Model, task: Task) -> dict[str, Any]:
    """The request ``model`` would send for ``task``, the image data shortened."""
    q = task.question
    request = Request(
        prompt=q.prompt, images=q.images, params=dict(task.params),
        choice=tuple(q.extra.get("choice") or ()),
    )  # fmt: skip
    described = describe_request(model, request)
    for ref in q.images:
        if ref.path.is_file():
            b64 = base64.b64encode(ref.path.read_bytes()).decode("ascii")
            described = _replace(
                described, f"variant:{ref.variant_id}", shorten_data_url(b64, ref.media_type)
            )
    return described


def preview(the_plan: Plan, models: dict[str, Model], run_dir: Path | None) -> list[Preview]:
    """One :class:`Preview` per model (reads RUN/ when it exists, never writes it)."""
    store = (
        Store.open(run_dir, create=False)
        if run_dir is not None and RunDir(run_dir).is_run()
        else None
    )
    secrets = secret_values(the_plan.configs)
    out = []
    try:
        for config in the_plan.configs:
            tasks = the_plan.tasks[config.name]
            done = store.answered({t.key for t in tasks}) if store is not None else set()
            todo = [t for t in tasks if t.key not in done]
            tokens = sum(estimate_input_tokens(t) for t in todo)
            out.append(_preview(config, models[config.name], tasks, todo, tokens, secrets))
    finally:
        if store is not None:
            store.close()
    return out


def _preview(
    config: ModelConfig,
    model: Model,
    tasks: list[Task],
    todo: list[Task],
    tokens: int,
    secrets: list[str],
) -> Preview:
    first = todo[0] if todo else (tasks[0] if tasks else None)
    max_out = len(todo) * (config.max_tokens or 0)
    return Preview(
        name=config.name,
        tasks=len(tasks),
        pending=len(todo),
        input_tokens=tokens,
        cost_in=cost_usd(config, tokens, 0),
        cost_out_max=cost_usd(config, 0, max_out, len(todo) * config.images_per_call),
        example_key=first.key if first else None,
        example=scrub(example_request(model, first), secrets) if first else None,
    )
