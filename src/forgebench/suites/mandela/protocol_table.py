"""The protocol table: which items each probe runs on under each condition (seed 000).

One :class:`Rule` per row, with the paper section or table it comes from written beside it.
Several rows for one (probe, condition) pair are a union (an item runs once). ``--probes`` and
``--conditions`` only narrow this table (``expand.py``); a pair without a row is never asked.

Choices where the paper is silent (also in each rule's ``note``):

- *People family* means ``family == "K1"``: K0 controls whose ``control_for`` is K1 are not in
  the de-recognition populations (Table 3 counts 145 people-family forgeries, no controls).
- *Authentic originals of their seeds* are authentic items sharing a ``seed_id`` with a
  peripheral K1 forgery (Table 17: "the 98 authentic originals from the same scenes").
- Crop conditions need a crop box: items without one are outside the crop populations (the
  validator reports peripheral items that lack it).
- Table 9's "scene has named principal figures" is read from the item's own
  ``principal_figures``.
- EVENT runs once per distinct ``(event.label, event.date)``; its representative is the first
  authentic item of that event in file order, else the event's first item.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from forgebench.suites.mandela.ids import CONDITIONS, PROBES

if TYPE_CHECKING:  # the contract (pydantic) loads when items are read, not when the suite registers
    from forgebench.suites.mandela.contract import Item


@dataclass(frozen=True)
class Context:
    """Dataset-level facts some rules need (seeds of peripheral K1 forgeries, EVENT representatives)."""

    peripheral_k1_seeds: frozenset[str] = frozenset()
    """Seeds that have a peripheral people-family forgery."""
    event_representatives: frozenset[str] = frozenset()
    """Ids of the one item per distinct event that carries the EVENT probe."""
    parts: frozenset[str] = frozenset()
    """Opt-in protocol parts switched on (``--protocol``; see :data:`PARTS`)."""

    @classmethod
    def of(cls, items: Iterable[Item], parts: Iterable[str] = ()) -> Context:
        """Build the context of a dataset's items (file order matters for EVENT) with the
        opt-in ``parts`` switched on (unknown names raise ``ValueError``)."""
        chosen = frozenset(parts)
        unknown = sorted(chosen - set(PARTS))
        if unknown:
            raise ValueError(
                f"unknown protocol part(s) {', '.join(unknown)}; known: {', '.join(PARTS)}"
            )
        items = list(items)
        seeds = frozenset(it.seed_id for it in items if is_peripheral_k1(it))
        first: dict[tuple[str, str], str] = {}
        first_authentic: dict[tuple[str, str], str] = {}
        for it in items:
            key = (it.event.label, it.event.date)
            first.setdefault(key, it.id)
            if it.label == "authentic":
                first_authentic.setdefault(key, it.id)
        reps = frozenset(first_authentic.get(k, v) for k, v in first.items())
        return cls(peripheral_k1_seeds=seeds, event_representatives=reps, parts=chosen)


Predicate = Callable[["Item", Context], bool]


@dataclass(frozen=True)
class Rule:
    """One row of the protocol table."""

    probe: str
    """Probe id."""
    condition: str
    """Condition id."""
    population: str
    """Population name (the metrics.csv subset name where one exists)."""
    source: str
    """Where the paper runs it (section / table)."""
    description: str
    """The population in words."""
    predicate: Predicate = field(repr=False, compare=False)
    """True for the items this row runs on."""
    note: str = ""
    """Our reading where the paper is silent."""
    part: str = ""
    """The opt-in part this row belongs to (empty: the default protocol)."""

    def applies(self, item: Item, ctx: Context) -> bool:
        """True when this row runs ``item`` (an opt-in row only when its part is on)."""
        if self.part and self.part not in ctx.parts:
            return False
        return self.predicate(item, ctx)


# ---- populations -------------------------------------------------------------------------


def is_peripheral_k1(item: Item) -> bool:
    """A peripheral (C2/C3) forgery of the people family K1."""
    return item.is_peripheral and item.family == "K1"


def is_peripheral_k1_population(item: Item, ctx: Context) -> bool:
    """Peripheral K1 forgeries and the authentic originals of their seeds (Table 3 / 17)."""
    if is_peripheral_k1(item):
        return True
    return item.label == "authentic" and item.seed_id in ctx.peripheral_k1_seeds


def is_peripheral_or_authentic(item: Item) -> bool:
    """All peripheral forgeries and all authentic items (Table 19)."""
    return item.is_peripheral or item.label == "authentic"


def is_erase(item: Item) -> bool:
    """Absent-celebrity erase items (Table 8: the verified absent-celebrity items)."""
    return item.variant == "erase"


def is_named_insertion(item: Item) -> bool:
    """K1 forgeries naming an entity who is not an erased absent celebrity (Table 8, TEXT)."""
    return (
        item.is_forged
        and item.family == "K1"
        and item.entity is not None
        and item.variant != "erase"
        and item.k1_type != "absent_celebrity"
    )


def _has_crop(item: Item) -> bool:
    return item.crop is not None


def _always(item: Item, ctx: Context) -> bool:
    return True


def _family_rule(condition: str) -> Predicate:
    """Table 12's population: peripheral forgeries of any family (crop conditions: with a crop)."""
    needs_crop = condition.startswith("crop")
    return lambda it, ctx: it.is_peripheral and (_has_crop(it) or not needs_crop)


