"""Mandela's verification rules, one function per knowledge family (seed 000 Appendix B).

Each rule takes the specification, its scene record and the indexed knowledge, and returns a
:class:`Decision`: accepted with the recorded contradiction (Appendix B's phi, written
"<entity> <relation that fails> <event> (<date>)" as in §3.1's example), or rejected with the rule
name and a one-line reason. Dates compare as intervals (:mod:`.dates`): a
death recorded as ``1986`` does not decide against an event of ``1986-06-29``; such a proposal is
rejected as undecidable rather than guessed.
"""

from __future__ import annotations

from collections.abc import Callable

from forgebench.construct.facts import Knowledge, box_overlap, norm, same_place
from forgebench.construct.scenes import FactEntity, SceneRecord
from forgebench.construct.specs import EditSpec, EditStep
from forgebench.construct.verify import Decision, no, ok
from forgebench.suites.mandela.construct.dates import DateError, interval, surely_before, year_of


def _when(scene: SceneRecord) -> str:
    return f"{scene.event.label} ({scene.event.date})"


def _anchored(spec: EditSpec, k: Knowledge, kind: str | None = None) -> FactEntity | Decision:
    if spec.entity is None:
        return no("unanchored", f"{spec.family} needs an inserted entity with a fact-table entry")
    ent = k.entity(spec.entity.id, spec.entity.name)
    if ent is None:
        return no("unanchored", f"{spec.entity.name!r} has no fact-table entry")
    if kind and ent.kind and ent.kind != kind:
        return no("wrong_kind", f"{ent.name!r} is a {ent.kind}, not a {kind}")
    return ent


def _event_date(scene: SceneRecord) -> str | Decision:
    if not scene.event.date:
        return no("no_event_date", f"scene {scene.id!r} records no event date")
    try:
        interval(scene.event.date)
    except DateError as exc:
        return no("no_event_date", f"scene {scene.id!r}: {exc}")
    return scene.event.date


def _alive(ent: FactEntity, when: str) -> tuple[str, str] | None:
    """('died'|'born', date) when the person surely was not alive on ``when``; None otherwise."""
    if ent.died and surely_before(ent.died, when):
        return "died", ent.died
    if ent.born and surely_before(when, ent.born):
        return "born", ent.born
    return None


def k1_people(spec: EditSpec, scene: SceneRecord, k: Knowledge) -> Decision:
    """K1: date-impossible (dead or not yet born), cross-domain (recorded elsewhere), or
    absent-celebrity (the erased person is recorded in the scene)."""
    if spec.k1_type == "absent_celebrity":
        who = spec.target or (spec.entity.name if spec.entity else None)
        if not who or k.person_in_scene(scene, who) is None:
            return no("k1_erased_not_present", f"{who!r} is not recorded in scene {scene.id!r}")
        name = scene.people[k.person_in_scene(scene, who) or 0].name
        return ok(
            "k1_absent_celebrity",
            f"{name} is recorded in the scene",
            f"{name}, recorded in {_when(scene)}, has been replaced by a synthetic face.",
        )
    ent = _anchored(spec, k, "person")
    if isinstance(ent, Decision):
        return ent
    when = _event_date(scene)
    if isinstance(when, Decision):
        return when
    if k.person_in_scene(scene, ent.name) is not None:
        return no("k1_already_present", f"{ent.name} is recorded as present in {_when(scene)}")
    gone = _alive(ent, when)
    if gone is not None:
        verb, date = gone
        rel = "died in" if verb == "died" else "was born in"
        order = "before" if verb == "died" else "after"
        sentence = f"{ent.name} {rel} {year_of(date)}, {order} {_when(scene)}."
        return ok(f"k1_{'dead' if verb == 'died' else 'unborn'}_at_event", sentence, sentence)
    if spec.k1_type == "cross_domain":
        return _cross_domain(ent, scene, when)
    undecided = (ent.died and not surely_before(when, ent.died)) or (
        ent.born and not surely_before(ent.born, when)
    )
    if undecided:
        return no(
            "k1_undecidable",
            f"{ent.name}'s recorded dates ({ent.born}-{ent.died}) do not decide {when}",
        )
    return no("k1_alive_at_event", f"{ent.name} was alive at {_when(scene)}: no contradiction")


