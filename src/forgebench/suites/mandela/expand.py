"""Expanding a dataset into questions by the protocol table (DESIGN.md "Tasks, variants and answers").

:func:`expand` walks items in file order and, per item, the table's (probe, condition) pairs in
``PROBES`` x ``CONDITIONS`` order, so the output order is deterministic. ``--probes`` and
``--conditions`` only narrow the table (:func:`select_pairs`); they never add a pair the paper
does not run. Binding questions to models is :func:`forgebench.run.tasks.make_task`.

Prompts (Appendix E, ``prompts.render``): ``full_caption`` and ``crop_caption`` prefix the true
caption, ``full_wrong_caption`` the wrong event's caption (Appendix J); FACE fills ``{name}``
with the erased person and, when ``faces.wrong_name`` is given, is asked a second time on the
original face with that name (Appendix N's wrong-name control; ``extra["name_source"]`` tells
the two apart). EVENT's question belongs to the event's representative item
(``protocol_table.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

from forgebench.models.base import ImageRef
from forgebench.run.images import VariantCache
from forgebench.run.tasks import Question
from forgebench.suites.mandela.conditions import ConditionError, check, variant_spec
from forgebench.suites.mandela.contract import Dataset, Item
from forgebench.suites.mandela.ids import CONDITIONS, PROBES
from forgebench.suites.mandela.prompts import render
from forgebench.suites.mandela.protocol_table import Context, applies, pairs


def select_pairs(
    probes: Iterable[str] | None = None,
    conditions: Iterable[str] | None = None,
    parts: Iterable[str] = (),
) -> list[tuple[str, str]]:
    """The table's (probe, condition) pairs narrowed to ``probes`` and ``conditions``.

    ``None`` keeps everything; unknown names raise ``ValueError`` naming them.
    """
    p_set = _checked(probes, PROBES, "probe")
    c_set = _checked(conditions, CONDITIONS, "condition")
    return [
        (p, c)
        for p, c in pairs(parts)
        if (p_set is None or p in p_set) and (c_set is None or c in c_set)
    ]


def _checked(names: Iterable[str] | None, known: tuple[str, ...], what: str) -> set[str] | None:
    if names is None:
        return None
    out = set(names)
    bad = sorted(out - set(known))
    if bad:
        raise ValueError(f"unknown {what} {', '.join(map(repr, bad))}; known: {', '.join(known)}")
    return out


def _prompts(probe: str, condition: str, item: Item) -> list[tuple[str, str, dict[str, str]]]:
    """``(text, version, extra)`` for each question of (probe, condition) on ``item``."""
    if probe == "FACE":
        name = item.erased.name if item.erased else (item.entity.name if item.entity else None)
        if not name:
            raise ConditionError(f"item {item.id!r}: FACE needs the erased person's name")
        face = "original" if condition == "face_original" else "replacement"
        text, version = render(probe, item, face_name=name)
        out = [(text, version, {"face": face, "name_source": "erased"})]
        if condition == "face_original" and item.faces and item.faces.wrong_name:
            text, version = render(probe, item, face_name=item.faces.wrong_name)
            out.append((text, version, {"face": face, "name_source": "wrong_name"}))
        return out
    caption = condition in ("full_caption", "crop_caption")
    wrong = condition == "full_wrong_caption"
    text, version = render(probe, item, caption=caption, wrong_caption=wrong)
    extra = {"event": item.event.label, "date": item.event.date} if probe == "EVENT" else {}
    return [(text, version, extra)]


def questions_for_item(
    dataset: Dataset,
    item: Item,
    ctx: Context,
    selected: list[tuple[str, str]],
    cache: VariantCache,
    *,
    render_images: bool = True,
) -> list[Question]:
    """The questions of ``item`` for the selected pairs that apply to it."""
    out: list[Question] = []
    refs: dict[str, ImageRef | None] = {}
    for probe, condition in selected:
        if not applies(probe, condition, item, ctx):
            continue
        check(item, condition)
        if condition not in refs:
            get = cache.ensure if render_images else cache.ref
            refs[condition] = get(variant_spec(dataset.root, item, condition))
        for text, version, extra in _prompts(probe, condition, item):
            out.append(
                Question(
                    item_id=item.id,
                    probe=probe,
                    condition=condition,
                    prompt=text,
                    prompt_version=version,
                    image=refs[condition],
                    extra=extra,
                )
            )
    return out


def expand(
    dataset: Dataset,
    probes: list[str] | None = None,
    conditions: list[str] | None = None,
    cache: VariantCache | None = None,
    *,
    render_images: bool = True,
    progress: Callable[[int, int], None] | None = None,
    parts: Iterable[str] = (),
) -> list[Question]:
    """Every question the protocol asks of ``dataset``, narrowed to ``probes`` / ``conditions``.

    With ``render_images`` derived variants are rendered into ``cache`` (default
    :class:`VariantCache`) when absent; without it, image refs carry the variant id computed
    from the source bytes and nothing is written (dry runs, counting). ``progress`` is called
    with ``(items done, items total)`` after each item. ``parts`` switches on opt-in protocol
    parts (:data:`~forgebench.suites.mandela.protocol_table.PARTS`).
    """
    ctx = Context.of(dataset.items, parts)  # checks the part names
    selected = select_pairs(probes, conditions, ctx.parts)
    cache = cache if cache is not None else VariantCache()
    out: list[Question] = []
    total = len(dataset.items)
    for i, item in enumerate(dataset.items, start=1):
        out.extend(
            questions_for_item(dataset, item, ctx, selected, cache, render_images=render_images)
        )
        if progress is not None:
            progress(i, total)
    return out


def matrix_counts(questions: Iterable[Question]) -> dict[tuple[str, str], int]:
    """Questions per (probe, condition), in PROBES x CONDITIONS order."""
    counts = Counter((q.probe, q.condition) for q in questions)
    order = {(p, c): i for i, (p, c) in enumerate((p, c) for p in PROBES for c in CONDITIONS)}
    return {k: counts[k] for k in sorted(counts, key=lambda k: order.get(k, len(order)))}
