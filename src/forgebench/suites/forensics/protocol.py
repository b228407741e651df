"""The Forensics protocol: which probes and conditions a run asks, and ``--sample``.

``MCQ`` under ``full`` on every item by default; the opt-in parts (``--protocol``) add the
robustness conditions of Table 3, true JPEG re-encoding, the attribution probes, the constrained
answers (``choice``: probe ``MCQ_CHOICE`` under ``full``, the MCQ question whose answer the server
constrains to one option letter; :mod:`forgebench.models.choice`), and the prompt
studies (``tiled``, ``multi_image``, ``prefix``, ``face_boxes``); ``tiled`` is also asked on its
own request (``--conditions tiled``). ``--probes`` and ``--conditions`` only narrow that.

``--sample N`` keeps at most N items per type code (the items with the smallest sha256 of their
id: stable, and spread over the whole set), so robustness x 30 stays affordable while every type
code keeps its items.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from forgebench.suites.base import Selection, SuiteError
from forgebench.suites.forensics.ids import ATTR, ATTR_DESC, MCQ, MCQ_CHOICE, TABLE3_KINDS, TILED
from forgebench.suites.forensics.ids import PERTURBATIONS as ROBUST_ALL

if TYPE_CHECKING:
    from forgebench.suites.forensics.contract import ForensicsItem

PARTS: dict[str, str] = {
    "robustness": "Table 3: saturation, contrast, block, noise, blur, pixelate at levels 1-5 (x30)",
    "jpeg": "true JPEG re-encoding at quality 90, 70, 50, 30, 10 (x5)",
    "attribution": "Tables 4 and 13: ATTR and ATTR_DESC on binary-classification forgeries",
    "choice": "MCQ_CHOICE: the MCQ question with the answer constrained to one option letter by "
    "the server (a model's choice_form), beside the free-form MCQ",
    "studies": "Tables 11, 12 and 14: separate images for multi-image rows (and candidate rows "
    "tiled), the forgery-technique prefix and face boxes",
}
ROBUSTNESS = tuple(c for c in ROBUST_ALL if c.rsplit("_", 1)[0] in TABLE3_KINDS)
JPEG = tuple(c for c in ROBUST_ALL if c.startswith("jpeg_"))


def stratified(items: Sequence[ForensicsItem], n: int | None) -> Sequence[ForensicsItem]:
    """At most ``n`` items per type code (smallest sha256 of the id first), in file order; only
    the ids are held while choosing (an :class:`~.contract.ItemFile` stays on disk)."""
    # lazy: the suite core loads this module on every command, --help too (no pydantic there)
    from forgebench.suites.forensics.contract import ItemFile

    if n is None:
        return items
    by_code: dict[str, list[tuple[str, str]]] = {}
    for it in items:
        by_code.setdefault(str(it.type_code), []).append(
            (hashlib.sha256(it.id.encode()).hexdigest(), it.id)
        )
    keep: set[str] = set()
    for group in by_code.values():
        keep.update(iid for _, iid in sorted(group)[:n])
    if isinstance(items, ItemFile):
        return items.only(keep)
    return [it for it in items if it.id in keep]


def protocol(selection: Selection) -> tuple[list[str], list[str]]:
    """The probes and conditions to run: the default, the opt-in parts, then the narrowing."""
    probes = [MCQ]
    conditions = ["full"]
    parts = set(selection.parts)
    if "attribution" in parts:
        probes += [ATTR, ATTR_DESC]
    if "choice" in parts:
        probes.append(MCQ_CHOICE)
    if "robustness" in parts:
        conditions += ROBUSTNESS
    if "jpeg" in parts:
        conditions += JPEG
    if "studies" in parts:
        conditions += [TILED, "multi_image", "prefix", "face_boxes"]
    if selection.probes is not None:
        if MCQ_CHOICE in selection.probes and MCQ_CHOICE not in probes:
            raise SuiteError(f"probe {MCQ_CHOICE} is part of --protocol choice; add it to run it")
        probes = [p for p in probes if p in selection.probes]
    if (
        selection.conditions is not None
        and TILED in selection.conditions
        and TILED not in conditions
    ):
        conditions.insert(1, TILED)  # on request, with any protocol part
    if selection.conditions is not None:
        missing = [c for c in selection.conditions if c not in conditions]
        if missing:
            part = (
                "robustness"
                if missing[0] in ROBUSTNESS
                else "jpeg"
                if missing[0] in JPEG
                else "studies"
            )
            raise SuiteError(
                f"condition {missing[0]} is part of --protocol {part}; add it to run it"
            )
        conditions = [c for c in conditions if c in selection.conditions]
    return probes, conditions
