"""PIXAR taxonomy: edit primitives x semantic classes, and tampering descriptions (seed 003).

The taxonomy pairs an *edit primitive* (what was done: replace / remove / add / splice / inpaint /
attribute / colourization, ...; seed 003 abstract, Table 12) with the *semantic class* of the
tampered object: one of the 80 COCO classes, or ``background`` (81 classes in all, indexed as in
PIXAR's public release, background = 80).

Descriptions follow seed 003 Table 14: structured metadata is mapped deterministically to one
sentence per edit, and a multi-edit sample is described by concatenating its single-edit
sentences in the order the edits were applied (joined by one space). The six templates of Table 14
are reproduced verbatim (including their fixed article "a"/"A"); the remaining primitives
(attribute edit, splice, inpaint, colourization) have no template in the seed, and the sentences
given for them here are ours, written in the same style.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum

from pydantic import BaseModel, model_validator

COCO_CLASSES: tuple[str, ...] = (
    "person", "bicycle", "car", "motorcycle", "airplane", "bus", "train", "truck", "boat",
    "traffic light", "fire hydrant", "stop sign", "parking meter", "bench", "bird", "cat", "dog",
    "horse", "sheep", "cow", "elephant", "bear", "zebra", "giraffe", "backpack", "umbrella",
    "handbag", "tie", "suitcase", "frisbee", "skis", "snowboard", "sports ball", "kite",
    "baseball bat", "baseball glove", "skateboard", "surfboard", "tennis racket", "bottle",
    "wine glass", "cup", "fork", "knife", "spoon", "bowl", "banana", "apple", "sandwich", "orange",
    "broccoli", "carrot", "hot dog", "pizza", "donut", "cake", "chair", "couch", "potted plant",
    "bed", "dining table", "toilet", "tv", "laptop", "mouse", "remote", "keyboard", "cell phone",
    "microwave", "oven", "toaster", "sink", "refrigerator", "book", "clock", "vase", "scissors",
    "teddy bear", "hair drier", "toothbrush",
)  # fmt: skip
"""The 80 COCO object classes in COCO's order (PIXAR's class indices 0..79)."""

BACKGROUND = "background"
"""The 81st class (index 80): the edit concerns the background, not an object."""

CLASSES: tuple[str, ...] = (*COCO_CLASSES, BACKGROUND)
"""All 81 semantic classes of PIXAR's classification head."""

CLASS_INDEX: dict[str, int] = {c: i for i, c in enumerate(CLASSES)}
"""Class name -> index."""

_SYNONYMS: dict[str, str] = {
    "people": "person", "man": "person", "woman": "person", "human": "person", "child": "person",
    "boy": "person", "girl": "person", "bike": "bicycle", "motorbike": "motorcycle",
    "aeroplane": "airplane", "plane": "airplane", "sofa": "couch", "tvmonitor": "tv",
    "tv monitor": "tv", "television": "tv", "monitor": "tv", "diningtable": "dining table",
    "table": "dining table", "pottedplant": "potted plant", "plant": "potted plant",
    "cellphone": "cell phone", "phone": "cell phone", "mobile phone": "cell phone",
    "smartphone": "cell phone", "hair dryer": "hair drier", "hairdryer": "hair drier",
    "ball": "sports ball", "doughnut": "donut", "fridge": "refrigerator", "hotdog": "hot dog",
    "wineglass": "wine glass", "teddy": "teddy bear", "ski": "skis",
    "computer mouse": "mouse", "remote control": "remote", "bg": "background",
    "scene": "background", "backdrop": "background", "sky": "background",
}  # fmt: skip


def canonical_class(name: str) -> str | None:
    """The PIXAR class a free-text class name denotes (case, plurals, common synonyms), or None."""
    n = " ".join(name.strip().lower().replace("_", " ").replace("-", " ").split()).strip(" .")
    if not n:
        return None
    for cand in (n, n.removesuffix("s"), n.removesuffix("es")):
        if cand in CLASS_INDEX:
            return cand
        if cand in _SYNONYMS:
            return _SYNONYMS[cand]
    if n.startswith(("a ", "an ", "the ")):
        return canonical_class(n.split(" ", 1)[1])
    return None


