"""Assemble kept Mandela candidates into a dataset folder (DESIGN.md contract).

Per seed, the untouched original as the authentic item and one forged item per specification
with a kept candidate. Every image is re-encoded as the release is (JPEG quality 92, longest side
1280; seed 000 Appendix C). The edit region is *measured*: the bounding box of the pixels that
differ between the seed and the kept candidate (lossless, before re-encoding), carried into the
re-encoded grid; peripheral (C2/C3) items get a crop around it and the authentic original the
crop of its seed's people-family peripheral item (else the first), as the demo does. Each item
carries ``provenance`` (:func:`forgebench.construct.assemble.provenance`); ``footprint``,
``footprint_measured`` and ``face_similarity`` come from the gates.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from forgebench.construct.assemble import Kept, Stored, provenance, store_image
from forgebench.construct.editors import changed_box, crop_around
from forgebench.construct.facts import Knowledge
from forgebench.construct.gate_result import GateResult
from forgebench.construct.specs import write_jsonl
from forgebench.suites.mandela.contract import Item, write_items


@dataclass
class Assembled:
    """What was written."""

    items: list[Item] = field(default_factory=list)
    pairs: int = 0
    dropped: list[tuple[str, str]] = field(default_factory=list)


def _gate(gates: list[GateResult], name: str) -> GateResult | None:
    return next((g for g in gates if g.gate == name), None)


def _forged(
    k: Kept, scene: Any, know: Knowledge, orig: Stored, root: Path, store: str
) -> Item | None:
    spec = k.spec
    st = store_image(k.pixels, root, f"images/{spec.seed_id}/{spec.id}", store)
    region = changed_box(orig.pixels, st.pixels)
    if region is None:
        return None
    rel = st.rel
    box = list(region)
    crop = list(crop_around(region, st.size)) if spec.saliency in ("C2", "C3") else None
    ent = spec.entity
    erased = faces = None
    if spec.k1_type == "absent_celebrity" and spec.target:
        i = know.person_in_scene(scene, spec.target)
        fe = know.entity(scene.people[i].entity, scene.people[i].name) if i is not None else None
        erased = {"name": fe.name if fe else spec.target, "aliases": fe.aliases if fe else []}
        pbox = scene.people[i].box if i is not None else None
        if spec.variant == "erase" and pbox is not None:
            x0, y0, x1, y1 = spec.region or pbox
            faces = {
                "original": list(orig.map_box((pbox[0], pbox[1], pbox[2], pbox[3]))),
                "replacement": list(st.map_box((x0, y0, x1, y1))),
                "original_image": orig.rel,
                "wrong_name": getattr(spec, "wrong_name", None),
            }
    fp, face = _gate(k.gates, "footprint"), _gate(k.gates, "face_identity")
    row = {
        "id": spec.id,
        "seed_id": spec.seed_id,
        "image": rel,
        "label": "forged",
        "family": spec.family,
        "control_for": spec.control_for,
        "k1_type": spec.k1_type,
        "variant": spec.variant,
        "domain": scene.domain,
        "noun": scene.noun,
        "saliency": spec.saliency,
        "edit": {"operation": spec.operation, "region": box, "instruction": spec.instruction},
        "crop": crop,
        "event": scene.event.model_dump(),
        "wrong_event": getattr(scene, "wrong_event", None)
        if (spec.family == "K1" and crop)
        else None,
        "entity": None
        if ent is None
        else {"name": ent.name, "aliases": ent.aliases, "role": ent.role},
        "contradiction": spec.contradiction,
        "erased": erased,
        "faces": faces,
        "principal_figures": [p.name for p in scene.people if p.principal],
        "source": getattr(scene, "source", None),
        "footprint": fp.details["footprint"] if fp else None,
        "footprint_measured": fp.details["footprint_measured"] if fp else None,
        "face_similarity": face.details.get("face_similarity") if face else None,
        "provenance": provenance(k),
    }
    return Item.model_validate(row)


def write_mandela(
    kept: list[Kept],
    know: Knowledge,
    seed_root: Path,
    root: Path,
    facts: list[dict[str, Any]],
    store: str = "jpeg",
) -> Assembled:
    """Write ``root`` (items.jsonl, images/, kb.jsonl) from the kept Mandela candidates."""
    out = Assembled()
    by_seed: dict[str, list[Kept]] = {}
    for k in kept:
        by_seed.setdefault(k.spec.seed_id, []).append(k)
    for seed_id, members in by_seed.items():
        scene = know.scenes[seed_id]
        seed = np.asarray(Image.open(seed_root / scene.image).convert("RGB"))
        orig = store_image(seed, root, f"images/{seed_id}/original", store)
        forged: list[Item] = []
        with ThreadPoolExecutor(max_workers=4) as pool:  # encoders release the GIL
            made = list(
                pool.map(
                    _forged,
                    members,
                    *zip(*[(scene, know, orig, root, store)] * len(members), strict=True),
                )
            )
        for k, it in zip(members, made, strict=True):
            if it is None:
                out.dropped.append((k.spec.id, "the kept candidate changes no pixel"))
            else:
                forged.append(it)
        if not forged:
            (root / orig.rel).unlink()
            continue
        people = next((f.crop for f in forged if f.crop and f.family == "K1"), None)
        first = next((f.crop for f in forged if f.crop), None)
        authentic = Item.model_validate({
            "id": f"{seed_id}-original", "seed_id": seed_id, "image": orig.rel,
            "label": "authentic", "domain": scene.domain, "noun": scene.noun,
            "crop": people or first, "event": scene.event.model_dump(),
            "wrong_event": getattr(scene, "wrong_event", None) if people else None,
            "principal_figures": [p.name for p in scene.people if p.principal],
            "source": getattr(scene, "source", None),
            "provenance": {"seed": scene.image, "reviewer": None},
        })  # fmt: skip
        out.items += [authentic, *forged]
    write_items(root / "items.jsonl", out.items)
    write_jsonl(root / "kb.jsonl", facts)
    return out
