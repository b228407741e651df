"""The PIXAR localization probe (``LOC``) for vision-language models: prompt, reply parser, raster.

Seed 003 scores localization, the tampered object's class and a description; a VLM cannot emit
a mask, so the probe asks for one JSON object with boxes and/or polygons in pixel coordinates,
ranked class names (up to five, from PIXAR's 81 classes, for top-1 / top-5) and one sentence.
The prompt is ours (the seed has none for VLMs); its version is the hash of its text.

Parsing is forgiving about form (code fences, prose around the object, single boxes, flat
polygons, ``x/y/w/h`` dicts, class names with synonyms) and strict about content: anything it
cannot read becomes a listed problem and contributes nothing (an unreadable reply is an empty
prediction, i.e. a miss, never an error).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from forgebench.suites.pixar.taxonomy import CLASSES, canonical_class

if TYPE_CHECKING:
    import numpy as np

PROBE_ID = "LOC"
"""The probe id in the store and in metrics.csv."""

PROMPT_TEMPLATE = (
    "This image ({width} x {height} pixels) may have been tampered with: an object replaced, "
    "removed, added or recoloured, or the background changed. Find every tampered region.\n"
    "Answer with one JSON object and nothing else:\n"
    '{{"tampered": true or false,\n'
    ' "regions": [{{"box": [x0, y0, x1, y1]}} or {{"polygon": [[x, y], [x, y], ...]}}],\n'
    ' "classes": ["most likely class of the tampered object", "...", up to 5, best first],\n'
    ' "description": "one sentence saying what was changed"}}\n'
    "Coordinates are pixels of this image, origin at the top-left corner, x to the right and y "
    "downwards; a box covers x0 <= x < x1 and y0 <= y < y1. Classes come from this list: "
    "{classes}.\n"
    'If nothing was tampered, answer {{"tampered": false, "regions": [], "classes": [], '
    '"description": ""}}.'
)
"""The prompt; ``{width}``, ``{height}`` and ``{classes}`` are filled by :func:`render_prompt`."""

PROMPT_VERSION = "loc-" + hashlib.sha256(PROMPT_TEMPLATE.encode()).hexdigest()[:12]
"""Changes whenever the prompt text changes (part of the task key)."""


def render_prompt(width: int, height: int) -> str:
    """The probe's prompt for an image of ``width`` x ``height`` pixels."""
    return PROMPT_TEMPLATE.format(width=width, height=height, classes=", ".join(CLASSES))


@dataclass
class LocReply:
    """What a reply says, as far as it could be read."""

    parsed: bool = False
    """A JSON object was found and read."""
    tampered: bool | None = None
    """The model's image-level verdict, when it gave one."""
    boxes: list[tuple[float, float, float, float]] = field(default_factory=list)
    """Boxes ``(x0, y0, x1, y1)`` in pixels, half-open."""
    polygons: list[list[tuple[float, float]]] = field(default_factory=list)
    """Polygons as lists of ``(x, y)`` vertices (three or more)."""
    classes: list[str] = field(default_factory=list)
    """Canonical PIXAR class names, best first, unknown names dropped."""
    description: str = ""
    """The one-sentence description ('' when absent)."""
    problems: list[str] = field(default_factory=list)
    """What could not be read, one short line each."""


def _json_candidates(text: str) -> list[str]:
    cands = [m.group(1) for m in re.finditer(r"```(?:json|JSON)?\s*(.*?)```", text, re.S)]
    start = text.find("{")
    while start != -1:  # each balanced {...} outside strings
        depth, in_str, esc = 0, False, False
        for i in range(start, len(text)):
            ch = text[i]
            if in_str:
                esc = (ch == "\\") and not esc
                if ch == '"' and not esc:
                    in_str = False
                continue
            if ch == '"':
                in_str = True
            elif ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    cands.append(text[start : i + 1])
                    break
        start = text.find("{", start + 1)
    return cands


def _load_object(text: str) -> dict[str, Any] | None:
    for cand in _json_candidates(text):
        try:
            obj = json.loads(cand)
        except json.JSONDecodeError:
            continue
        if isinstance(obj, dict):
            return obj
    return None


def _num(v: Any) -> float | None:
    if isinstance(v, bool) or not isinstance(v, int | float | str):
        return None
    try:
        f = float(v)
    except ValueError:
        return None
    return f if math.isfinite(f) else None


