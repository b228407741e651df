"""Forensics' questions bound to the engine: each release row's questions (:mod:`.questions`)
as ``run.tasks.Question`` objects with their image variants, and the variant a question shows
(the report's viewer asks it again for its pictures)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from forgebench.run.images import VariantCache, VariantSpec, source_info
from forgebench.run.source import Loaded, Selection
from forgebench.run.tasks import Question
from forgebench.suites.base import SuiteError
from forgebench.suites.forensics.contract import ForensicsItem, open_items
from forgebench.suites.forensics.ids import MCQ, MCQ_CHOICE, TILED
from forgebench.suites.forensics.perturb import RENDERER_VERSION
from forgebench.suites.forensics.protocol import stratified
from forgebench.suites.forensics.questions import ForensicsQuestion, ImageSpec, expand

BENCHMARK = "forensics"


def load(path: Path, selection: Selection) -> Loaded:
    """The items of a dataset folder (held as file offsets), ``--sample N`` items per type
    code."""
    try:
        items = open_items(path)
    except (OSError, ValueError) as exc:
        raise SuiteError(str(exc).splitlines()[0]) from None
    if selection.sample is not None and selection.sample < 1:
        raise SuiteError("--sample must be at least 1 (items per type code)")
    return Loaded(root=path, items=stratified(items, selection.sample))


def variant(spec: ImageSpec, condition: str, cache: VariantCache | None = None) -> Any:
    """The variant a question shows; the other frames' digests through ``cache``'s index of
    source files when given (a dataset prepared before is not read again)."""
    if spec.op == "file":
        return VariantSpec(source=spec.sources[0], condition="full")
    if condition == TILED:
        # hashed under the image condition ``full``, as a schema-4 store holds it: the tasks the
        # migration relabels keep the key this question makes
        condition = "full"
    info = cache.source_info if cache is not None else source_info
    others = [info(p).sha256 for p in spec.sources[1:]]
    return VariantSpec(
        source=spec.sources[0],
        condition=condition,
        params={"op": spec.op, "seed": spec.seed, "more_sources": others},
        renderer=RENDERER_VERSION,
        render=lambda _data, _what: spec.render(),
    )


def questions(
    loaded: Loaded,
    probes: Sequence[str],
    conditions: Sequence[str],
    cache: VariantCache,
    render_images: bool,
) -> Iterator[Question]:
    """The questions of every item, one item at a time (the dataset stays on disk)."""

    def bind(item: ForensicsItem, fq: ForensicsQuestion) -> Question:
        if len(fq.images) != 1 and fq.condition not in ("multi_image", "full"):
            raise SuiteError(f"item {fq.item_id}: {len(fq.images)} images in one question")
        specs = [variant(im, fq.condition, cache) for im in fq.images]
        refs = cache.ensure_all(specs, render=render_images)
        extra: dict[str, Any] = {
            "options": fq.options, "answer": fq.answer, "type_code": item.type_code,
            "question": item.question if fq.probe in (MCQ, MCQ_CHOICE) else fq.text,
        }  # fmt: skip
        if fq.choice:  # the letters the server may answer (Request.choice)
            extra["choice"] = list(fq.choice)
        return Question(
            fq.item_id, fq.probe, fq.condition, fq.text, fq.version, extra=extra,
            benchmark=BENCHMARK, images=refs,
            fallback=bind(item, fq.fallback) if fq.fallback is not None else None,
        )  # fmt: skip

    for it in loaded.items:
        for fq in expand([it], loaded.root, probes=list(probes), conditions=list(conditions)):
            yield bind(it, fq)
