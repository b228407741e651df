"""Edit specifications: what to change in a seed image, and which recorded fact that contradicts.

One specification per line of a JSONL file (``specs.jsonl``). A Mandela specification names the
knowledge family (seed 000 §3.1, Table 1), the inserted entity and, once verified, the single
recorded contradiction (Appendix B's proposition phi, stored as "<entity> <relation that fails>
<event, date>"). A PIXAR specification names its manipulation type (seed 003 Table 12/14) in
``pixar`` (read by PIXAR's construction parts); multi-edit sequences add ``steps``, applied in
order after the first edit. ``suite`` names the benchmark; reading a file asks that benchmark's
:class:`~forgebench.construct.parts.Construction` to check its own fields.

Boxes are half-open integer pixel boxes ``[x0, y0, x1, y1]`` in the seed image's grid; ``mask``
is a PNG path relative to the seed folder (white = edit). Extra fields are kept.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from forgebench.errors import UserError
from forgebench.util.atomic import atomic_open
from forgebench.util.jsonl import JSONTooDeep, load_json_bounded

Operation = Literal["insert", "replace", "remove", "recolour", "retext", "background"]
"""What an edit does: paste or render something new (``insert``), put something in place of a
recorded element (``replace``), inpaint an element away (``remove``), change a colour
(``recolour``), change visible text (``retext``), change the background (``background``)."""

Family = Literal["K0", "K1", "K2", "K3", "K4", "K5", "K6"]
K1Type = Literal["date_impossible", "cross_domain", "absent_celebrity"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="allow")


class SpecEntity(_Model):
    """The element an edit inserts (or, for absent-celebrity erasures, the person it erases)."""

    name: str
    """Name in words, e.g. ``George Orwell``, ``smartphone``, ``unnamed bystander``."""
    id: str | None = None
    """Fact-table entity id, when the element is anchored (K1-K6); None for a K0 element."""
    aliases: list[str] = Field(default_factory=list)
    """Other names (copied into the item's ``entity.aliases``)."""
    role: str | None = None
    """Where / as what it appears, e.g. ``photographer at the left edge``."""


class SpecAttribute(_Model):
    """K5: the attribute of a recorded object that the edit changes."""

    name: str
    """Attribute name as recorded in the scene's ``objects[].attributes``, e.g. ``colour``."""
    value: str
    """The value after the edit, e.g. ``red``."""


class EditStep(_Model):
    """One edit: operation, where, how, and (PIXAR) its manipulation metadata."""

    operation: Operation
    """What the edit does."""
    region: list[int] | None = None
    """Edit box ``[x0, y0, x1, y1]`` in the seed image (half-open)."""
    mask: str | None = None
    """Mask PNG relative to the seed folder (white = edit), when the editor takes a mask."""
    instruction: str = ""
    """The one-sentence instruction given to the editor."""
    pixar: dict[str, Any] | None = None
    """PIXAR manipulation metadata (type and classes; seed 003 Table 14), as PIXAR's
    construction parts read it."""
    params: dict[str, Any] = Field(default_factory=dict)
    """Editor parameters (the ``local`` editors read theirs here: ``patch``, ``hue``, ...)."""

    @field_validator("region")
    @classmethod
    def _box(cls, v: list[int] | None) -> list[int] | None:
        if v is None:
            return v
        if len(v) != 4 or v[0] >= v[2] or v[1] >= v[3] or min(v) < 0:
            raise ValueError(f"region must be [x0, y0, x1, y1] with x0 < x1, y0 < y1, >= 0: {v}")
        return v


class EditSpec(EditStep):
    """An edit specification of one seed (a proposal until verified)."""

    id: str
    """Specification id (unique in the file; becomes the item id)."""
    seed_id: str
    """The scene record (``scenes.jsonl`` id) of the seed image."""
    suite: str = "mandela"
    """Which benchmark the specification builds for (a registered suite with construction parts;
    the knowledge-family format's ``mandela`` when absent)."""
    family: Family | None = None
    """Mandela knowledge family; ``K0`` is the anchor-free control."""
    control_for: Literal["K1", "K2", "K3", "K4", "K5", "K6"] | None = None
    """K0 only: the family whose specification it controls."""
    k1_type: K1Type | None = None
    """K1 subtype."""
    variant: Literal["erase", "swap", "k0"] | None = None
    """Absent-celebrity triple member."""
    saliency: Literal["C1", "C2", "C3"] | None = None
    """C1 main figure, C2 secondary figure, C3 background."""
    entity: SpecEntity | None = None
    """The inserted element (K1-K3, K6, K0) or the entity whose attribute changes (K5)."""
    target: str | None = None
    """The recorded scene element the edit acts on: a person replaced or erased, an object
    recoloured or removed, the text replaced (as recorded)."""
    attribute: SpecAttribute | None = None
    """K5: the recorded attribute changed and its new value."""
    text: str | None = None
    """K4: the text after the edit."""
    place: str | None = None
    """K3 without a landmark entity: the place the edited image now asserts."""
    contradiction: str | None = None
    """The single recorded contradiction (filled by verification when absent)."""
    steps: list[EditStep] = Field(default_factory=list)
    """PIXAR multi-edit: further edits applied in order after this one."""
    proposer: str | None = None
    """Who proposed it (``rules``, ``replay/FILE``, a model spec)."""

    @property
    def all_steps(self) -> list[EditStep]:
        """This edit and its follow-up steps, in applied order."""
        return [self, *self.steps]


class SpecFileError(UserError):
    """A specification file that cannot be read: one line naming file, line and field."""


def parse_spec(obj: Any, where: str = "spec") -> EditSpec:
    """Validate one specification object (the common fields, then its benchmark's own through
    ``Construction.check_spec``); :class:`SpecFileError` with ``where: field: message``."""
    # inside: circle (parts imports candidate_gates, which imports specs)
    from forgebench.construct.parts import UnknownConstruction, construction_of

    try:
        spec = EditSpec.model_validate(obj)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or "(row)"
        raise SpecFileError(f"{where}: {field}: {err['msg']}") from None
    try:
        construction_of(spec.suite).check_spec(spec)
    except UnknownConstruction as exc:
        raise SpecFileError(f"{where}: suite: {exc}") from None
    except ValueError as exc:
        raise SpecFileError(f"{where}: {exc}") from None
    return spec


def iter_specs(path: Path) -> Iterator[EditSpec]:
    """Read a specification JSONL file; unique ids; :class:`SpecFileError` on the first bad row."""
    seen: set[str] = set()
    try:
        fh = path.open(encoding="utf-8")
    except OSError as exc:
        raise SpecFileError(f"{path}: cannot read ({exc.strerror})") from None
    with fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                obj = load_json_bounded(line)
            except json.JSONDecodeError as exc:
                raise SpecFileError(f"{path.name}:{lineno}: not JSON ({exc.msg})") from None
            except JSONTooDeep as exc:
                raise SpecFileError(f"{path.name}:{lineno}: {exc}") from None
            spec = parse_spec(obj, f"{path.name}:{lineno}")
            if spec.id in seen:
                raise SpecFileError(
                    f"{path.name}:{lineno}: id: duplicate specification id {spec.id!r}"
                )
            seen.add(spec.id)
            yield spec


def load_specs(path: Path) -> list[EditSpec]:
    """All specifications of a JSONL file (see :func:`iter_specs`)."""
    return list(iter_specs(path))


def propose_from_file(path: Path, proposer: str | None = None) -> list[EditSpec]:
    """Specifications from a JSONL file (hand-written, or a model's earlier answers), tagged with
    ``proposer`` (default ``file/NAME``) where they name none."""
    tag = proposer or f"file/{path.name}"
    return [s if s.proposer else s.model_copy(update={"proposer": tag}) for s in load_specs(path)]


def spec_row(spec: BaseModel, **extra: Any) -> dict[str, Any]:
    """A specification (or any model) as a JSON-ready dict without unset optional noise."""
    row = spec.model_dump(mode="json", exclude_none=True, exclude_defaults=False)
    row.update({k: v for k, v in extra.items() if v is not None})
    return row


def write_jsonl(path: Path, rows: Iterable[dict[str, Any]]) -> None:
    """Write rows as JSONL atomically (:func:`forgebench.util.atomic.atomic_open`)."""
    with atomic_open(path, "w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
