"""How a question is bound to the models of a run, before anything is sent: the benchmark set on
it, the question each model is asked (itself or its single-image fallback), and the checks that
refuse, in one line, what a model cannot take (more images than ``max_images``, a constrained
answer its backend cannot give, a model name reused with other settings). Used by
:mod:`forgebench.run.generate` for a run's plan and stored tasks."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from forgebench.models.choice import refusal
from forgebench.models.registry import capabilities, constraining_providers
from forgebench.models.spec import SpecError
from forgebench.run.settings import scrub, secret_values

if TYPE_CHECKING:
    from forgebench.models.spec import ModelConfig
    from forgebench.run.store import Store
    from forgebench.run.tasks import Question


def with_benchmark(question: Question, name: str) -> Question:
    """``question`` (and its fallback) with the benchmark set where the suite left it empty."""
    fallback = question.fallback
    if fallback is not None and not fallback.benchmark:
        fallback = dataclasses.replace(fallback, benchmark=question.benchmark or name)
    if question.benchmark and fallback is question.fallback:
        return question
    return dataclasses.replace(question, benchmark=question.benchmark or name, fallback=fallback)


def takes(config: ModelConfig, question: Question) -> bool:
    """Whether ``config`` takes every image of ``question`` (its ``max_images``)."""
    return config.max_images is None or len(question.images) <= config.max_images


def for_model(question: Question, config: ModelConfig) -> Question:
    """The question ``config`` is asked: ``question`` itself, or its fallback when the model
    takes fewer images than it shows (:func:`check_images` refuses one without a fallback)."""
    if question.fallback is not None and not takes(config, question):
        return question.fallback
    return question


def check_images(question: Question, configs: list[ModelConfig]) -> None:
    """Refuse a question with more images than a model takes (``max_images``) and no fallback
    for it, before anything is sent (:class:`SpecError`, one line)."""
    for c in configs:
        q = for_model(question, c)
        if len(q.images) > 1:
            c.check_images(len(q.images), f"item {q.item_id} ({q.probe}, {q.condition})")


def check_choice(question: Question, configs: list[ModelConfig], seen: dict[str, bool]) -> None:
    """Refuse a constrained question (``extra["choice"]``: Forensics' ``MCQ_CHOICE``) for a model
    whose backend cannot constrain an answer, before anything is sent (:class:`SpecError`, one
    line naming the model); ``seen`` caches each model's capability."""
    if not question.extra.get("choice"):
        return

    for c in configs:
        if c.name not in seen:
            seen[c.name] = capabilities(c).constrained_answers
        if not seen[c.name]:
            raise SpecError(refusal(c.name, c.parsed.provider, constraining_providers()))


def check_model_settings(store: Store, configs: list[ModelConfig]) -> None:
    """Record each model's identity; refuse a name reused with other settings (SpecError)."""
    for c in configs:
        spec = c.parsed
        ident = {
            "provider": spec.provider,
            "model": spec.model,
            "params": scrub(c.generation_params(), secret_values(configs)),
        }
        key = f"model:{c.name}"
        before = store.meta_get(key)
        if before is not None and before.get("identity") != ident:
            raise SpecError(
                f"model name {c.name!r} already ran in {store.run_dir} with other settings "
                f"({before.get('identity')}); give this one another alias (ALIAS=PROVIDER/MODEL)"
            )
        config = scrub(c.model_dump(mode="json"), secret_values(configs))
        store.meta_set(key, {"identity": ident, "config": config})