def _cross_domain(ent: FactEntity, scene: SceneRecord, when: str) -> Decision:
    here = scene.event.place
    for p in ent.places:
        place, start, end = p.get("place", ""), p.get("from"), p.get("to")
        covers = (not start or not surely_before(when, start)) and (
            not end or not surely_before(end, when)
        )
        if covers and start and end and place and here and not same_place(place, here):
            s = f"{ent.name} was in {place} ({start} to {end}), not at {_when(scene)}."
            return ok("k1_elsewhere_at_event", s, s)
    return no("k1_no_recorded_whereabouts", f"no whereabouts of {ent.name} contradict {here!r}")


def k2_objects(spec: EditSpec, scene: SceneRecord, k: Knowledge) -> Decision:
    """K2: an object introduced after the event date."""
    ent = _anchored(spec, k)
    if isinstance(ent, Decision):
        return ent
    if not ent.introduced:
        return no("k2_no_introduction_date", f"{ent.name!r} has no recorded introduction date")
    when = _event_date(scene)
    if isinstance(when, Decision):
        return when
    if surely_before(when, ent.introduced):
        s = f"{ent.name} was introduced in {year_of(ent.introduced)}, after {_when(scene)}."
        return ok("k2_introduced_after_event", s, s)
    if surely_before(ent.introduced, when):
        return no("k2_introduced_before_event", f"{ent.name} existed at {_when(scene)}")
    return no("k2_undecidable", f"{ent.name} ({ent.introduced}) does not decide {when}")


def k3_place(spec: EditSpec, scene: SceneRecord, k: Knowledge) -> Decision:
    """K3: a landmark (or an asserted place) that contradicts the recorded place."""
    here = scene.event.place
    if not here:
        return no("k3_no_recorded_place", f"scene {scene.id!r} records no place")
    claimed: str | None = spec.place
    name = spec.entity.name if spec.entity else None
    if claimed is None:
        ent = _anchored(spec, k)
        if isinstance(ent, Decision):
            return ent
        name = ent.name
        claimed = next((p.get("place") for p in ent.places if p.get("place")), None)
        if claimed is None:
            return no("k3_no_recorded_location", f"{ent.name!r} has no recorded location")
    if same_place(claimed, here):
        return no("k3_place_matches_record", f"{claimed!r} is the recorded place {here!r}")
    if spec.place is not None:
        s = (
            f"The image shows {claimed}, which does not match {here}, where "
            f"{scene.event.label} took place ({scene.event.date})."
        )
    else:
        s = f"{name} is in {claimed}, not at {here}, where {scene.event.label} took place ({scene.event.date})."
    return ok("k3_place_contradicts_record", s, s)


def k4_text(spec: EditSpec, scene: SceneRecord, k: Knowledge) -> Decision:
    """K4: visible text that replaces the recorded text."""
    old, new = spec.target, spec.text
    if not old or new is None:
        return no("k4_incomplete", "K4 needs target (the recorded text) and text (the new text)")
    recorded = {norm(t.text): t.text for t in scene.text}
    if norm(old) not in recorded:
        return no("k4_text_not_recorded", f"{old!r} is not recorded text of scene {scene.id!r}")
    if norm(new) == norm(old):
        return no("k4_text_unchanged", f"{new!r} is the recorded text")
    s = f"{new!r} replaces the recorded text {recorded[norm(old)]!r} in {_when(scene)}."
    return ok("k4_text_contradicts_record", s, s)


def k5_attribute(spec: EditSpec, scene: SceneRecord, k: Knowledge) -> Decision:
    """K5: an attribute of a recorded object changed."""
    target = spec.target or (spec.entity.name if spec.entity else None)
    if not target or spec.attribute is None:
        return no("k5_incomplete", "K5 needs target (a recorded object) and attribute")
    i = k.object_in_scene(scene, target)
    if i is None:
        return no("k5_object_not_recorded", f"{target!r} is not a recorded object")
    obj = scene.objects[i]
    have = {norm(a): v for a, v in obj.attributes.items()}
    name = norm(spec.attribute.name)
    if name not in have:
        return no(
            "k5_attribute_not_recorded", f"{obj.name}'s {spec.attribute.name} is not recorded"
        )
    if norm(have[name]) == norm(spec.attribute.value):
        return no("k5_attribute_unchanged", f"{obj.name}'s {name} is recorded as {have[name]}")
    s = (
        f"The {obj.name}'s {spec.attribute.name} in {_when(scene)} was {have[name]}, "
        f"not {spec.attribute.value}."
    )
    return ok("k5_attribute_differs", s, s)


