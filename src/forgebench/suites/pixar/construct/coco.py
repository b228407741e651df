"""PIXAR's seeds: images with COCO-style object annotations, and a rules proposer over them.

:func:`scenes_from_coco` turns a COCO instances file (``images``, ``annotations`` with ``bbox``
``[x, y, w, h]`` and polygon ``segmentation``, ``categories``) into scene records: one per image,
one object per annotation (name = the category, box = the bbox rounded outward to half-open
integer pixels, the polygons and annotation id kept as extra fields). Crowd annotations and
RLE segmentations are skipped (the local editors need polygons; ours).

:func:`propose_pixar` proposes, per image, the manipulation types a procedural editor can render
(seed 003 Table 12): *object removal* (inpainting under the object's mask dilated by ``grow``
pixels) and *color change* (hue rotated under the mask), for the largest non-crowd objects of at
least ``min_area`` pixels with a polygon segmentation (scenes not read from COCO have none and
get no proposal); each mask is written as a PNG into the seed folder (``masks/``).
Replacements, additions and background changes need a generative editor (``openai/``,
``http/``) and a specification that names the new content; they come from files or models.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from PIL import Image

from forgebench.construct.scenes import SceneError, SceneEvent, SceneObject, SceneRecord
from forgebench.construct.specs import EditSpec
from forgebench.suites.pixar.taxonomy import canonical_class
from forgebench.util.jsonl import load_json_bounded


def scenes_from_coco(path: Path, image_prefix: str = "") -> list[SceneRecord]:
    """Scene records from a COCO instances JSON; :class:`SceneError` naming the problem."""
    try:
        coco = load_json_bounded(path.read_text(encoding="utf-8"))
        cats = {c["id"]: c["name"] for c in coco["categories"]}
        images = {im["id"]: im for im in coco["images"]}
        anns = coco["annotations"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SceneError(
            f"{path.name}: not a COCO instances file ({type(exc).__name__}: {exc})"
        ) from None
    objects: dict[Any, list[SceneObject]] = {i: [] for i in images}
    for a in anns:
        if a.get("iscrowd") or not isinstance(a.get("segmentation"), list):
            continue
        if a.get("image_id") not in images or a.get("category_id") not in cats:
            raise SceneError(f"{path.name}: annotation {a.get('id')}: unknown image or category")
        x, y, w, h = a["bbox"]
        box = [math.floor(x), math.floor(y), math.ceil(x + w), math.ceil(y + h)]
        objects[a["image_id"]].append(
            SceneObject.model_validate(
                {
                    "name": cats[a["category_id"]],
                    "box": box,
                    "segmentation": a["segmentation"],
                    "annotation": a.get("id"),
                    "area": float(a.get("area", w * h)),
                }
            )
        )
    return [
        SceneRecord(
            id=f"coco-{im_id}",
            image=image_prefix + im["file_name"],
            event=SceneEvent(label=im["file_name"]),
            objects=objects[im_id],
        )
        for im_id, im in images.items()
    ]


def polygon_mask(
    segmentation: list[list[float]], shape: tuple[int, int], grow: int = 0
) -> np.ndarray:
    """The filled polygons as a uint8 mask (255 inside), dilated by ``grow`` pixels."""
    m = np.zeros(shape, np.uint8)
    for poly in segmentation:
        pts = np.round(np.asarray(poly, np.float64).reshape(-1, 2)).astype(np.int32)
        cv2.fillPoly(m, [pts], 255)
    if grow > 0:
        return np.asarray(cv2.dilate(m, np.ones((2 * grow + 1, 2 * grow + 1), np.uint8)), np.uint8)
    return m


def propose_pixar(
    scenes: list[SceneRecord],
    seed_root: Path,
    per_image: int = 1,
    min_area: float = 400.0,
    grow: int = 3,
) -> list[EditSpec]:
    """Removal and colour-change specifications for the largest annotated objects."""
    out: list[EditSpec] = []
    for scene in scenes:
        objs = [
            o
            for o in scene.objects
            if canonical_class(o.name)
            and getattr(o, "segmentation", None)
            and float(getattr(o, "area", 0)) >= min_area
        ]
        if not objs:  # no annotated object (a scene not read from COCO proposes nothing)
            continue
        with Image.open(seed_root / scene.image) as im:
            w, h = im.size
        (seed_root / "masks").mkdir(parents=True, exist_ok=True)
        objs.sort(key=lambda o: -float(getattr(o, "area", 0)))
        for o in objs[:per_image]:
            ann = getattr(o, "annotation", None) or objs.index(o)
            rel = f"masks/{scene.id}-{ann}.png"
            Image.fromarray(polygon_mask(getattr(o, "segmentation", []), (h, w), grow)).save(
                seed_root / rel
            )
            cls = canonical_class(o.name)
            for kind, op, pixar, params in (
                (
                    "removal",
                    "remove",
                    {"primitive": "object removal", "orig": cls},
                    {"method": "telea", "radius": 5},
                ),
                (
                    "colour",
                    "recolour",
                    {"primitive": "color change", "cat": cls},
                    {"hue_shift": 150, "min_saturation": 0.4},
                ),
            ):
                out.append(EditSpec.model_validate({
                    "id": f"{scene.id}-{ann}-{kind}", "seed_id": scene.id, "suite": "pixar",
                    "operation": op, "mask": rel, "region": o.box, "pixar": pixar, "params": params,
                    "instruction": f"{'Remove' if op == 'remove' else 'Change the colour of'} the {o.name}.",
                    "proposer": "rules",
                }))  # fmt: skip
    return out
