"""Look-ups over a seed folder's scene records and fact table (shared by proposer and verifier)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from forgebench.construct.scenes import FactEntity, SceneRecord


def norm(text: str) -> str:
    """Case-folded, whitespace-collapsed text for name and text comparisons."""
    return " ".join(text.casefold().split())


def same_place(a: str, b: str) -> bool:
    """Two place names denote the same place when one contains the other (case-folded):
    ``Cape Canaveral`` matches ``Space Launch Complex 40, Cape Canaveral, Florida``."""
    x, y = norm(a), norm(b)
    return bool(x) and bool(y) and (x in y or y in x)


def box_overlap(inner: Iterable[int], outer: Iterable[int]) -> float:
    """Share of ``inner``'s area that lies inside ``outer`` (0 when ``inner`` is empty)."""
    a0, a1, a2, a3 = inner
    b0, b1, b2, b3 = outer
    area = max(0, a2 - a0) * max(0, a3 - a1)
    if area == 0:
        return 0.0
    w = max(0, min(a2, b2) - max(a0, b0))
    h = max(0, min(a3, b3) - max(a1, b1))
    return w * h / area


@dataclass
class Knowledge:
    """Scene records by id and fact-table entities by id and by every name and alias."""

    scenes: dict[str, SceneRecord]
    facts: dict[str, FactEntity]
    by_name: dict[str, FactEntity] = field(default_factory=dict)

    @classmethod
    def of(cls, scenes: Iterable[SceneRecord], facts: Iterable[FactEntity]) -> Knowledge:
        """Index scene records and entities (a later duplicate name does not shadow an earlier)."""
        fl = list(facts)
        k = cls({s.id: s for s in scenes}, {f.id: f for f in fl})
        for f in fl:
            for n in (f.name, *f.aliases):
                k.by_name.setdefault(norm(n), f)
        return k

    def entity(self, ref_id: str | None, name: str | None = None) -> FactEntity | None:
        """The entity with this id, else the one with this name or alias, else None."""
        if ref_id and ref_id in self.facts:
            return self.facts[ref_id]
        if ref_id:
            return None
        return self.by_name.get(norm(name)) if name else None

    def names_of(self, ent: FactEntity) -> set[str]:
        """Every normalised name of an entity."""
        return {norm(n) for n in (ent.name, *ent.aliases)}

    def person_in_scene(self, scene: SceneRecord, name: str) -> int | None:
        """Index of the recorded person this name (or one of its entity's aliases) denotes."""
        wanted = {norm(name)}
        ent = self.entity(None, name)
        if ent is not None:
            wanted |= self.names_of(ent)
        for i, p in enumerate(scene.people):
            names = {norm(p.name)}
            pe = self.entity(p.entity, p.name)
            if pe is not None:
                names |= self.names_of(pe)
            if names & wanted:
                return i
        return None

    def object_in_scene(self, scene: SceneRecord, name: str) -> int | None:
        """Index of the recorded object with this name (or an alias of its entity)."""
        wanted = norm(name)
        for i, o in enumerate(scene.objects):
            names = {norm(o.name)}
            oe = self.entity(o.entity, o.name)
            if oe is not None:
                names |= self.names_of(oe)
            if wanted in names:
                return i
        return None