def k6_artwork(spec: EditSpec, scene: SceneRecord, k: Knowledge) -> Decision:
    """K6: the content of a work changed (an element added to or removed from its composition)."""
    if spec.operation == "remove":
        t = spec.target
        if not t or (k.object_in_scene(scene, t) is None and k.person_in_scene(scene, t) is None):
            return no("k6_target_not_recorded", f"{t!r} is not in the recorded composition")
        s = f"The {t} of the canonical composition of {scene.event.label} has been removed."
        return ok("k6_removed_from_composition", s, s)
    if spec.entity is None:
        return no("k6_incomplete", "K6 needs the added element (entity)")
    name = spec.entity.name
    if k.object_in_scene(scene, name) is not None or k.person_in_scene(scene, name) is not None:
        return no("k6_already_in_composition", f"{name!r} is in the recorded composition")
    s = f"{name} is not in the canonical composition of {scene.event.label} ({scene.event.date})."
    return ok("k6_not_in_composition", s, s)


def k0_control(spec: EditSpec, scene: SceneRecord, k: Knowledge) -> Decision:
    """K0: nothing inserted or touched carries a recorded fact (Appendix B's anchor-free rule)."""
    if spec.contradiction:
        return no("k0_has_contradiction", "a K0 control must record no contradiction")
    if spec.entity is not None and (spec.entity.id or k.entity(None, spec.entity.name) is not None):
        return no("k0_anchored", f"{spec.entity.name!r} has a fact-table entry")
    t = spec.target
    if t and spec.operation in ("replace", "remove"):
        i = k.person_in_scene(scene, t)
        if (i is not None and scene.people[i].principal) or k.entity(None, t) is not None:
            return no("k0_touches_recorded", f"{t!r} is a recorded figure: removing it is a fact")
    if spec.operation == "retext" and t and norm(t) in {norm(x.text) for x in scene.text}:
        return no("k0_touches_recorded", f"{t!r} is recorded text")
    if spec.operation == "recolour" and t and spec.attribute:
        i = k.object_in_scene(scene, t)
        if i is not None and norm(spec.attribute.name) in {
            norm(a) for a in scene.objects[i].attributes
        }:
            return no("k0_touches_recorded", f"{t}'s {spec.attribute.name} is recorded")
    return ok("k0_anchor_free", "the edit carries no recorded fact")


def covers_recorded_person(step: EditStep, spec: EditSpec, scene: SceneRecord) -> Decision | None:
    """Single contradiction: an edit that hides a recorded principal figure (half or more of
    their box) it does not target changes a second fact (that person's presence)."""
    if step.region is None or step.operation == "retext":
        return None
    target = norm(spec.target or "")
    for p in scene.people:
        if not p.principal or p.box is None or norm(p.name) == target:
            continue
        if spec.k1_type == "absent_celebrity" or spec.variant in ("erase", "swap"):
            continue
        if box_overlap(p.box, step.region) >= 0.5:
            return no(
                "second_contradiction",
                f"the edit covers {p.name} (recorded present): a second fact would change",
            )
    return None


Rule = Callable[[EditSpec, SceneRecord, Knowledge], Decision]

FAMILY_RULES: dict[str, Rule] = {
    "K0": k0_control,
    "K1": k1_people,
    "K2": k2_objects,
    "K3": k3_place,
    "K4": k4_text,
    "K5": k5_attribute,
    "K6": k6_artwork,
}
"""The rule that decides each knowledge family."""


def verify_mandela(spec: EditSpec, scene: SceneRecord, k: Knowledge) -> Decision:
    """A Mandela specification: it names a family, hides no recorded principal figure it does
    not target, and its family's rule accepts it."""
    if spec.family is None:
        return no("no_family", "a Mandela specification needs a family (K0..K6)")
    for step in spec.all_steps:
        hidden = covers_recorded_person(step, spec, scene)
        if hidden is not None:
            return hidden
    return FAMILY_RULES[spec.family](spec, scene, k)
