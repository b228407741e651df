"""The demo's seeds and their edit specifications (seed 000, Section 3.1, Table 1).

Each :class:`SeedSpec` is one canonical image with its true event, provenance and the forgeries
made from it; each :class:`Forgery` records the family, saliency, operation, instruction, entity
and the contradiction as its author wrote it (verification replaces it with the one computed from
the facts), plus the edit as a local-editor specification (:mod:`forgebench.demo.edits`):
``forgebench build`` renders it. Edit regions and crops are *not* written here: the builder
measures them from the pixel difference so they are honest.

The facts are public and checkable (dates of birth and death, launch dates, match results,
host cities); the rendered scenes (posters, scoreboard, stage, painting, film still, plaque) are
our own drawings of those public subjects, not reproductions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from PIL import Image

from forgebench.construct import editors as ed
from forgebench.construct.editors import Box
from forgebench.demo import edits as E
from forgebench.demo import patches as pt
from forgebench.demo.edits import LocalEdit

RENDERED = {"license": "CC0-1.0 (rendered by forgebench; DejaVu fonts from matplotlib)"}

HOPPER = {
    "name": "Grace Hopper",
    "aliases": [
        "Grace Murray Hopper",
        "Grace Brewster Murray Hopper",
        "Amazing Grace",
        "Commodore Hopper",
        "Admiral Hopper",
    ],
}
COLLINS = {"name": "Eileen Collins", "aliases": ["Eileen Marie Collins", "Eileen M. Collins"]}


@dataclass
class Forgery:
    """One forged item (or anchor-free control) of a seed."""

    tag: str
    family: str
    edit: LocalEdit
    """The edit, rendered by ``forgebench build`` with the local editor."""
    saliency: str
    operation: str
    instruction: str
    entity: dict[str, Any] | None
    contradiction: str | None
    control_for: str | None = None
    k1_type: str | None = None
    variant: str | None = None
    erased: dict[str, Any] | None = None
    face_box: Box | None = None
    """Absent-celebrity erase: the face box (same place in the original and the item)."""
    wrong_name: str | None = None
    target: str | None = None
    """The recorded element the edit acts on (a text as recorded, an object, a person)."""
    attribute: dict[str, str] | None = None
    """K5: ``{"name": ..., "value": ...}`` of the recorded attribute the edit changes."""
    place: str | None = None
    """K3 without a landmark entity: the place the edited image asserts."""


@dataclass
class SeedSpec:
    """A canonical image, its knowledge and its forgeries."""

    key: str
    rgb: np.ndarray
    domain: str
    noun: str
    event: dict[str, Any]
    source: dict[str, Any]
    forgeries: list[Forgery]
    principal_figures: list[str] = field(default_factory=list)
    wrong_event: dict[str, Any] | None = None
    record: dict[str, Any] = field(default_factory=dict)
    """Scene-record parts the verification reads: ``people``, ``objects``, ``text`` (as in
    :class:`forgebench.construct.scenes.SceneRecord`)."""


def put(
    patch: pt.Patch,
    xy: tuple[int, int],
    feather_px: float = 1.0,
    grain: float = 0.0,
    seed: int = 0,
) -> LocalEdit:
    """Paste a drawn ``(rgb, alpha)`` patch at ``xy`` (the local editor's paste)."""
    return E.paste(patch, xy, feather_px=feather_px, grain=grain, seed=seed)


def figure(
    face: pt.Patch, size: tuple[int, int], suit: tuple[int, int, int] = (30, 32, 40)
) -> pt.Patch:
    """A standing figure (head and shoulders): a face patch above a dark suit."""
    w, h = size
    rgb = np.zeros((h, w, 3), np.uint8)
    alpha = np.zeros((h, w), np.float32)
    fh = int(h * 0.45)
    body = ed.ellipse_mask((h, w), (w / 2, h * 0.95), (w * 0.5, h * 0.55))
    body[: int(h * 0.4)] = 0
    rgb[body > 0] = suit
    alpha = np.maximum(alpha, body)
    face_rgb, face_a = face
    f = np.asarray(Image.fromarray(face_rgb).resize((int(w * 0.7), fh), Image.Resampling.LANCZOS))
    fa = (
        np.asarray(
            Image.fromarray((face_a * 255).astype(np.uint8)).resize(
                (int(w * 0.7), fh), Image.Resampling.LANCZOS
            ),
            np.float32,
        )
        / 255
    )
    x0 = (w - f.shape[1]) // 2
    region = rgb[0:fh, x0 : x0 + f.shape[1]].astype(np.float32)
    rgb[0:fh, x0 : x0 + f.shape[1]] = (region * (1 - fa[..., None]) + f * fa[..., None]).astype(
        np.uint8
    )
    alpha[0:fh, x0 : x0 + f.shape[1]] = np.maximum(alpha[0:fh, x0 : x0 + f.shape[1]], fa)
    return rgb, alpha
