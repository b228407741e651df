"""The offline demo benchmark: a small Mandela-format dataset built from images that ship with
packages (scikit-image, matplotlib) and scenes rendered here (issue 2, part 6).

:func:`build_demo` writes ``OUT/dataset`` with ``items.jsonl``, ``images/`` and ``kb.jsonl``:
11 seeds, each contributing its untouched original as an authentic item, and 33 forgeries (44
items) covering every family K0-K6 (K0 controls name the family they control), the three K1
types, one absent-celebrity triple (erase / swap / k0 on one seed, the erase item with ``erased``
and ``faces`` for the FACE probe), peripheral (C2/C3) items with crops, wrong-event captions on the
peripheral people-family items and their originals, and all six domains.

Honesty of the annotations: every edit region is the bounding box of the pixels that differ
between the forgery and its original (measured, not declared); a forgery that changes nothing is
an error. Crops follow DESIGN.md: peripheral items carry a crop containing their edit region; an
authentic original carries the crop of its seed's peripheral people-family item when there is
one, else of its first peripheral item (the paper pairs one crop per seed and is silent on seeds
with several peripheral edits).

Every image, forged and authentic alike, passes one JPEG round trip at quality 92 (the paper's
normalisation, Appendix C) before it is stored as PNG; regions are measured after it.

Determinism: all noise is seeded, fonts ship with matplotlib and images are written as PNG
without timestamps, so two builds give identical bytes (for pinned Pillow / libjpeg / zlib /
OpenCV versions).
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

from forgebench.construct.editors import changed_box, crop_around
from forgebench.demo import rendered as demo_rendered
from forgebench.demo import specs as demo_specs
from forgebench.demo.specs import Forgery, SeedSpec
from forgebench.suites.mandela.contract import Item, KBEntity, write_items


class DemoError(Exception):
    """The demo could not be built where asked; the message is one clear line."""


KB: tuple[dict[str, Any], ...] = (
    {"id": "demo:grace-hopper", **demo_specs.HOPPER, "born": "1906-12-09", "died": "1992-01-01"},
    {"id": "demo:eileen-collins", **demo_specs.COLLINS, "born": "1956-11-19"},
    {
        "id": "demo:smartphone",
        "name": "smartphone",
        "aliases": ["iPhone", "touchscreen phone"],
        "introduced": "2007-06-29",
    },
    {
        "id": "demo:jet-airliner",
        "name": "jet airliner",
        "aliases": ["de Havilland Comet"],
        "introduced": "1949-07-27",
    },
    {
        "id": "demo:var",
        "name": "VAR",
        "aliases": ["video assistant referee"],
        "introduced": "2018-06-16",
    },
    {"id": "demo:falcon-9", "name": "Falcon 9", "aliases": [], "introduced": "2010-06-04"},
    {
        "id": "demo:nagano-1998",
        "name": "1998 Winter Olympics",
        "aliases": ["Nagano 1998"],
        "introduced": "1998-02-07",
    },
)
"""Knowledge-base rows for the entities the demo's contradictions rest on (public facts)."""


def seeds() -> list[SeedSpec]:
    """Every seed of the demo with its forgeries, in dataset order."""
    photos = [demo_specs.astronaut(), demo_specs.hopper(), demo_specs.rocket(), demo_specs.hubble()]
    return photos + [build() for build in demo_rendered.ALL]


NORMALISE_QUALITY = 92
"""Every image (forged and authentic alike) goes through one JPEG round trip at this quality before
it is stored as PNG, as the paper re-encodes all images at quality 92 (Appendix C)."""


def normalise(rgb: np.ndarray) -> np.ndarray:
    """One JPEG round trip at :data:`NORMALISE_QUALITY` (4:2:0, libjpeg via Pillow)."""
    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, format="JPEG", quality=NORMALISE_QUALITY)
    buf.seek(0)
    with Image.open(buf) as im:
        return np.asarray(im.convert("RGB")).copy()


