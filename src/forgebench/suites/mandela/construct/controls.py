"""K0 anchor-free controls for the same seeds (seed 000 Appendix B).

"The anchor-free control (K0) is (s, e', bottom): it uses the same seed and class of edit, but the
inserted element carries no proposition in F(s), so no recorded fact changes truth value."
:func:`control_for` derives one control per accepted knowledge-family specification: same seed,
operation, region, mask, saliency and editor parameters; the inserted element replaced by an
unnamed one of the same class (an unnamed person for K1, an ordinary object for K2, ...), and
``control_for`` set to the family it controls (Table 10). The control is itself verified (K0
rule) before it is kept, so a control that would touch a recorded fact is rejected like any other.

Choices that are ours (the seed names the rule, not the wording): the anchor-free elements below;
a specification whose edit acts on a recorded element (replace, remove, recolour, retext) is
controlled by the same operation on an unrecorded element named in ``params["control"]`` (e.g.
``{"target": "floodlight", "name": "floodlight", "instruction": "..."}``, Table 1's "unnamed
person swapped"); without one its control inserts the anchor-free element in the same region.
"""

from __future__ import annotations

from typing import Any

from forgebench.construct.specs import EditSpec, SpecEntity

ANCHOR_FREE: dict[str, tuple[str, str]] = {
    "K1": ("unnamed person", "an unnamed person"),
    "K2": ("ordinary object", "an ordinary object of the period"),
    "K3": ("unremarkable scenery", "unremarkable scenery that fits the recorded place"),
    "K4": ("unrecorded text", "an unremarkable word"),
    "K5": ("unrecorded detail", "an unrecorded detail"),
    "K6": ("incidental detail", "an incidental detail"),
}
"""Per family: the anchor-free element's name and its phrase in the instruction (ours)."""


def control_for(spec: EditSpec, suffix: str = "k0") -> EditSpec | None:
    """The K0 control of a knowledge-family specification (None for K0 and PIXAR specs).

    The control of an absent-celebrity erasure is the triple's ``k0`` member.
    """
    if spec.suite != "mandela" or spec.family in (None, "K0"):
        return None
    fam = spec.family
    assert fam is not None
    name, phrase = ANCHOR_FREE[fam]
    custom: dict[str, Any] = dict(spec.params.get("control", {}))
    role = spec.entity.role if spec.entity else None
    update: dict[str, Any] = {
        "id": f"{spec.id}-{suffix}",
        "family": "K0",
        "control_for": fam,
        "k1_type": None,
        "contradiction": None,
        "attribute": None,
        "text": None,
        "place": None,
        "proposer": spec.proposer,
        "params": {k: v for k, v in spec.params.items() if k != "control"}
        | custom.get("params", {}),
    }
    update["variant"] = "k0" if spec.variant == "erase" else None
    op, target = spec.operation, custom.get("target")
    if target:
        if fam == "K4":
            update["text"] = custom.get("text", "OPEN")
    elif op != "insert":
        # without an unrecorded element to act on, the same region gets an ordinary insert
        op = "insert"
    update["target"] = target
    update["operation"] = op
    update["entity"] = SpecEntity(name=custom.get("name", name), role=role)
    update["instruction"] = custom.get("instruction") or _instruction(spec, phrase)
    return spec.model_copy(update=update, deep=True)


def _instruction(spec: EditSpec, phrase: str) -> str:
    """The control's instruction: the original's, with the named element swapped for ``phrase``."""
    text = spec.instruction
    if spec.entity and spec.entity.name and spec.entity.name in text:
        return text.replace(spec.entity.name, phrase)
    where = f" ({spec.entity.role})" if spec.entity and spec.entity.role else ""
    return f"Add {phrase}{where}."
