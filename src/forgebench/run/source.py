"""What the engine needs from a benchmark to ask its questions: :class:`QuestionSource`.

A benchmark suite (``suites/base.py``) is a question source; so is anything else that can load a
dataset and turn it into :class:`~forgebench.run.tasks.Question` objects. The engine binds the
questions to models, stores and sends them, and never learns which benchmark they came from
beyond the ``benchmark`` name it stores beside each task.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from forgebench.run.images import VariantCache
    from forgebench.run.tasks import Question


@dataclass(frozen=True)
class Selection:
    """What part of a benchmark's protocol to run (the flags every suite shares).

    ``probes`` and ``conditions`` only narrow the protocol; ``parts`` switches on opt-in parts of
    it (``--protocol robustness,attribution``); ``sample`` is the suite-defined ``--sample N``
    (Mandela: the items of the first N seeds; Forensics: stratified by type code).
    """

    probes: Sequence[str] | None = None
    """Probes to keep (None: all the protocol runs)."""
    conditions: Sequence[str] | None = None
    """Conditions to keep (None: all the protocol runs)."""
    parts: Sequence[str] = ()
    """Opt-in protocol parts to add to the default (the paper's main tables)."""
    sample: int | None = None
    """The suite's sample size (None: everything)."""
    options: Mapping[str, str] = field(default_factory=dict)
    """Values of the suite's own options given to ``run`` (``suites.base.SuiteOption``)."""


@dataclass
class Loaded:
    """A loaded dataset: where it lives and its items (stored in the run as JSON)."""

    root: Path
    """The dataset folder."""
    items: Sequence[Any]
    """Items: pydantic models or dicts, each with an ``id``."""
    data: Any = None
    """The suite's own loaded object (e.g. Mandela's ``Dataset``)."""


class QuestionSource(Protocol):
    """A benchmark as the engine sees it."""

    @property
    def name(self) -> str:
        """The benchmark id stored with every item and task."""
        ...

    def load(self, path: Path, selection: Selection) -> Loaded:
        """Load (and sample) a dataset."""
        ...

    def questions(
        self,
        loaded: Loaded,
        selection: Selection,
        cache: VariantCache,
        *,
        render_images: bool = True,
    ) -> Iterable[Question]:
        """The questions, model-independent, in a deterministic order."""
        ...


def parse_list(value: str | None, allowed: Sequence[str], what: str) -> list[str] | None:
    """Parse a comma-separated CLI list (None or blank: no narrowing), refusing unknown names
    and a list with no name at all (``',,'``) with one clear message."""
    if value is None:
        return None
    names = [v.strip() for v in value.split(",") if v.strip()]
    if not names:
        raise ValueError(f"--{what}s: no {what} named in {value!r}; known: {', '.join(allowed)}")
    bad = [n for n in names if n not in allowed]
    if bad:
        raise ValueError(f"unknown {what} {', '.join(map(repr, bad))}; known: {', '.join(allowed)}")
    return names
