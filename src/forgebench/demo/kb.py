"""The demo's knowledge base for ``builtin/verifier``: ``OUT/kb`` with ``scenes.jsonl``,
``kb.jsonl``, the canonical images and reference portraits.

What it records is what a curator would record about these public subjects: each scene's event,
the named people with where their face is, the objects that carry a fact, and the visible text
that states a fact (host city, venue, score, date, slogan); ad copy and taglines carry no fact
and are not recorded. The fact table adds descriptions and portraits to the dataset's
``kb.jsonl`` rows. Boxes come from the renderers' own geometry, never from the verifier's tools.

Honest limit: the portraits are the two photographs the demo's pasted faces are cut from (Grace
Hopper's Navy portrait, Eileen Collins's NASA portrait), so face identity here is easier than
against independent portraits in the wild.
"""

from __future__ import annotations

import io
import json
import os
import shutil
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from forgebench.construct.scenes import FactEntity, SceneRecord
from forgebench.demo import scenes as sc
from forgebench.demo.build import KB, seeds
from forgebench.demo.specs import COLLINS, HOPPER
from forgebench.util import built
from forgebench.util.atomic import clean_stale
from forgebench.util.owned import replace_folder, replace_guard

COLLINS_FACE = (181, 62, 269, 182)
"""Eileen Collins's face in ``skimage.data.astronaut`` (the ellipse ``demo.photos.astronaut`` edits)."""
HOPPER_FACE = (170, 120, 354, 344)
"""Grace Hopper's face in matplotlib's ``grace_hopper.jpg`` (``demo.photos.hopper_face``'s box)."""

ROCKET_BODY = (300, 125, 345, 405)
"""The white body of the Falcon 9 in ``skimage.data.rocket`` (the box ``demo.photos.rocket``
recolours)."""
SOVIET_FLAG = (480, 120, 540, 162)
"""The red flag drawn by ``demo.scenes.summit``."""
RED_FIELD = (116, 0, 480, 294)
"""The red field drawn by ``demo.scenes.painting``."""
CAPSULE = (186, 122, 272, 214)
"""The capsule in the Moon's eye drawn by ``demo.scenes.moon_film`` (its polygon's bounds)."""

FACTS: dict[str, dict[str, Any]] = {
    "demo:grace-hopper": {
        "kind": "person",
        "description": "a U.S. Navy computer scientist",
        "portraits": ["portraits/grace-hopper.png"],
    },
    "demo:eileen-collins": {
        "kind": "person",
        "description": "a NASA astronaut",
        "portraits": ["portraits/eileen-collins.png"],
    },
    "demo:smartphone": {"kind": "object"},
    "demo:jet-airliner": {"kind": "object"},
    "demo:var": {"kind": "object", "description": "video review system for football referees"},
    "demo:falcon-9": {"kind": "object"},
    "demo:nagano-1998": {"kind": "event"},
}
"""Per fact-table row: what the verifier's KB adds to the dataset's ``kb.jsonl`` row."""


def _text(boxes: dict[str, tuple[int, int, int, int]], **lines: str) -> list[dict[str, Any]]:
    return [{"text": text, "box": list(boxes[key])} for key, text in lines.items()]


