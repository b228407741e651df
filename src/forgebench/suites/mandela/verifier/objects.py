"""Recorded objects of a recognised scene: is each still there, in its recorded colour?

The query is warped into the canonical frame with the scene match's homography, so a recorded
object's box is compared pixel for pixel whatever the crop or flip:

- **colour** (an object with ``attributes.colour``): the canonical pixels in the box that have the
  recorded colour are looked up in the query; when under :data:`MIN_SAME_COLOUR` of them still
  have it, the object is reported in the colour most of them have now. Colour names come from HSV
  (OpenCV: hue 0-180, saturation and value 0-255): saturation under 50 is white (value > 170),
  black (value < 60) or grey; otherwise red, orange, yellow, green, blue or purple by hue.
- **presence** (an object with a box and no colour): the grey-level normalised cross-correlation of
  the box in the canonical image and in the warped query; under :data:`MIN_CORRELATION` the
  object is reported missing.

Only objects the KB records are checked; an unrecorded object changed or removed is no evidence.
"""

from __future__ import annotations

import cv2
import numpy as np

from forgebench.construct.scenes import SceneObject
from forgebench.suites.mandela.verifier.reasoning import (
    MIN_VISIBLE,
    Event,
    Finding,
    Observation,
    position,
)

COLOURS = ("red", "orange", "yellow", "green", "blue", "purple", "white", "grey", "black")
"""Colour names, in the order of :func:`colour_index`'s codes."""
MIN_SAME_COLOUR = 0.3
"""Share of the recorded colour's pixels that must keep it."""
MIN_CORRELATION = 0.5
"""Normalised cross-correlation below which a recorded object counts as gone."""
MIN_PIXELS = 50
"""Fewer recorded-colour pixels than this: nothing to check."""


def colour_index(rgb: np.ndarray) -> np.ndarray:
    """Per pixel, the index into :data:`COLOURS`."""
    hsv = cv2.cvtColor(np.ascontiguousarray(rgb), cv2.COLOR_RGB2HSV)
    h, s, v = (hsv[..., i].astype(np.int16) for i in range(3))
    out = np.full(h.shape, COLOURS.index("grey"), np.uint8)
    chroma = s >= 50
    bounds = ((10, "red"), (22, "orange"), (35, "yellow"), (85, "green"), (130, "blue"))
    hue_name = np.full(h.shape, COLOURS.index("red"), np.uint8)
    for hi, name in reversed(bounds):
        hue_name[h < hi] = COLOURS.index(name)
    hue_name[(h >= 130) & (h < 170)] = COLOURS.index("purple")
    hue_name[h >= 170] = COLOURS.index("red")
    out[chroma] = hue_name[chroma]
    out[~chroma & (v > 170)] = COLOURS.index("white")
    out[~chroma & (v < 60)] = COLOURS.index("black")
    return out


def _clip(box: list[int], w: int, h: int) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = box[:4]
    return max(0, x0), max(0, y0), min(w, x1), min(h, y1)


def object_findings(
    obs: Observation, canonical: np.ndarray, query: np.ndarray, event: Event | None, noun: str
) -> list[Finding]:
    """Recorded objects whose colour changed or that are gone."""
    if obs.scene is None:
        return []
    objects = [o for o in obs.scene.scene.objects if o.box is not None]
    if not objects:
        return []
    ch, cw = canonical.shape[:2]
    warped, covered = obs.scene.to_canonical(query, (cw, ch))
    out: list[Finding] = []
    for obj in objects:
        assert obj.box is not None
        mapped = obs.scene.map_box(obj.box)
        if mapped is None or mapped[1] < MIN_VISIBLE:
            continue
        x0, y0, x1, y1 = _clip(obj.box, cw, ch)
        if x1 - x0 < 4 or y1 - y0 < 4:
            continue
        where = position(mapped[0], obs.size)
        a, b = canonical[y0:y1, x0:x1], warped[y0:y1, x0:x1]
        seen = covered[y0:y1, x0:x1]
        colour = obj.attributes.get("colour")
        finding = (
            _colour(obj, colour, a, b, seen, where, event, noun)
            if colour
            else _presence(obj, a, b, seen, where, noun)
        )
        if finding is not None:
            out.append(Finding(finding[0], obj.name, mapped[0], finding[1]))
    return out


def _colour(
    obj: SceneObject,
    colour: str,
    a: np.ndarray,
    b: np.ndarray,
    seen: np.ndarray,
    where: str,
    event: Event | None,
    noun: str,
) -> tuple[str, str] | None:
    if colour not in COLOURS:
        return None
    code = COLOURS.index(colour)
    mask = (colour_index(a) == code) & seen
    if int(mask.sum()) < MIN_PIXELS:
        return None
    now = colour_index(b)[mask]
    if float(np.mean(now == code)) >= MIN_SAME_COLOUR:
        return None
    observed = COLOURS[int(np.bincount(now, minlength=len(COLOURS)).argmax())]
    source = event.describe() if event else f"the record of this {noun}"
    return (
        "colour",
        f"The {obj.name} {where} is {observed}, but {source} records the {obj.name} as "
        f"{colour}, not {observed}.",
    )


def _presence(
    obj: SceneObject, a: np.ndarray, b: np.ndarray, seen: np.ndarray, where: str, noun: str
) -> tuple[str, str] | None:
    if float(seen.mean()) < 0.9:
        return None
    ga = cv2.cvtColor(a, cv2.COLOR_RGB2GRAY).astype(np.float64).ravel()
    gb = cv2.cvtColor(b, cv2.COLOR_RGB2GRAY).astype(np.float64).ravel()
    ga, gb = ga - ga.mean(), gb - gb.mean()
    denom = float(np.sqrt((ga * ga).sum() * (gb * gb).sum()))
    if denom < 1e-6:
        return None
    ncc = float((ga * gb).sum() / denom)
    if ncc >= MIN_CORRELATION:
        return None
    return (
        "missing_object",
        f"The {obj.name} that this {noun} shows {where} is missing: it has been removed from the "
        "recorded composition.",
    )