class Primitive(StrEnum):
    """Edit primitives of the PIXAR taxonomy (seed 003 abstract and Table 12)."""

    INTRA_CLASS_REPLACEMENT = "intra-class replacement"
    INTER_CLASS_REPLACEMENT = "inter-class replacement"
    REMOVAL = "object removal"
    ADDITION = "object addition"
    COLOR_CHANGE = "color change"
    BACKGROUND_CHANGE = "background change"
    ATTRIBUTE_EDIT = "attribute edit"
    SPLICE = "splice"
    INPAINT = "inpaint"
    COLORIZATION = "colorization"


TEMPLATES: dict[Primitive, str] = {
    Primitive.BACKGROUND_CHANGE: "The background was changed while keeping the foreground unchanged.",
    Primitive.REMOVAL: "The {orig} was removed from the image.",
    Primitive.ADDITION: "A {cat} was added to the image.",
    Primitive.INTRA_CLASS_REPLACEMENT: "The {orig} was replaced with a different-looking {orig}.",
    Primitive.INTER_CLASS_REPLACEMENT: "The {orig} was replaced with a {repl}.",
    Primitive.COLOR_CHANGE: "The color of the {cat} was changed.",
    # Not in seed 003 Table 14 (ours, same style):
    Primitive.ATTRIBUTE_EDIT: "An attribute of the {cat} was changed.",
    Primitive.SPLICE: "A {cat} from another image was spliced into the image.",
    Primitive.INPAINT: "The region of the {cat} was inpainted.",
    Primitive.COLORIZATION: "The image was colorized.",
}
"""Description templates; the first six verbatim from seed 003 Table 14."""

TABLE14_PRIMITIVES: frozenset[Primitive] = frozenset(list(TEMPLATES)[:6])
"""The primitives whose template is given by seed 003 Table 14."""

_NEEDS: dict[Primitive, tuple[str, ...]] = {
    Primitive.BACKGROUND_CHANGE: (),
    Primitive.REMOVAL: ("orig",),
    Primitive.ADDITION: ("cat",),
    Primitive.INTRA_CLASS_REPLACEMENT: ("orig",),
    Primitive.INTER_CLASS_REPLACEMENT: ("orig", "repl"),
    Primitive.COLOR_CHANGE: ("cat",),
    Primitive.ATTRIBUTE_EDIT: ("cat",),
    Primitive.SPLICE: ("cat",),
    Primitive.INPAINT: ("cat",),
    Primitive.COLORIZATION: (),
}


class Edit(BaseModel):
    """One edit's structured metadata (the input of the Table 14 mapping)."""

    primitive: Primitive
    """The edit primitive."""
    orig: str | None = None
    """Class of the original object (removal, replacements)."""
    repl: str | None = None
    """Class of the replacing object (inter-class replacement)."""
    cat: str | None = None
    """Class of the edited / added object (addition, colour change, attribute, splice, inpaint)."""

    @model_validator(mode="after")
    def _has_fields(self) -> Edit:
        missing = [f for f in _NEEDS[self.primitive] if not getattr(self, f)]
        if missing:
            raise ValueError(f"{self.primitive.value} needs {', '.join(missing)}")
        return self

    @property
    def semantic_class(self) -> str:
        """The tampered object's class (the 'semantic class' axis): the *new* object for an
        inter-class replacement or an addition, ``background`` for background changes."""
        if self.primitive in (Primitive.BACKGROUND_CHANGE, Primitive.COLORIZATION):
            return BACKGROUND
        name = self.repl or self.cat or self.orig or BACKGROUND
        return canonical_class(name) or name


def describe(edit: Edit) -> str:
    """The single-sentence description of one edit (seed 003 Table 14)."""
    return TEMPLATES[edit.primitive].format(orig=edit.orig, repl=edit.repl, cat=edit.cat)


def describe_all(edits: Sequence[Edit]) -> str:
    """A multi-edit description: the single-edit sentences in applied order, space-joined."""
    return " ".join(describe(e) for e in edits)


def taxonomy_cells(
    primitives: Iterable[Primitive] = tuple(Primitive), classes: Iterable[str] = CLASSES
) -> list[tuple[Primitive, str]]:
    """Every (primitive, class) cell of the taxonomy grid (10 x 81 by default)."""
    cls = list(classes)
    return [(p, c) for p in primitives for c in cls]