def _save_png(rgb: np.ndarray, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(rgb).save(path, format="PNG", compress_level=1)


def _forged_item(
    seed: SeedSpec,
    f: Forgery,
    image: str,
    original_image: str,
    before: np.ndarray,
    after: np.ndarray,
) -> tuple[Item, tuple[int, int, int, int] | None]:
    region = changed_box(before, after)
    if region is None:
        raise DemoError(f"demo forgery {seed.key}-{f.tag} changes no pixel")
    h, w = seed.rgb.shape[:2]
    crop = crop_around(region, (w, h)) if f.saliency in ("C2", "C3") else None
    faces = None
    if f.variant == "erase" and f.face_box is not None:
        faces = {
            "original": f.face_box,
            "replacement": f.face_box,
            "original_image": original_image,
            "wrong_name": f.wrong_name,
        }
    item = Item.model_validate(
        {
            "id": f"{seed.key}-{f.tag}",
            "seed_id": seed.key,
            "image": image,
            "label": "forged",
            "family": f.family,
            "control_for": f.control_for,
            "k1_type": f.k1_type,
            "variant": f.variant,
            "domain": seed.domain,
            "noun": seed.noun,
            "saliency": f.saliency,
            "edit": {"operation": f.operation, "region": region, "instruction": f.instruction},
            "crop": crop,
            "event": seed.event,
            "wrong_event": seed.wrong_event if (f.family == "K1" and crop is not None) else None,
            "entity": f.entity,
            "contradiction": f.contradiction,
            "erased": f.erased,
            "faces": faces,
            "principal_figures": seed.principal_figures,
            "source": seed.source,
        }
    )
    return item, crop


def _seed_items(seed: SeedSpec, root: Path) -> list[Item]:
    original = f"images/{seed.key}/original.png"
    before = normalise(seed.rgb)
    _save_png(before, root / original)
    forged: list[Item] = []
    people_crop = first_crop = None
    for f in seed.forgeries:
        image = f"images/{seed.key}/{f.tag}.png"
        after = normalise(f.rgb)
        _save_png(after, root / image)
        item, crop = _forged_item(seed, f, image, original, before, after)
        forged.append(item)
        if crop is not None:
            first_crop = first_crop or crop
            if f.family == "K1":
                people_crop = people_crop or crop
    authentic = Item.model_validate(
        {
            "id": f"{seed.key}-original",
            "seed_id": seed.key,
            "image": original,
            "label": "authentic",
            "domain": seed.domain,
            "noun": seed.noun,
            "crop": people_crop or first_crop,
            "event": seed.event,
            "wrong_event": seed.wrong_event if people_crop else None,
            "principal_figures": seed.principal_figures,
            "source": seed.source,
        }
    )
    return [authentic, *forged]


def build_into(root: Path) -> list[Item]:
    """Build the demo dataset into the (empty or new) folder ``root``; return its items."""
    root.mkdir(parents=True, exist_ok=True)
    items: list[Item] = []
    for seed in seeds():
        items.extend(_seed_items(seed, root))
    write_items(root / "items.jsonl", items)
    with (root / "kb.jsonl").open("w", encoding="utf-8") as fh:
        for row in KB:
            fh.write(
                json.dumps(KBEntity.model_validate(row).model_dump(mode="json"), ensure_ascii=False)
                + "\n"
            )
    return items


def build_demo(out: Path) -> Path:
    """Build the demo dataset as ``out/dataset`` and return that folder.

    Built in a temporary sibling folder and moved into place, so an interrupted build leaves
    nothing half-written. An existing ``out/dataset`` is replaced only when it is a dataset
    folder (holds ``items.jsonl``); anything else there is refused with :class:`DemoError`.
    """
    out = Path(out)
    target = out / "dataset"
    if target.exists() and (
        not target.is_dir() or (any(target.iterdir()) and not (target / "items.jsonl").is_file())
    ):
        raise DemoError(f"{target}: exists and is not a dataset folder; choose another --out")
    out.mkdir(parents=True, exist_ok=True)
    tmp = out / f".dataset.tmp-{os.getpid()}"
    if tmp.exists():
        shutil.rmtree(tmp)
    try:
        build_into(tmp)
        if target.exists():
            shutil.rmtree(target)
        tmp.replace(target)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)
    return target
