"""Scene records and the fact table: what a benchmark builder (and the knowledge verifier) knows.

A *seed folder* holds the canonical images a benchmark is built from, and two JSONL files:

- ``scenes.jsonl``: one :class:`SceneRecord` per canonical image (seed 000 §3.1: "canonical image
  -> event, date, place, people present with positions, objects, visible text");
- ``kb.jsonl``: the fact table, one entity per line (the Mandela dataset's ``kb.jsonl`` rows,
  :class:`FactEntity`, with the optional fields below added).

The construction pipeline (``forgebench propose`` / ``build``) reads both to propose and verify
edit specifications; ``builtin/verifier`` reads the same two files as its knowledge base. Boxes are
half-open integer pixel boxes ``[x0, y0, x1, y1]`` in the canonical image's pixel grid, as in the
dataset contract (DESIGN.md). Dates are ISO strings, ``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from forgebench.errors import UserError
from forgebench.util.jsonl import iter_jsonl

SCENES_FILE = "scenes.jsonl"
KB_FILE = "kb.jsonl"


class _Model(BaseModel):
    model_config = ConfigDict(extra="allow")


class ScenePerson(_Model):
    """A person present in the canonical scene."""

    name: str
    """Canonical name (matches a fact-table entity's ``name``)."""
    entity: str | None = None
    """Fact-table entity id, when the person is in ``kb.jsonl``."""
    box: list[int] | None = None
    """Where the person (or their face) is, ``[x0, y0, x1, y1]``."""
    position: str | None = None
    """Position in words, e.g. ``left of centre, seated``."""
    role: str | None = None
    """Role in the scene, e.g. ``signatory``."""
    principal: bool = True
    """A principal figure of the scene (its absence is noticeable; Mandela's L2 probe)."""


class SceneObject(_Model):
    """An object present in the canonical scene."""

    name: str
    """Object name, e.g. ``flag``, ``microphone``."""
    entity: str | None = None
    """Fact-table entity id (for dated objects, logos, technologies)."""
    box: list[int] | None = None
    """Where it is."""
    attributes: dict[str, str] = Field(default_factory=dict)
    """Recorded attributes, e.g. ``{"colour": "red"}`` (an edit that changes one contradicts the
    record)."""


class SceneText(_Model):
    """Visible text in the canonical scene."""

    text: str
    """The text as written."""
    box: list[int] | None = None
    """Where it is."""


class SceneEvent(_Model):
    """The true event the canonical image records."""

    label: str
    """E.g. ``Apollo 11 Moon landing``."""
    date: str | None = None
    """ISO date (``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD``)."""
    place: str | None = None
    """Where it happened."""


class SceneSlot(_Model):
    """A place in the composition where a peripheral edit is possible (seed 000 Appendix C:
    "an annotated composition ... determines where peripheral edits are possible")."""

    box: list[int]
    """Where an inserted element may go, ``[x0, y0, x1, y1]``."""
    kind: str = "any"
    """What fits there: ``person``, ``object``, ``scenery`` or ``any``."""
    saliency: str = "C2"
    """``C2`` secondary figure or ``C3`` background (Mandela saliency of an edit there)."""
    role: str | None = None
    """The slot in words, e.g. ``among the photographers at the left edge``."""


class SceneRecord(_Model):
    """One canonical image and what is recorded about it."""

    id: str
    """The seed id (Mandela items of this scene share it as ``seed_id``)."""
    image: str
    """The canonical image, relative to the seed folder."""
    event: SceneEvent
    """The event it records."""
    domain: str | None = None
    """``A1``..``A6`` (Mandela domains)."""
    noun: str | None = None
    """``photograph``, ``painting``, ``film still``, ..."""
    people: list[ScenePerson] = Field(default_factory=list)
    """People present, with positions."""
    objects: list[SceneObject] = Field(default_factory=list)
    """Objects present."""
    text: list[SceneText] = Field(default_factory=list)
    """Visible text."""
    slots: list[SceneSlot] = Field(default_factory=list)
    """Where peripheral insertions are possible (construction only; optional)."""


class FactEntity(_Model):
    """A fact-table entity (a ``kb.jsonl`` row); the Mandela ``KBEntity`` fields plus optional ones."""

    id: str
    """Entity id (e.g. a Wikidata QID)."""
    name: str
    """Canonical name."""
    aliases: list[str] = Field(default_factory=list)
    """Other names."""
    kind: str | None = None
    """``person``, ``object``, ``place``, ``organisation``, ``text`` ... (free text)."""
    born: str | None = None
    """Birth date (people)."""
    died: str | None = None
    """Death date (people)."""
    introduced: str | None = None
    """First appearance (objects, logos, technologies)."""
    places: list[dict[str, str]] = Field(default_factory=list)
    """Known whereabouts: ``{"place": ..., "from": date, "to": date}`` (either bound optional)."""
    portraits: list[str] = Field(default_factory=list)
    """Reference portraits (paths relative to the seed folder / KB folder), for face identity."""


class SceneError(UserError):
    """A scene or fact file that cannot be read; one line naming file, line and field."""


def _iter_rows(path: Path) -> Iterator[tuple[int, dict[str, object]]]:
    try:
        for lineno, obj, err in iter_jsonl(path):
            if obj is None:
                err = err or "unreadable"
                if err.startswith("invalid JSON: "):
                    err = f"not JSON ({err.removeprefix('invalid JSON: ')})"
                raise SceneError(f"{path.name}:{lineno}: {err}")
            yield lineno, obj
    except OSError as exc:
        raise SceneError(f"{path.name}: cannot read ({exc.strerror or exc})") from None


def _load(path: Path, model: type[_Model]) -> list[_Model]:
    out: list[_Model] = []
    for lineno, obj in _iter_rows(path):
        try:
            out.append(model.model_validate(obj))
        except ValidationError as exc:
            err = exc.errors()[0]
            field = ".".join(str(p) for p in err["loc"]) or "(row)"
            raise SceneError(f"{path.name}:{lineno}: {field}: {err['msg']}") from None
    return out


def load_scenes(path: Path) -> list[SceneRecord]:
    """Read ``scenes.jsonl`` (a file, or a folder holding one); :class:`SceneError` on a bad row."""
    path = path / SCENES_FILE if path.is_dir() else path
    rows = _load(path, SceneRecord)
    seen: set[str] = set()
    for r in rows:
        assert isinstance(r, SceneRecord)
        if r.id in seen:
            raise SceneError(f"{path.name}: id: duplicate scene id {r.id!r}")
        seen.add(r.id)
    return [r for r in rows if isinstance(r, SceneRecord)]


def load_facts(path: Path) -> list[FactEntity]:
    """Read ``kb.jsonl`` (a file, or a folder holding one) as fact-table entities."""
    path = path / KB_FILE if path.is_dir() else path
    return [r for r in _load(path, FactEntity) if isinstance(r, FactEntity)]
