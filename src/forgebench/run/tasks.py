"""Tasks: one question to one model, with a stable key (DESIGN.md "Tasks, variants and answers").

A :class:`Question` is model-independent: item, probe, condition, the rendered prompt, its
version and the image variant(s). :func:`make_task` binds a question to a model name and that
model's generation parameters; the task key hashes all of it, so changing a prompt, an event
label, an image or a generation parameter re-asks exactly the affected tasks.

Questions come from a benchmark suite (``suites/base.py``: ``Suite.questions``); the engine binds,
stores and sends them without knowing the suite.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from forgebench.models.base import ImageRef

KEY_VERSION = "k1"
"""Bumped only if the key recipe itself changes (that would re-ask everything)."""


@dataclass(frozen=True)
class Question:
    """A model-independent question: what is asked about which item under which condition.

    Images: ``images`` is every image shown, in order (the frames of a video, an item and its
    candidate maps); ``image`` is the first of them (None for a text-only question). Give either
    one: a question built with ``image`` alone has ``images == (image,)``, one built with
    ``images`` alone has ``image == images[0]``; both given must agree.
    """

    item_id: str
    probe: str
    condition: str
    prompt: str
    prompt_version: str
    image: ImageRef | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Small, JSON-able context kept with the task (e.g. which face box FACE shows)."""
    benchmark: str = ""
    """The suite the question belongs to (stored beside the task, never hashed into its key:
    runs made before the seam resume). Set by the engine from the suite when left empty."""
    images: tuple[ImageRef, ...] = ()
    """Every image, in the order the model sees them (the first is :attr:`image`)."""
    fallback: Question | None = None
    """What a model that takes fewer images than :attr:`images` (its ``max_images``) is asked
    instead, e.g. the same images tiled into one under another condition. The task records the
    question it was bound to (its condition says which); never part of this question's key."""
    resized: tuple[Mapping[str, Any], ...] = ()
    """What the engine resized to fit the bound model's image limits (``run/fit.py``): one
    record per resized image (its position, the variant it was made from, the sizes before and
    after). Stored with the task (``tasks.resized``); never hashed into its key (the resized
    variant's id is)."""

    def __post_init__(self) -> None:
        images = tuple(self.images)
        if not images and self.image is not None:
            images = (self.image,)
        if images and self.image is not None and images[0] != self.image:
            raise ValueError(f"question {self.item_id}: image is not the first of images")
        object.__setattr__(self, "image", images[0] if images else None)
        object.__setattr__(self, "images", images)


@dataclass(frozen=True)
class Task:
    """One question to one model."""

    key: str
    model: str
    question: Question
    params: Mapping[str, Any]
    """The model's generation parameters that shape the request (temperature, max_tokens, ...)."""
    epoch: int = 1
    """Which repeat of the question this is (``run --epochs N``, Inspect's word): 1 for the first
    ask; part of the key only from 2 on (:func:`task_key`)."""

    @property
    def item_id(self) -> str:
        return self.question.item_id

    @property
    def probe(self) -> str:
        return self.question.probe

    @property
    def condition(self) -> str:
        return self.question.condition


def canonical_json(obj: Any) -> str:
    """Deterministic JSON (sorted keys, no whitespace) used for hashing."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def task_key(question: Question, model: str, params: Mapping[str, Any], epoch: int = 1) -> str:
    """The stable key: sha256 over item, probe, condition, model, rendered request and variant id.

    ``epoch`` (``run --epochs N``): the first ask (epoch 1) hashes no epoch, so every key made
    before repeats existed is the epoch-1 key and its answer is never asked again; a repeat
    (epoch 2 on) also hashes ``epoch``.

    ``image`` is the first image's variant id (None without one), as it always was. A question
    with more than one image also hashes ``images``, the list of every variant id in order; with
    one image or none that field is absent, so every single-image key is byte-identical to the
    one made before questions could carry several images (runs made then resume unchanged).
    """
    payload: dict[str, Any] = {
        "v": KEY_VERSION,
        "item": question.item_id,
        "probe": question.probe,
        "condition": question.condition,
        "model": model,
        "prompt": question.prompt,
        "prompt_version": question.prompt_version,
        "params": dict(params),
        "image": question.image.variant_id if question.image else None,
    }
    if len(question.images) > 1:
        payload["images"] = [ref.variant_id for ref in question.images]
    if epoch > 1:
        payload["epoch"] = epoch
    return hashlib.sha256(canonical_json(payload).encode("utf-8")).hexdigest()[:32]


class TaskKeys:
    """:func:`task_key` of one question for many ``(model, params)`` at once, byte for byte, with
    the question's part of the payload encoded once and each model's part once for all questions
    (a dataset prepared for 25 models encodes each prompt once, not 25 times).

    ``canonical_json`` of a flat dict is its sorted keys' encodings joined, so the payload is
    the question's fields before ``model`` (``condition``, ``image``, ``images``, ``item``), the
    model's ``model`` and ``params``, then the question's fields after them (``probe``,
    ``prompt``, ``prompt_version``, ``v``), each value encoded exactly as in the whole.
    """

    def __init__(self, bound: Sequence[tuple[str, Mapping[str, Any]]]) -> None:
        enc = canonical_json
        self._models = [f'{enc(m)},"params":{enc(dict(p))}'.encode() for m, p in bound]

    def __call__(self, question: Question, epoch: int = 1) -> list[str]:
        """The keys of ``question`` (its repeat ``epoch``) for each bound model, in order."""
        enc = canonical_json
        head = f'{{"condition":{enc(question.condition)},'
        if epoch > 1:  # "epoch" sorts between "condition" and "image"
            head += f'"epoch":{enc(epoch)},'
        head += f'"image":{enc(question.image.variant_id if question.image else None)},'
        if len(question.images) > 1:
            head += f'"images":{enc([ref.variant_id for ref in question.images])},'
        head += f'"item":{enc(question.item_id)},"model":'
        tail = (
            f',"probe":{enc(question.probe)},"prompt":{enc(question.prompt)},'
            f'"prompt_version":{enc(question.prompt_version)},"v":{enc(KEY_VERSION)}}}'
        ).encode()
        start = hashlib.sha256(head.encode())
        keys = []
        for middle in self._models:
            h = start.copy()
            h.update(middle)
            h.update(tail)
            keys.append(h.hexdigest()[:32])
        return keys


def make_task(
    question: Question, model: str, params: Mapping[str, Any] | None = None, epoch: int = 1
) -> Task:
    """Bind a question to a model (name as in every output) and its generation parameters;
    ``epoch``: which repeat of it (``run --epochs``)."""
    p = dict(params or {})
    key = task_key(question, model, p, epoch)
    return Task(key=key, model=model, question=question, params=p, epoch=epoch)
