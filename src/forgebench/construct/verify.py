"""Verify edit specifications against the scene records and the fact table before rendering.

Seed 000 §3.2: "A multimodal model proposes edit specifications, which are verified against
Wikidata or curated fact tables before rendering." Every specification gets a
:class:`Verification`; accepted ones carry the recorded contradiction (computed here from the
facts, replacing whatever the proposer wrote), rejected ones are kept with their rule and reason
(``rejected.jsonl``) so a builder can see why a proposal was dropped.

Checks common to every specification: the seed has a scene record, the edit region lies inside
the seed image (when the seed folder is given), and the edit does not hide a recorded principal
figure it does not target (Appendix B's single contradiction: the benchmark's rule checks that).
Then the rule of the specification's benchmark (its :class:`~forgebench.construct.parts.
Construction`: Mandela's knowledge-family rules, PIXAR's rule per step).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from PIL import Image
from pydantic import BaseModel

from forgebench.construct.facts import Knowledge
from forgebench.construct.parts import UnknownConstruction, construction_of
from forgebench.construct.scenes import SceneRecord
from forgebench.construct.specs import EditSpec, spec_row


@dataclass(frozen=True)
class Decision:
    """The outcome of one rule."""

    accepted: bool
    rule: str
    """Rule name, e.g. ``k1_dead_at_event`` or ``pixar_consistent``."""
    reason: str
    """One line for people."""
    contradiction: str | None = None
    """The recorded contradiction (accepted knowledge-family specifications)."""


def ok(rule: str, reason: str, contradiction: str | None = None) -> Decision:
    """An accepting decision."""
    return Decision(True, rule, reason, contradiction)


def no(rule: str, reason: str) -> Decision:
    """A rejecting decision."""
    return Decision(False, rule, reason)


class Verification(BaseModel):
    """The verification outcome of one specification (stored with it)."""

    accepted: bool
    """Kept (True) or rejected."""
    rule: str
    """The rule that decided, e.g. ``k1_dead_at_event``, ``k2_introduced_before_event``."""
    reason: str
    """One line for people."""


class Verified(BaseModel):
    """A specification and its verification."""

    spec: EditSpec
    """The specification (``contradiction`` set from the facts when accepted)."""
    verification: Verification
    """The outcome."""

    def row(self) -> dict[str, object]:
        """The JSONL row: the specification's fields plus ``verification``."""
        return spec_row(self.spec, verification=self.verification.model_dump())


def _image_size(root: Path | None, scene: SceneRecord) -> tuple[int, int] | None:
    if root is None:
        return None
    try:
        with Image.open(root / scene.image) as im:
            return im.size
    except OSError:
        return None


def _decide(spec: EditSpec, k: Knowledge, root: Path | None) -> Decision:
    scene = k.scenes.get(spec.seed_id)
    if scene is None:
        return no("unknown_seed", f"no scene record {spec.seed_id!r}")
    size = _image_size(root, scene)
    if root is not None and size is None:
        return no("seed_image_unreadable", f"cannot read seed image {scene.image!r}")
    for step in spec.all_steps:
        if size and step.region and (step.region[2] > size[0] or step.region[3] > size[1]):
            return no("region_outside_image", f"region {step.region} exceeds {size[0]}x{size[1]}")
        if root is not None and step.mask and not (root / step.mask).is_file():
            return no("mask_missing", f"mask {step.mask!r} not found in the seed folder")
    try:
        parts = construction_of(spec.suite)
    except UnknownConstruction as exc:
        return no("unknown_benchmark", str(exc))
    return parts.verify(spec, scene, k)


def verify_spec(spec: EditSpec, k: Knowledge, seed_root: Path | None = None) -> Verified:
    """Verify one specification; the benchmark decides what an accepted one keeps (Mandela: the
    computed contradiction)."""
    d = _decide(spec, k, seed_root)
    out = construction_of(spec.suite).accepted(spec, d) if d.accepted else spec
    return Verified(
        spec=out, verification=Verification(accepted=d.accepted, rule=d.rule, reason=d.reason)
    )


def verify_specs(
    specs: Iterable[EditSpec], k: Knowledge, seed_root: Path | None = None
) -> tuple[list[Verified], list[Verified]]:
    """(accepted, rejected), both in input order."""
    acc: list[Verified] = []
    rej: list[Verified] = []
    for s in specs:
        v = verify_spec(s, k, seed_root)
        (acc if v.verification.accepted else rej).append(v)
    return acc, rej