def _recorded(key: str) -> dict[str, Any]:
    """People, objects and text of one seed's canonical image."""
    if key == "astronaut":
        person = {**COLLINS, "entity": "demo:eileen-collins", "box": list(COLLINS_FACE)}
        return {"people": [{**person, "position": "centre", "role": "STS-93 commander"}]}
    if key == "hopper":
        person = {**HOPPER, "entity": "demo:grace-hopper", "box": list(HOPPER_FACE)}
        return {"people": [{**person, "position": "centre", "role": "portrait sitter"}]}
    if key == "rocket":
        body = {"colour": "white"}
        rocket = {"name": "Falcon 9", "entity": "demo:falcon-9", "box": list(ROCKET_BODY)}
        return {"objects": [{**rocket, "attributes": body}]}
    if key == "poster":
        b = sc.poster().boxes
        return {"text": _text(b, city="NAGANO", year="1998", country="NAGANO, JAPAN")}
    if key == "scoreboard":
        b = sc.scoreboard().boxes
        return {
            "text": _text(
                b,
                venue="ESTADIO AZTECA",
                home="ARGENTINA",
                score="3 : 2",
                away="W. GERMANY",
                final="FINAL 29.06.1986",
            )
        }
    if key == "summit":
        flag = {"name": "flag of the Soviet Union", "box": list(SOVIET_FLAG)}
        return {"objects": [{**flag, "attributes": {"colour": "red"}}]}
    if key == "painting":
        field = {"name": "large red field", "box": list(RED_FIELD)}
        return {"objects": [{**field, "attributes": {"colour": "red"}}]}
    if key == "moonfilm":
        return {"objects": [{"name": "capsule", "box": list(CAPSULE)}]}
    if key == "keepcalm":
        b = sc.keep_calm().boxes
        lines = _text(b, line0="KEEP", line1="CALM", line2="AND", line3="CARRY", line4="ON")
        return {"text": lines, "objects": [{"name": "Tudor crown", "box": list(b["crown"])}]}
    if key == "plaque":
        b = sc.plaque().boxes
        return {"text": _text(b, date="JULY 1969, A.D.")}
    return {}


def normalise(rgb: np.ndarray) -> np.ndarray:
    """One JPEG round trip at quality 92, as the demo's images get (Appendix C)."""
    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, format="JPEG", quality=92)
    buf.seek(0)
    with Image.open(buf) as im:
        return np.asarray(im.convert("RGB")).copy()


def _save(rgb: np.ndarray, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(rgb).save(path, format="PNG", compress_level=1)


def build_kb_into(root: Path) -> tuple[list[SceneRecord], list[FactEntity]]:
    """Write the demo KB into the (empty or new) folder ``root``."""
    root.mkdir(parents=True, exist_ok=True)
    scenes: list[SceneRecord] = []
    originals: dict[str, np.ndarray] = {}
    for seed in seeds():
        rgb = normalise(seed.rgb)
        originals[seed.key] = rgb
        image = f"images/{seed.key}.png"
        _save(rgb, root / image)
        scenes.append(
            SceneRecord.model_validate(
                {
                    "id": seed.key,
                    "image": image,
                    "event": seed.event,
                    "domain": seed.domain,
                    "noun": seed.noun,
                    **_recorded(seed.key),
                }
            )
        )
    _save(originals["hopper"], root / "portraits/grace-hopper.png")
    _save(originals["astronaut"], root / "portraits/eileen-collins.png")
    facts = [FactEntity.model_validate({**row, **FACTS.get(row["id"], {})}) for row in KB]
    with (root / "scenes.jsonl").open("w", encoding="utf-8") as fh:
        for s in scenes:
            fh.write(json.dumps(s.model_dump(mode="json", exclude_none=True)) + "\n")
    with (root / "kb.jsonl").open("w", encoding="utf-8") as fh:
        for f in facts:
            fh.write(json.dumps(f.model_dump(mode="json", exclude_none=True)) + "\n")
    return scenes, facts


def build_demo_kb(out: Path) -> Path:
    """Build the demo KB as ``out/kb`` (built aside and moved into place) and return it; kept
    as it is when the last complete build wrote it, unchanged since, with this recipe
    (:mod:`forgebench.util.built`)."""
    out = Path(out)
    target = out / "kb"
    if built.unchanged(target):
        return target
    built.forget(target)
    replace_guard(target, "dataset")
    out.mkdir(parents=True, exist_ok=True)
    clean_stale(out, "kb")
    tmp = out / f".kb.tmp-{os.getpid()}"
    if tmp.exists():
        shutil.rmtree(tmp)
    try:
        build_kb_into(tmp)
        replace_folder(tmp, target, "dataset")
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)
    built.remember(target)
    return target
