"""The report viewer's verdict and level facets: vocabularies the benchmark suites declare.

The engine knows no benchmark's codes. The report code (``forgebench.api.report``) passes the
codes the run's suites declare (their viewer facet's ``verdict_codes``, ``level_codes``) in their display
order; :func:`vocabulary` appends the codes found in the run that no suite declared (sorted, so a
suite without declarations still gets working facets) and the engine's own codes last: ``ERROR``
(a stored error) and ``PENDING`` (no answer, or not parsed yet) for verdicts, ``unscored`` (the
judge could not grade) and ``none`` (not graded) for levels.

The item list's two grouping facets, an item's line in the list, the tag line of its card and
its search text come from the item's suite too (the viewer facet's ``tags`` -> :class:`ItemTags`, with
the facets' names in its ``group_labels``); the engine shows whatever it is given and nothing
when a suite gives nothing.

The rest of an item's card is the suite's as well (the viewer facet's ``card`` -> :class:`ItemCard`): its
details list, the caption of its picture and a box outlined on it, and which item of the run is
its original (shown beside it with a difference heatmap).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

ERROR = "ERROR"
"""Verdict of a task that ended as an error."""
PENDING = "PENDING"
"""Verdict of a task without an answer, or an answer not parsed yet."""
UNSCORED = "unscored"
"""Level of an answer the judge could not grade."""
NOT_GRADED = "none"
"""Level of an answer without a grade."""
VERDICT_TAIL = (ERROR, PENDING)
LEVEL_TAIL = (UNSCORED, NOT_GRADED)

AnswerView = Callable[[str | None, Mapping[str, Any]], tuple[str | None, str]]
"""``view(verdict, detail) -> (verdict, note)``: a stored answer's verdict facet and how it was
found, as the answer's suite shows them (given per benchmark; ``detail`` is the verdict row's
parsed JSON)."""

PairAnswer = Callable[[Any], "tuple[str, str, str, dict[str, Any]]"]
"""``answer(score) -> (probe, condition, verdict, detail)``: how a pair scored from files (a
:class:`~forgebench.run.store.PairScore`: a detector's score map, ``pixar score --out``) shows as
an answer in the viewer, as its suite shows it (given per benchmark)."""


@dataclass(frozen=True)
class ItemTags:
    """How an item is listed, grouped, tagged and found in the viewer (from its suite)."""

    groups: tuple[str, str] = ("", "")
    """Its values of the two grouping facets (the list's dropdowns; '' for none)."""
    line: tuple[str, ...] = ()
    """The short line under its id in the item list (empty values are left out)."""
    tags: tuple[str, ...] = ()
    """The tag line of its card (empty values are left out)."""
    search: tuple[str, ...] = ()
    """Extra text the search box finds it by (its id always is)."""


@dataclass(frozen=True)
class ItemCard:
    """An item's card in the viewer beyond its tags and facts (from its suite)."""

    rows: tuple[tuple[str, str], ...] = ()
    """The card's details list: ``(label, text)`` in display order (empty texts are left out;
    unlike facts, these are not searched)."""
    caption: str = "image"
    """The caption of the item's picture."""
    outline: tuple[float, float, float, float] | None = None
    """A box ``(x0, y0, x1, y1)`` in the picture's pixels outlined on it (None: none)."""
    pair: str = ""
    """The key pairing the item with its original ('' for none)."""
    original: bool = False
    """Whether the item is the original of its pair: the run's other items of that pair show it
    beside their picture, with a difference heatmap."""


ItemTagger = Callable[[Mapping[str, Any]], ItemTags]
"""``tags(item) -> ItemTags``: an item's tags, from the item's suite."""
GroupLabels = Mapping[str, tuple[str, str]]
"""Benchmark -> the names of its two grouping facets (a viewer facet's ``group_labels``)."""
ItemFacts = Callable[[Mapping[str, Any]], list[tuple[str, str]]]
"""``facts(item) -> [(label, text)]``: extra lines of an item's card, from the item's suite."""
ItemCarder = Callable[[Mapping[str, Any]], ItemCard]
"""``card(item) -> ItemCard``: the rest of an item's card, from the item's suite."""


def vocabulary(declared: Iterable[str], found: Iterable[str], tail: tuple[str, ...]) -> list[str]:
    """``declared`` (first occurrence kept), then ``found`` codes nobody declared (sorted), then
    ``tail``; every code once."""
    head = [c for c in dict.fromkeys(declared) if c not in tail]
    known = set(head) | set(tail)
    extra = sorted({c for c in found if c not in known})
    return [*head, *extra, *tail]


def group_label(labels: GroupLabels, benchmarks: Sequence[str], col: int) -> str:
    """The dropdown label of grouping facet ``col`` (0 or 1) for a run holding ``benchmarks``
    (in the order their items come): the distinct names the benchmarks give it, joined by
    ``" / "`` and capitalised (Mandela alone: ``Family``; with Forensics: ``Family / type``)."""
    names = dict.fromkeys(labels.get(b, ("", ""))[col] for b in benchmarks)
    text = " / ".join(n for n in names if n)
    return text[:1].upper() + text[1:]
