"""Mandela's offline proposer: rules over the fact table.

The rules proposer turns what the seed folder records into candidate edit specifications (seed
000 §3.2 uses a multimodal model for this; offline, the fact table itself suggests them):

- K1 (date-impossible): a person of the fact table who was dead or not yet born at the event,
  inserted in a ``person`` slot of the scene;
- K2: an object introduced after the event, in an ``object`` slot;
- K3: a landmark whose recorded location is not the event's place, in a ``scenery`` slot;
- K4: recorded text that is the name of a fact-table entity, replaced by the name of another
  entity of the same kind (e.g. one host city by another);
- K5: a recorded colour of an object, changed to the first colour of :data:`PALETTE` that differs;
- K1 absent-celebrity: a recorded principal figure with a face box and a fact-table entry, erased.

Proposals are candidates: every one goes through :mod:`forgebench.construct.verify`, and the
proposer never writes a contradiction. Entities and slots are taken in file order; ``per_family``
limits how many proposals one scene gets per family (the first ones).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from forgebench.construct.facts import Knowledge, norm, same_place
from forgebench.construct.scenes import FactEntity, SceneRecord, SceneSlot
from forgebench.construct.specs import EditSpec, SpecAttribute, SpecEntity
from forgebench.suites.mandela.construct.dates import DateError, surely_before

PALETTE = ("red", "blue", "green", "yellow", "white", "black")
"""Colours a K5 proposal recolours to (in this order of preference; ours)."""

HUES = {"red": 0.0, "yellow": 55.0, "green": 120.0, "blue": 220.0}
"""Hue in degrees for the ``local/recolour`` editor's ``hue`` parameter."""


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-")[:40] or "x"


def _slots(scene: SceneRecord, kind: str) -> list[SceneSlot]:
    return [s for s in scene.slots if s.kind in (kind, "any")]


def _spec(scene: SceneRecord, fam: str, key: str, **kw: object) -> EditSpec:
    return EditSpec.model_validate(
        {"id": f"{scene.id}-{fam.lower()}-{_slug(key)}", "seed_id": scene.id, "family": fam}
        | {"proposer": "rules"}
        | {k: v for k, v in kw.items() if v is not None}
    )


def _not_alive(p: FactEntity, when: str) -> bool:
    try:
        return bool(
            (p.died and surely_before(p.died, when)) or (p.born and surely_before(when, p.born))
        )
    except DateError:
        return False


def _introduced_after(o: FactEntity, when: str) -> bool:
    try:
        return bool(o.introduced and surely_before(when, o.introduced))
    except DateError:
        return False


def _insertions(scene: SceneRecord, k: Knowledge, per: int) -> Iterator[EditSpec]:
    when = scene.event.date
    if not when:
        return
    people = [f for f in k.facts.values() if f.kind == "person" and _not_alive(f, when)]
    people = [p for p in people if k.person_in_scene(scene, p.name) is None]
    objects = [f for f in k.facts.values() if f.kind != "person" and _introduced_after(f, when)]
    here = scene.event.place or ""
    places = [
        f
        for f in k.facts.values()
        if f.kind == "place" and f.places and here and not same_place(f.places[0]["place"], here)
    ]
    for fam, kind, ents in (
        ("K1", "person", people),
        ("K2", "object", objects),
        ("K3", "scenery", places),
    ):
        slots = _slots(scene, kind)
        for ent, slot in list(zip(ents, slots * per, strict=False))[:per]:
            yield _spec(
                scene,
                fam,
                ent.name,
                operation="insert",
                region=slot.box,
                saliency=slot.saliency,
                k1_type="date_impossible" if fam == "K1" else None,
                entity=SpecEntity(id=ent.id, name=ent.name, aliases=ent.aliases, role=slot.role),
                instruction=f"Add {ent.name} {slot.role or 'in the marked region'}, matching the "
                f"{scene.noun or 'image'}'s era, medium and lighting.",
                params={"portraits": ent.portraits} if ent.portraits else {},
            )


def _retexts(scene: SceneRecord, k: Knowledge, per: int) -> Iterator[EditSpec]:
    n = 0
    for t in scene.text:
        ent = k.entity(None, t.text)
        if ent is None or t.box is None or n >= per:
            continue
        other = next(
            (
                f
                for f in k.facts.values()
                if f.kind == ent.kind and f.id != ent.id and norm(f.name) != norm(t.text)
            ),
            None,
        )
        if other is None:
            continue
        n += 1
        new = other.name.upper() if t.text.isupper() else other.name
        yield _spec(
            scene,
            "K4",
            t.text,
            operation="retext",
            region=t.box,
            saliency="C3",
            target=t.text,
            text=new,
            instruction=f"Change the text {t.text!r} to {new!r} in the same lettering.",
        )


def _recolours(scene: SceneRecord, per: int) -> Iterator[EditSpec]:
    n = 0
    for o in scene.objects:
        colour = o.attributes.get("colour") or o.attributes.get("color")
        if not colour or o.box is None or n >= per:
            continue
        new = next(c for c in PALETTE if c != norm(colour))
        n += 1
        yield _spec(
            scene,
            "K5",
            f"{o.name}-{new}",
            operation="recolour",
            region=o.box,
            saliency="C1",
            target=o.name,
            entity=SpecEntity(name=o.name, id=o.entity),
            attribute=SpecAttribute(name="colour", value=new),
            instruction=f"Recolour the {colour} {o.name} {new}.",
            params={"hue": HUES[new]} if new in HUES else {},
        )


def _erasures(scene: SceneRecord, k: Knowledge, per: int) -> Iterator[EditSpec]:
    n = 0
    for p in scene.people:
        ent = k.entity(p.entity, p.name)
        if not p.principal or p.box is None or ent is None or n >= per:
            continue
        n += 1
        yield _spec(
            scene,
            "K1",
            f"erase-{p.name}",
            operation="replace",
            region=p.box,
            saliency="C1",
            k1_type="absent_celebrity",
            variant="erase",
            target=p.name,
            entity=SpecEntity(id=ent.id, name=ent.name, aliases=ent.aliases, role=p.position),
            instruction=f"Replace {p.name}'s face with a synthetic face of a non-existent person.",
        )


def propose_rules(k: Knowledge, per_family: int = 1) -> list[EditSpec]:
    """Candidate specifications for every scene (unverified), in scene order."""
    out: list[EditSpec] = []
    for scene in k.scenes.values():
        out += _insertions(scene, k, per_family)
        out += _retexts(scene, k, per_family)
        out += _recolours(scene, per_family)
        out += _erasures(scene, k, per_family)
    return out