# ---- the table ---------------------------------------------------------------------------

PARTS: dict[str, str] = {
    "table12": "Table 12: L1 under Full+Caption, Crop and Crop+Caption on the peripheral "
    "forgeries of every family (the paper runs it for two models)",
}
"""Opt-in protocol parts (``forgebench run --protocol NAME``): name -> what it adds."""

_CROP_NOTE = "items without a crop box are outside crop populations"
_K1_NOTE = "people family = family K1 (K0 controls excluded); originals share the seed_id"


def _rules() -> tuple[Rule, ...]:
    r = Rule
    return (
        r("L0", "full", "all", "§4.1; Table 2", "every item", _always),
        r("L1", "full", "all", "§4.1; Table 2", "every item", _always),
        r(
            "L1",
            "full_caption",
            "peripheral_K1",
            "§4.2; Table 3 (Table 17)",
            "peripheral K1 forgeries and the authentic originals of their seeds",
            is_peripheral_k1_population,
            _K1_NOTE,
        ),
        r(
            "L1",
            "crop",
            "peripheral_K1",
            "§4.2; Table 3 (Table 17)",
            "peripheral K1 forgeries and the authentic originals of their seeds, with a crop",
            lambda it, ctx: _has_crop(it) and is_peripheral_k1_population(it, ctx),
            f"{_K1_NOTE}; {_CROP_NOTE}",
        ),
        r(
            "L1",
            "crop_caption",
            "peripheral_K1",
            "§4.2; Table 3 (Table 17)",
            "peripheral K1 forgeries and the authentic originals of their seeds, with a crop",
            lambda it, ctx: _has_crop(it) and is_peripheral_k1_population(it, ctx),
            f"{_K1_NOTE}; {_CROP_NOTE}",
        ),
        *(
            r(
                "L1",
                cond,
                "peripheral_families",
                "Appendix J; Table 12 (opt-in part table12)",
                "peripheral forgeries of every family, with a crop for the crop conditions",
                _family_rule(cond),
                "opt-in (--protocol table12): the paper runs it for two models; K1 items are "
                "already in the default peripheral_K1 rows",
                "table12",
            )
            for cond in ("full_caption", "crop", "crop_caption")
        ),
        r(
            "L1",
            "crop",
            "peripheral",
            "Appendix K; Table 19",
            "all peripheral forgeries and all authentic items, with a crop",
            lambda it, ctx: _has_crop(it) and is_peripheral_or_authentic(it),
            _CROP_NOTE,
        ),
        r(
            "L1",
            "mirror",
            "peripheral",
            "§4.2; Table 19",
            "all peripheral forgeries and all authentic items",
            lambda it, ctx: is_peripheral_or_authentic(it),
        ),
        r(
            "L1",
            "full_wrong_caption",
            "peripheral_K1",
            "Appendix J; Table 11",
            "peripheral K1 forgeries and their authentic originals that have a wrong_event",
            lambda it, ctx: it.wrong_event is not None and is_peripheral_k1_population(it, ctx),
            f"{_K1_NOTE}; items without a wrong_event are left out",
        ),
        r("RECOG", "full", "all", "§4.1; Table 7, Table 10, Table 13", "every item", _always),
        r(
            "RECOG",
            "mirror",
            "peripheral",
            "Table 7",
            "peripheral forgeries with a crop variant",
            lambda it, ctx: it.is_peripheral and _has_crop(it),
            "same population as RECOG/crop (Table 7: 902 with a crop variant)",
        ),
        r(
            "RECOG",
            "crop",
            "peripheral",
            "Table 7",
            "peripheral forgeries with a crop variant",
            lambda it, ctx: it.is_peripheral and _has_crop(it),
        ),
        r(
            "L2",
            "full",
            "erase",
            "§4.1; Table 8",
            "absent-celebrity erase items",
            lambda it, ctx: is_erase(it),
        ),
        r(
            "L2",
            "full",
            "peripheral_K1_figures",
            "Table 9",
            "peripheral K1 forgeries whose scene has named principal figures",
            lambda it, ctx: is_peripheral_k1(it) and bool(it.principal_figures),
            "principal figures read from the item's own principal_figures",
        ),
        r(
            "L2",
            "crop",
            "peripheral_K1_figures",
            "Table 9",
            "peripheral K1 forgeries whose scene has named principal figures, with a crop",
            lambda it, ctx: is_peripheral_k1(it) and bool(it.principal_figures) and _has_crop(it),
            _CROP_NOTE,
        ),
        r(
            "L-adv",
            "full",
            "authentic",
            "§4.1; Table 2",
            "authentic items",
            lambda it, ctx: it.label == "authentic",
        ),
        r(
            "FACE",
            "face_original",
            "erase",
            "§4.1; Appendix N; Table 8",
            "erase items with face boxes",
            lambda it, ctx: is_erase(it) and it.faces is not None,
            "also asked with faces.wrong_name when given (Appendix N wrong-name control)",
        ),
        r(
            "FACE",
            "face_replacement",
            "erase",
            "§4.1; Appendix N; Table 8",
            "erase items with face boxes",
            lambda it, ctx: is_erase(it) and it.faces is not None,
        ),
        r(
            "TEXT",
            "none",
            "named_insertion",
            "§4.1; Table 8",
            "K1 forgeries naming an inserted entity (not absent-celebrity erasures)",
            lambda it, ctx: is_named_insertion(it),
        ),
        r(
            "EVENT",
            "none",
            "event",
            "Appendix E (event probe)",
            "one representative item per distinct (event.label, event.date)",
            lambda it, ctx: it.id in ctx.event_representatives,
            "representative: first authentic item of the event, else its first item",
        ),
    )


