"""The report viewer's verdict and level facets: vocabularies the benchmark suites declare.

The engine knows no benchmark's codes. The report code (``forgebench.api.report``) passes the
codes the run's suites declare (``Suite.verdict_codes``, ``Suite.level_codes``) in their display
order; :func:`vocabulary` appends the codes found in the run that no suite declared (sorted, so a
suite without declarations still gets working facets) and the engine's own codes last: ``ERROR``
(a stored error) and ``PENDING`` (no answer, or not parsed yet) for verdicts, ``unscored`` (the
judge could not grade) and ``none`` (not graded) for levels.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
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
ItemFacts = Callable[[Mapping[str, Any]], list[tuple[str, str]]]
"""``facts(item) -> [(label, text)]``: extra lines of an item's card, from the item's suite."""


def vocabulary(declared: Iterable[str], found: Iterable[str], tail: tuple[str, ...]) -> list[str]:
    """``declared`` (first occurrence kept), then ``found`` codes nobody declared (sorted), then
    ``tail``; every code once."""
    head = [c for c in dict.fromkeys(declared) if c not in tail]
    known = set(head) | set(tail)
    extra = sorted({c for c in found if c not in known})
    return [*head, *extra, *tail]