def _box(v: Any) -> tuple[float, float, float, float] | None:
    if isinstance(v, dict):
        keys = [("x0", "y0", "x1", "y1"), ("xmin", "ymin", "xmax", "ymax")]
        for ks in keys:
            if all(k in v for k in ks):
                return _box([v[k] for k in ks])
        if all(k in v for k in ("x", "y")) and any(k in v for k in ("w", "width")):
            x, y = _num(v["x"]), _num(v["y"])
            w, h = _num(v.get("w", v.get("width"))), _num(v.get("h", v.get("height")))
            if None in (x, y, w, h):
                return None
            return _box([x, y, x + w, y + h])  # type: ignore[operator]
        return None
    if not isinstance(v, list | tuple) or len(v) != 4:
        return None
    nums = [n for n in (_num(x) for x in v) if n is not None]
    if len(nums) != 4:
        return None
    x0, y0, x1, y1 = nums
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def _polygon(v: Any) -> list[tuple[float, float]] | None:
    if not isinstance(v, list | tuple):
        return None
    pts: list[tuple[float, float]] = []
    if v and all(isinstance(p, list | tuple) and len(p) == 2 for p in v):
        for p in v:
            x, y = _num(p[0]), _num(p[1])
            if x is None or y is None:
                return None
            pts.append((x, y))
    elif v and len(v) % 2 == 0:
        nums = [_num(x) for x in v]
        if any(n is None for n in nums):
            return None
        pts = [(nums[i], nums[i + 1]) for i in range(0, len(nums), 2)]  # type: ignore[misc]
    return pts if len(pts) >= 3 else None


def _as_list(v: Any) -> list[Any]:
    return v if isinstance(v, list) else ([] if v is None else [v])


def parse_reply(text: str) -> LocReply:
    """Read a model's reply to the LOC probe (see the module docstring)."""
    out = LocReply()
    obj = _load_object(text or "")
    if obj is None:
        out.problems.append("no JSON object in the reply")
        return out
    out.parsed = True
    t = obj.get("tampered")
    if isinstance(t, bool):
        out.tampered = t
    elif t is not None:
        out.problems.append(f"tampered is not true/false: {t!r}")
    regions = _as_list(obj.get("regions"))
    regions += [{"box": b} for b in _as_list(obj.get("boxes"))]
    regions += [{"polygon": p} for p in _as_list(obj.get("polygons"))]
    if "box" in obj:
        regions.append({"box": obj["box"]})
    if "polygon" in obj:
        regions.append({"polygon": obj["polygon"]})
    for r in regions:
        if isinstance(r, dict) and ("polygon" in r or "points" in r):
            poly = _polygon(r.get("polygon", r.get("points")))
            if poly is None:
                out.problems.append(f"unreadable polygon {r!r:.60}")
            else:
                out.polygons.append(poly)
        else:
            b = _box(r.get("box", r.get("bbox", r)) if isinstance(r, dict) else r)
            if b is None:
                out.problems.append(f"unreadable region {r!r:.60}")
            else:
                out.boxes.append(b)
    names = _as_list(obj.get("classes", obj.get("class", obj.get("category"))))
    for n in names:
        c = canonical_class(str(n)) if isinstance(n, str) else None
        if c is None:
            out.problems.append(f"unknown class {n!r:.40}")
        elif c not in out.classes:
            out.classes.append(c)
    d = obj.get("description", "")
    if isinstance(d, str):
        out.description = d.strip()
    else:
        out.problems.append("description is not a string")
    return out


def rasterize(reply: LocReply, height: int, width: int) -> np.ndarray:
    """The reply's regions as a boolean ``height x width`` mask (clipped to the image).

    Boxes cover the pixels ``round(x0) <= x < round(x1)``, likewise in y; polygons are filled
    with OpenCV (vertices rounded to the nearest pixel). A reply with ``tampered: false`` gives
    an empty mask whatever regions it lists.
    """
    import cv2  # the prompt and the reply parser (``prompts``, ``run``) need neither
    import numpy as np

    mask = np.zeros((height, width), dtype=np.uint8)
    if reply.tampered is False:
        return mask.astype(bool)
    for x0, y0, x1, y1 in reply.boxes:
        c0, c1 = (int(np.clip(round(v), 0, width)) for v in (x0, x1))
        r0, r1 = (int(np.clip(round(v), 0, height)) for v in (y0, y1))
        mask[r0:r1, c0:c1] = 1
    polys = [np.round(np.asarray(p, dtype=np.float64)).astype(np.int32) for p in reply.polygons]
    if polys:
        cv2.fillPoly(mask, polys, 1)
    return mask.astype(bool)
