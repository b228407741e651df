"""PIXAR's verification rule of a specification step (seed 003 Table 12 / 14): the manipulation
type matches the operation, its classes are PIXAR (COCO) classes, the edited object is annotated
in the image, and an inter-class replacement changes the class."""

from __future__ import annotations

from forgebench.construct.facts import box_overlap
from forgebench.construct.scenes import SceneRecord
from forgebench.construct.specs import EditSpec, EditStep
from forgebench.construct.verify import Decision, no, ok
from forgebench.suites.pixar.taxonomy import Edit, Primitive, canonical_class


def pixar_edit(step: EditStep) -> Edit | None:
    """The step's PIXAR manipulation metadata (``pixar``), parsed; None when it has none."""
    return None if step.pixar is None else Edit.model_validate(step.pixar)


_PIXAR_OPS: dict[Primitive, tuple[str, ...]] = {
    Primitive.REMOVAL: ("remove",),
    Primitive.ADDITION: ("insert",),
    Primitive.INTRA_CLASS_REPLACEMENT: ("replace",),
    Primitive.INTER_CLASS_REPLACEMENT: ("replace",),
    Primitive.COLOR_CHANGE: ("recolour",),
    Primitive.BACKGROUND_CHANGE: ("background",),
}


def pixar_step(step: EditStep, scene: SceneRecord) -> Decision:
    """PIXAR: the manipulation type matches the operation, its classes are PIXAR classes, the
    edited object is annotated in the image (at the region, when given), and an inter-class
    replacement changes the class."""
    e = pixar_edit(step)
    if e is None:
        return no("pixar_no_manipulation", "a PIXAR specification needs pixar (type and classes)")
    ops = _PIXAR_OPS.get(e.primitive)
    if ops is not None and step.operation not in ops:
        return no("pixar_operation_mismatch", f"{e.primitive.value} is not a {step.operation}")
    for f in ("orig", "repl", "cat"):
        v = getattr(e, f)
        if v and canonical_class(v) is None:
            return no("pixar_unknown_class", f"{v!r} is not a PIXAR (COCO) class")
    if e.primitive == Primitive.INTER_CLASS_REPLACEMENT and canonical_class(
        e.orig or ""
    ) == canonical_class(e.repl or ""):
        return no("pixar_same_class", f"inter-class replacement keeps the class {e.orig!r}")
    edited = e.orig if e.primitive != Primitive.COLOR_CHANGE else e.cat
    if (
        e.primitive in (*_PIXAR_OPS, Primitive.COLOR_CHANGE)
        and edited
        and e.primitive
        not in (
            Primitive.ADDITION,
            Primitive.BACKGROUND_CHANGE,
        )
    ):
        cls = canonical_class(edited)
        hits = [o for o in scene.objects if canonical_class(o.name) == cls]
        if step.region is not None:
            hits = [o for o in hits if o.box is None or box_overlap(o.box, step.region) > 0]
        if not hits:
            return no("pixar_object_not_annotated", f"no annotated {edited!r} at the edit region")
    return ok("pixar_consistent", f"{e.primitive.value} of an annotated object")


def verify_pixar(spec: EditSpec, scene: SceneRecord) -> Decision:
    """Every step of a PIXAR specification passes :func:`pixar_step` (the first failing decides)."""
    d = no("pixar_no_manipulation", "a PIXAR specification needs pixar (type and classes)")
    for step in spec.all_steps:
        d = pixar_step(step, scene)
        if not d.accepted:
            return d
    return d
