"""Two runs item by item: their per-answer outcomes paired, the exact McNemar test of each model
pair, the answers that flipped, and the headline numbers side by side.

The engine half of ``forgebench compare`` (:func:`forgebench.api.compare` composes it): it reads
no store and knows no suite. Its inputs are each run's per-answer outcomes (``Suite.outcome``:
task key, model, item, probe, condition, right) and each run's ``metrics.csv`` rows.

Pairing: an answer of run A and one of run B are a pair when they are the same benchmark's item,
probe and condition, asked of the models paired (by default the same model name). Items that only
one run holds are left out (a ``--sample`` run against a full one is compared on the items both
hold, and the counts say so). Where a run holds several answers of one model to the same question
(epochs, when they exist), the first stored is used: paired tests read epoch 1. The test is the
exact McNemar test of seed 000 (:func:`forgebench.analysis.stats.paired_arrays`): ``b`` pairs right
in A only (right -> wrong), ``c`` right in B only (wrong -> right).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from forgebench.analysis.stats import paired_arrays
from forgebench.interop.headline import Headline

__all__ = [
    "Flip",
    "HeadlineRow",
    "PairTest",
    "Side",
    "headline_rows",
    "pair_tests",
]

ALL = "all"
"""The probe and condition of the test that pools every paired answer of a model pair."""


class _Outcome(Protocol):
    @property
    def task_key(self) -> str: ...
    @property
    def model(self) -> str: ...
    @property
    def item_id(self) -> str: ...
    @property
    def probe(self) -> str: ...
    @property
    def condition(self) -> str: ...
    @property
    def right(self) -> bool: ...


@dataclass(frozen=True)
class Side:
    """One run's answers of one model: question -> (task key, right), each question's first."""

    answers: dict[tuple[str, str, str], tuple[str, bool]]
    """(item, probe, condition) -> (task key, right)."""

    @classmethod
    def of(cls, outcomes: Iterable[_Outcome], model: str) -> Side:
        """The answers of ``model`` among ``outcomes`` (the first of each question: epoch 1)."""
        answers: dict[tuple[str, str, str], tuple[str, bool]] = {}
        for o in outcomes:
            if o.model == model:
                answers.setdefault((o.item_id, o.probe, o.condition), (o.task_key, bool(o.right)))
        return cls(answers)

    @property
    def items(self) -> set[str]:
        return {q[0] for q in self.answers}


@dataclass(frozen=True)
class PairTest:
    """The exact McNemar test of one model pair on one probe x condition (or ``all``)."""

    benchmark: str
    model_a: str
    model_b: str
    probe: str
    condition: str
    n: int
    """Answers paired (questions both runs asked of their model)."""
    right_a: int
    right_b: int
    b: int
    """Right in A, wrong in B (right -> wrong)."""
    c: int
    """Wrong in A, right in B (wrong -> right)."""
    p: float
    """Exact two-sided p-value (1.0 without a discordant pair)."""

    def row(self) -> dict[str, Any]:
        return {
            "benchmark": self.benchmark, "model_a": self.model_a, "model_b": self.model_b,
            "probe": self.probe, "condition": self.condition, "n": self.n,
            "right_a": self.right_a, "right_b": self.right_b,
            "right_to_wrong": self.b, "wrong_to_right": self.c, "p": self.p,
        }  # fmt: skip


@dataclass(frozen=True)
class Flip:
    """An answer right in one run and wrong in the other."""

    benchmark: str
    model_a: str
    model_b: str
    item_id: str
    probe: str
    condition: str
    key_a: str
    key_b: str
    right_a: bool
    """True: right -> wrong; False: wrong -> right."""

    @property
    def direction(self) -> str:
        return "right -> wrong" if self.right_a else "wrong -> right"


@dataclass
class PairResult:
    """One model pair of one benchmark: its tests, its flips and how many items each run held."""

    benchmark: str
    model_a: str
    model_b: str
    items_a: int
    """Items run A asked its model."""
    items_b: int
    items_both: int
    """Items both runs asked (the tests' population)."""
    tests: list[PairTest] = field(default_factory=list)
    flips: list[Flip] = field(default_factory=list)


def pair_tests(
    benchmark: str, model_a: str, model_b: str, side_a: Side, side_b: Side
) -> PairResult:
    """The McNemar test of each probe x condition both sides asked (and of all of them pooled)
    on the questions both asked, and every flipped answer, in A's order."""
    both = sorted(side_a.answers.keys() & side_b.answers.keys())
    result = PairResult(
        benchmark, model_a, model_b, len(side_a.items), len(side_b.items), len({q[0] for q in both})
    )
    if not both:
        return result
    groups: dict[tuple[str, str], list[tuple[str, str, str]]] = {}
    for q in both:
        groups.setdefault((q[1], q[2]), []).append(q)
    cells = sorted(groups.items())
    if len(cells) > 1:
        cells.append(((ALL, ALL), both))
    for (probe, condition), qs in cells:
        keys = np.array(["\x1f".join(q) for q in qs], dtype=object)
        x = np.array([side_a.answers[q][1] for q in qs], dtype=bool)
        y = np.array([side_b.answers[q][1] for q in qs], dtype=bool)
        test = paired_arrays(keys, x, keys, y)
        result.tests.append(
            PairTest(
                benchmark,
                model_a,
                model_b,
                probe,
                condition,
                test.n,
                int(x.sum()),
                int(y.sum()),
                test.b,
                test.c,
                test.p,
            )
        )
    order = {q: i for i, q in enumerate(side_a.answers)}
    for q in sorted(both, key=order.__getitem__):
        (key_a, right_a), (key_b, right_b) = side_a.answers[q], side_b.answers[q]
        if right_a != right_b:
            result.flips.append(Flip(benchmark, model_a, model_b, *q, key_a, key_b, right_a))
    return result


@dataclass(frozen=True)
class HeadlineRow:
    """One headline number of a model pair in both runs, and B minus A."""

    benchmark: str
    model_a: str
    model_b: str
    metric: str
    """The metric as the front page labels it (``acc``, ``persp forgery_type``)."""
    value_a: float | None
    value_b: float | None
    n_a: float | None
    n_b: float | None

    @property
    def diff(self) -> float | None:
        if self.value_a is None or self.value_b is None:
            return None
        return self.value_b - self.value_a

    def row(self) -> dict[str, Any]:
        return {
            "benchmark": self.benchmark, "model_a": self.model_a, "model_b": self.model_b,
            "metric": self.metric, "a": self.value_a, "b": self.value_b, "diff": self.diff,
            "n_a": self.n_a, "n_b": self.n_b,
        }  # fmt: skip


def headlines_of(rows: Sequence[Mapping[str, str]], declared: Sequence[Headline]) -> list[Headline]:
    """The headline numbers to show: those ``declared`` (a suite's ``headline``), else, for a
    suite that declares none, every metric of its rows on ``subset == all``."""
    if declared:
        return list(declared)
    seen: dict[tuple[str, str, str], None] = {}
    for r in rows:
        if r["subset"] == "all":
            seen[(r["probe"], r["condition"], r["metric"])] = None
    return [Headline(p, c, m, "all") for p, c, m in seen]


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if np.isfinite(value) else None


def headline_rows(
    benchmark: str,
    model_a: str,
    model_b: str,
    rows_a: Sequence[Mapping[str, str]],
    rows_b: Sequence[Mapping[str, str]],
    declared: Sequence[Headline],
) -> list[HeadlineRow]:
    """Each headline number of ``model_a`` in A's metrics rows and of ``model_b`` in B's (text
    rows of ``metrics.csv``, one benchmark and judge), side by side; a number only one run has
    is shown with a dash on the other side."""

    def find(rows: Sequence[Mapping[str, str]], model: str, h: Any) -> tuple[float | None, ...]:
        for r in rows:
            if r["model"] == model and (r["probe"], r["condition"], r["metric"], r["subset"]) == (
                h.probe, h.condition, h.metric, h.subset,
            ):  # fmt: skip
                return _number(r["value"]), _number(r["n"])
        return None, None

    out = []
    for h in headlines_of([*rows_a, *rows_b], declared):
        (va, na), (vb, nb) = find(rows_a, model_a, h), find(rows_b, model_b, h)
        if va is None and vb is None:
            continue
        out.append(HeadlineRow(benchmark, model_a, model_b, h.label, va, vb, na, nb))
    return out


@dataclass
class BenchmarkComparison:
    """Everything compared of one benchmark both runs hold."""

    benchmark: str
    title: str
    right_means: str
    """What makes an answer right (the first paragraph of the suite's ``outcome`` docstring)."""
    items_a: int
    """Items of the benchmark run A asked."""
    items_b: int
    items_both: int
    """Items both runs asked."""
    pairs: list[PairResult] = field(default_factory=list)
    headline: list[HeadlineRow] = field(default_factory=list)

    @property
    def tests(self) -> list[PairTest]:
        return [t for p in self.pairs for t in p.tests]

    @property
    def flips(self) -> list[Flip]:
        return [f for p in self.pairs for f in p.flips]
