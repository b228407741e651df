"""The typed rows the run store reads and writes (see :mod:`forgebench.run.store.schema`)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from forgebench.models.base import ImageRef

GRADE_KIND = "evidence"
"""The judgement kind of an E0-E4 grade: what the store's ``grades`` view shows."""


def json_object(text: str | None) -> dict[str, Any]:
    """A stored JSON column as a dict ({} when absent, unreadable or not an object)."""
    try:
        value = json.loads(text) if text else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


@dataclass(frozen=True)
class CountRow:
    """Status counts for one model x probe x condition."""

    model: str
    probe: str
    condition: str
    total: int
    done: int
    errors: int

    @property
    def pending(self) -> int:
        """Tasks with neither an answer nor an error."""
        return self.total - self.done - self.errors


@dataclass(frozen=True)
class TokenRow:
    """Token totals of one model's stored answers."""

    model: str
    answers: int
    input_tokens: int
    output_tokens: int


@dataclass(frozen=True)
class Judgement:
    """One judgement of one task by one judge (a grade, an extracted letter, a gate result)."""

    task_key: str
    judge: str
    """The judge's name, e.g. ``builtin/rules``."""
    kind: str
    """What is judged: ``evidence`` (Mandela E0-E4), ``letter`` (Forensics), ``uptake``, ..."""
    status: str
    """``graded``, ``auto`` (decided without a call) or ``unscored``."""
    version: str
    """Rubric, prompt or gate version."""
    judge_spec: str
    """The judge's spec (no secrets)."""
    value: str | None = None
    """The judgement as text (``E3``, ``B``, ``pass``); None when unscored."""
    level: int | None = None
    """Its numeric form where there is one."""
    reason: str | None = None
    detail: dict[str, Any] = field(default_factory=dict)
    """Kind-specific fields (JSON)."""
    raw: str | None = None
    """The judge's raw output."""
    attempts: int = 1


class Judged(NamedTuple):
    """The stored judgement of one task by the judge and kind a read asked for (a named tuple:
    a run's reads make hundreds of thousands)."""

    value: str | None
    level: int | None
    status: str
    reason: str | None
    detail_json: str | None
    """Kind-specific fields as stored (JSON text; :attr:`detail` parses it)."""

    @property
    def detail(self) -> dict[str, Any]:
        return json_object(self.detail_json)


def shown_refs(
    variant_id: str | None, image_path: str | None, media_type: str | None, images_json: str | None
) -> tuple[ImageRef, ...]:
    """The images a task showed, in order, from its stored columns (``images`` when it showed
    several, else its first image's; none for a text-only task)."""
    if images_json:
        return tuple(ImageRef(v, Path(p), m or "image/png") for v, p, m in json.loads(images_json))
    if variant_id is None:
        return ()
    return (ImageRef(variant_id, Path(image_path or ""), media_type or "image/png"),)


class TaskRecord(NamedTuple):
    """One task as a later stage reads it: the question's identity, its answer or error, its
    verdict and the judgements asked for (:meth:`forgebench.run.store.Store.records`; a named
    tuple: a run's reads make hundreds of thousands)."""

    key: str
    benchmark: str
    item_id: str
    model: str
    probe: str
    condition: str
    prompt: str
    """The rendered prompt; empty unless the read asked for prompts."""
    extra_json: str
    """The question's suite-specific fields as stored (JSON; :attr:`extra` parses them; ``{}``
    when absent)."""
    text: str | None
    """The answer's text; None without an answer (pending or errored)."""
    finish_reason: str | None
    input_tokens: int | None
    output_tokens: int | None
    latency_s: float | None
    error: str | None
    """The error's reason when the task has an error row (an answer wins: see ``answered``)."""
    verdict: str | None
    verdict_json: str | None
    """The verdict's detail as stored (JSON; :attr:`verdict_detail` parses it)."""
    parser_version: str | None
    judged: tuple[Judged | None, ...] = ()
    """One entry per (judge, kind) asked for, in that order; None where there is none."""
    variant_id: str | None = None
    """The first image's variant id (None: a text-only task); :attr:`images` has them all."""
    image_path: str | None = None
    media_type: str | None = None
    images_json: str | None = None
    """Every image of a task with several, as stored (JSON)."""

    @property
    def images(self) -> tuple[ImageRef, ...]:
        """The images the question showed, in order (variant ids and where the bytes live)."""
        return shown_refs(self.variant_id, self.image_path, self.media_type, self.images_json)

    @property
    def answered(self) -> bool:
        return self.text is not None

    @property
    def extra(self) -> dict[str, Any]:
        return json_object(self.extra_json)

    @property
    def verdict_detail(self) -> dict[str, Any]:
        return json_object(self.verdict_json)


@dataclass(frozen=True)
class StoredAnswer:
    """A task's stored answer, as far as readers outside the runner need it."""

    text: str
    raw: dict[str, Any]
    """The response without image bytes or keys (JSON)."""
    attempts: int


@dataclass(frozen=True)
class StoredError:
    """A task's stored error (transport or protocol failure after its last attempt)."""

    reason: str
    status: int | None
    attempts: int


@dataclass(frozen=True)
class TaskIdentity:
    """The identity columns of a current task (what construction reads back)."""

    key: str
    item_id: str
    model: str
    extra: dict[str, Any]