RULES: tuple[Rule, ...] = _rules()
"""The protocol table, in paper order."""


def rules(
    probe: str | None = None, condition: str | None = None, parts: Iterable[str] | None = ()
) -> list[Rule]:
    """The rows of the table, optionally for one probe and/or condition: the default rows and
    those of the opt-in ``parts`` (None: every row, all opt-in parts included)."""
    on = None if parts is None else set(parts)
    return [
        r
        for r in RULES
        if (probe is None or r.probe == probe)
        and (condition is None or r.condition == condition)
        and (on is None or not r.part or r.part in on)
    ]


def pairs(parts: Iterable[str] = ()) -> list[tuple[str, str]]:
    """Every (probe, condition) pair the paper runs (with the opt-in ``parts``), in PROBES x
    CONDITIONS order."""
    have = {(r.probe, r.condition) for r in rules(parts=parts)}
    return [(p, c) for p in PROBES for c in CONDITIONS if (p, c) in have]


def applies(probe: str, condition: str, item: Item, ctx: Context) -> bool:
    """True when the paper asks ``probe`` under ``condition`` on ``item`` (with ``ctx.parts``)."""
    return any(r.applies(item, ctx) for r in rules(probe, condition, ctx.parts))


def population_of(probe: str, condition: str, parts: Iterable[str] = ()) -> str:
    """Population name of a pair (``a+b`` for a union of rows, opt-in ``parts`` included);
    ``KeyError`` if not run."""
    names: list[str] = []
    for r in rules(probe, condition, parts):
        if r.population not in names:
            names.append(r.population)
    if not names:
        raise KeyError(f"the protocol does not run {probe} under {condition}")
    return "+".join(names)


def source_of(probe: str, condition: str, parts: Iterable[str] = ()) -> str:
    """The paper sections/tables of a pair's rows, joined with ``; ``."""
    out: list[str] = []
    for r in rules(probe, condition, parts):
        for part in r.source.split("; "):
            if part not in out:
                out.append(part)
    return "; ".join(out)


def populations(items: Iterable[Item], parts: Iterable[str] = ()) -> dict[str, list[str]]:
    """Item ids per population name (the union of the rows carrying it), in file order."""
    items = list(items)
    ctx = Context.of(items, parts)
    by_name: dict[str, list[Rule]] = {}
    for r in rules(parts=ctx.parts):
        by_name.setdefault(r.population, []).append(r)
    return {
        name: [it.id for it in items if any(r.applies(it, ctx) for r in rows)]
        for name, rows in by_name.items()
    }


def population_items(
    items: Iterable[Item], probe: str, condition: str, parts: Iterable[str] = ()
) -> list[str]:
    """Ids of the items ``probe`` runs on under ``condition``, in file order."""
    items = list(items)
    ctx = Context.of(items, parts)
    return [it.id for it in items if applies(probe, condition, it, ctx)]
