"""The Mandela dataset contract (seed 000; DESIGN.md "Mandela dataset folder").

A dataset folder holds ``items.jsonl`` (one :class:`Item` per line), the images it names
(paths relative to the folder) and an optional ``kb.jsonl`` of :class:`KBEntity` rows.
Extra fields are kept, never rejected (``extra="allow"``).

This module holds the types and a strict loader. ``forgebench validate`` (``validate.py``)
reports every problem of a folder; :func:`load_dataset` assumes a valid folder and raises
:class:`DatasetError` with the first problem otherwise.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from forgebench.errors import UserError
from forgebench.util.atomic import atomic_open
from forgebench.util.jsonl import iter_jsonl
from forgebench.util.paths import outside_reason

Label = Literal["forged", "authentic"]
Family = Literal["K0", "K1", "K2", "K3", "K4", "K5", "K6"]
ControlFamily = Literal["K1", "K2", "K3", "K4", "K5", "K6"]
K1Type = Literal["date_impossible", "cross_domain", "absent_celebrity"]
TripleVariant = Literal["erase", "swap", "k0"]
Domain = Literal["A1", "A2", "A3", "A4", "A5", "A6"]
Saliency = Literal["C1", "C2", "C3"]
Box = tuple[int, int, int, int]

FAMILIES: tuple[str, ...] = ("K0", "K1", "K2", "K3", "K4", "K5", "K6")
DOMAINS: dict[str, str] = {
    "A1": "historical photograph",
    "A2": "film still",
    "A3": "sports",
    "A4": "painting",
    "A5": "political news",
    "A6": "meme template",
}
SALIENCIES: dict[str, str] = {"C1": "main figure", "C2": "secondary figure", "C3": "background"}


class _Model(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)


class Edit(_Model):
    """The edit that turned the seed into this forgery."""

    operation: str
    """What was done: ``insert``, ``replace``, ``remove``, ``recolour``, ``retext``, ..."""
    region: Box
    """Pixel box ``[x0, y0, x1, y1]`` (half-open) of the edit in the stored image."""
    instruction: str = ""
    """The one-sentence instruction given to the editor."""


class Event(_Model):
    """The true event the canonical image shows (captions and the TEXT probe use it)."""

    label: str
    """Event name, e.g. ``1986 World Cup final: Maradona lifts the trophy``."""
    date: str
    """Date as written in captions, e.g. ``1986-06-29``."""
    place: str | None = None
    """Where it happened."""


class WrongEvent(_Model):
    """Another same-era event of the same domain, for the wrong-caption control (Appendix J)."""

    label: str
    """Event name of the wrong caption."""
    date: str
    """Date of the wrong caption."""


class Entity(_Model):
    """The inserted / erased / replaced / anomalous entity of a forgery."""

    name: str
    """Canonical name, e.g. ``George Orwell``."""
    aliases: list[str] = Field(default_factory=list)
    """Other names that identify the entity (word-boundary, case-folded matching)."""
    role: str | None = None
    """Role or position in the scene, e.g. ``photographer at the left edge``."""


class Erased(_Model):
    """Absent-celebrity items: the public figure who was erased (the FACE probe's ``{name}``)."""

    name: str
    """Canonical name of the erased person."""
    aliases: list[str] = Field(default_factory=list)
    """Other names of the erased person."""


class Faces(_Model):
    """Face boxes for the FACE probe (Appendix N)."""

    original: Box
    """Face box in ``original_image``."""
    replacement: Box
    """Face box of the synthetic replacement in the item's image."""
    original_image: str
    """The untouched seed image, relative to the dataset folder."""
    wrong_name: str | None = None
    """Optional name of a different person, for a wrong-name control."""


FACE_BORDER = 0.05
"""An item is threshold-borderline when its face similarity lies within this of the threshold
(seed 000 Table 15: "within +-0.05"; inclusive)."""


class FaceSimilarity(_Model):
    """The identity gate's face-similarity score (seed 000 Appendix C; Table 15).

    The paper's scores are InsightFace buffalo_l (ArcFace) cosine similarities, with thresholds
    0.35 (a named insertion must reach it) and 0.30 (an absent-celebrity replacement must stay
    below it). Another face model has another scale, so the threshold and the model travel with
    the value.
    """

    value: float = Field(allow_inf_nan=False)
    """The similarity between the face in the image and the reference portrait."""
    threshold: float = Field(allow_inf_nan=False)
    """The acceptance threshold the gate applied, on the same model's scale."""
    model: str = Field(min_length=1)
    """The face model that produced both, e.g. ``insightface/buffalo_l``."""

    @property
    def borderline(self) -> bool:
        """True when ``|value - threshold| <= FACE_BORDER`` (Table 15's "border" items)."""
        return abs(self.value - self.threshold) <= FACE_BORDER + 1e-12


class Source(_Model):
    """Provenance of the seed image."""

    url: str | None = None
    """Where the seed came from."""
    license: str | None = None
    """Licence of the seed."""


class Item(_Model):
    """One benchmark item: a forgery, an anchor-free control or an untouched original."""

    id: str
    """Unique item id."""
    seed_id: str
    """The canonical image this item comes from; all items of one seed share it."""
    image: str
    """Image path relative to the dataset folder."""
    label: Label
    """``forged`` or ``authentic``."""
    family: Family | None = None
    """Knowledge family K0..K6 (forged only; K0 is the anchor-free control)."""
    control_for: ControlFamily | None = None
    """K0 only: the family of the edit specification it controls (Table 10)."""
    k1_type: K1Type | None = None
    """People-family subtype."""
    variant: TripleVariant | None = None
    """Absent-celebrity triple member (``erase``, ``swap``, ``k0``); triples share ``seed_id``."""
    domain: Domain
    """A1 historical photograph .. A6 meme template."""
    noun: str
    """Domain noun used in every prompt (``photograph``, ``painting``, ``film still``)."""
    saliency: Saliency | None = None
    """C1 main figure, C2 secondary figure, C3 background."""
    edit: Edit | None = None
    """The edit (forged items)."""
    crop: Box | None = None
    """The de-recognition crop box; contains the edit region."""
    event: Event
    """The true event."""
    wrong_event: WrongEvent | None = None
    """Event of the wrong-caption control."""
    entity: Entity | None = None
    """The inserted / erased / replaced / anomalous entity."""
    contradiction: str | None = None
    """The recorded contradiction."""
    erased: Erased | None = None
    """Absent-celebrity: who was erased."""
    faces: Faces | None = None
    """FACE probe boxes."""
    principal_figures: list[str] = Field(default_factory=list)
    """Named people of the scene, for the identity probe (L2)."""
    source: Source | None = None
    """Provenance."""
    footprint: float | None = Field(default=None, ge=0.0, le=1.0, allow_inf_nan=False)
    """Fraction of pixels changed outside the annotated region, from the recorded edit box
    (Appendix L; Table 20's "recorded" footprint)."""
    footprint_measured: float | None = Field(default=None, ge=0.0, le=1.0, allow_inf_nan=False)
    """The same fraction from the largest connected component of the observed pixel difference
    (Table 20's "measured" footprint)."""
    npr_score: float | None = Field(default=None, allow_inf_nan=False)
    """NPR pixel-detector score of the image (Appendix C audit; a Table 20 covariate)."""
    ufd_score: float | None = Field(default=None, allow_inf_nan=False)
    """UniversalFakeDetect score of the image (Appendix C audit; a Table 20 covariate)."""
    face_similarity: FaceSimilarity | None = None
    """The identity gate's face similarity (Table 15's "no border" columns)."""

    @property
    def is_forged(self) -> bool:
        """True for forged items (K0 controls included)."""
        return self.label == "forged"

    @property
    def is_peripheral(self) -> bool:
        """Forged with saliency C2 or C3 (DESIGN.md conventions)."""
        return self.is_forged and self.saliency in ("C2", "C3")

    @property
    def analysis_family(self) -> str | None:
        """The family for family-level analyses: K0 controls count under ``control_for`` (Table 10)."""
        if self.family == "K0" and self.control_for:
            return self.control_for
        return self.family


class KBEntity(_Model):
    """A knowledge-base entity (``kb.jsonl``)."""

    id: str
    """Entity id (e.g. a Wikidata QID)."""
    name: str
    """Canonical name."""
    aliases: list[str] = Field(default_factory=list)
    """Other names."""
    born: str | None = None
    """Birth date (people)."""
    died: str | None = None
    """Death date (people)."""
    introduced: str | None = None
    """First appearance (objects, logos, technologies)."""


class DatasetError(UserError):
    """A dataset folder that cannot be loaded; the message names file, line and field."""


@dataclass
class Dataset:
    """A loaded Mandela dataset folder."""

    root: Path
    items: list[Item]
    kb: list[KBEntity] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._by_id = {it.id: it for it in self.items}

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[Item]:
        return iter(self.items)

    def get(self, item_id: str) -> Item:
        """The item with this id; ``KeyError`` names it otherwise."""
        try:
            return self._by_id[item_id]
        except KeyError:
            raise KeyError(f"no item {item_id!r} in {self.root}") from None

    def image_path(self, item: Item) -> Path:
        """Absolute path of the item's image."""
        return self.root / item.image

    def by_seed(self) -> dict[str, list[Item]]:
        """Items grouped by ``seed_id``, in file order."""
        out: dict[str, list[Item]] = {}
        for it in self.items:
            out.setdefault(it.seed_id, []).append(it)
        return out


def _load_models(path: Path, model: type[_Model]) -> list[Any]:
    from pydantic import ValidationError

    out = []
    for lineno, obj, err in iter_jsonl(path):
        if err is not None:
            raise DatasetError(f"{path.name}:{lineno}: {err}")
        try:
            out.append(model.model_validate(obj))
        except ValidationError as exc:
            first = exc.errors()[0]
            loc = ".".join(str(p) for p in first["loc"]) or "-"
            raise DatasetError(f"{path.name}:{lineno}: {loc}: {first['msg']}") from None
    return out


def load_dataset(root: str | Path) -> Dataset:
    """Load a Mandela dataset folder (``items.jsonl`` + optional ``kb.jsonl``)."""
    root = Path(root)
    items_path = root / "items.jsonl"
    if not items_path.is_file():
        raise DatasetError(f"{items_path}: not found (a dataset folder holds items.jsonl)")
    items = _load_models(items_path, Item)
    kb_path = root / "kb.jsonl"
    kb = _load_models(kb_path, KBEntity) if kb_path.is_file() else []
    _check_items(root, items)
    return Dataset(root=root.resolve(), items=items, kb=kb)


def sample_seeds(ds: Dataset, n: int | None) -> Dataset:
    """The dataset cut to the items of its first ``n`` seeds (in file order), so paired analyses
    (a forgery and its original) stay complete; all of it when ``n`` is None."""
    if n is None:
        return ds
    keep = set(list(dict.fromkeys(it.seed_id for it in ds.items))[:n])
    return Dataset(root=ds.root, items=[it for it in ds.items if it.seed_id in keep], kb=ds.kb)


def _check_items(root: Path, items: list[Item]) -> None:
    """Refuse duplicate ids and image paths that leave the folder (links resolved)."""
    seen: set[str] = set()
    for it in items:
        if it.id in seen:
            raise DatasetError(f"items.jsonl: duplicate item id {it.id!r}")
        seen.add(it.id)
        paths = [("image", it.image)]
        if it.faces is not None:
            paths.append(("faces.original_image", it.faces.original_image))
        for name, rel in paths:
            why = outside_reason(root, rel)
            if why is not None:
                raise DatasetError(f"items.jsonl: item {it.id!r}: {name}: {why}")


def write_items(path: Path, items: list[Item]) -> None:
    """Write items as JSONL (atomically, ``util.atomic``)."""
    with atomic_open(path, "w") as fh:
        for it in items:
            fh.write(json.dumps(it.model_dump(mode="json", exclude_none=False), ensure_ascii=False))
            fh.write("\n")
