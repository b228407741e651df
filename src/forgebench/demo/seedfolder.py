"""The demo as a seed folder: what ``forgebench propose`` and ``forgebench build`` start from.

:func:`write_seed_folder` writes ``images/KEY.png`` (each canonical image), ``assets/`` (the
patches and masks its edits use), ``scenes.jsonl`` (scene records: event, domain, noun, the
people, objects and text the verification reads, provenance and the wrong-caption event),
``kb.jsonl`` (the fact table) and ``proposals.jsonl`` (one edit specification per forgery,
proposer ``demo``). Nothing here makes a forged pixel: the builder renders them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from forgebench.construct.specs import write_jsonl
from forgebench.demo.specs import Forgery, SeedSpec


class SeedFolderError(ValueError):
    """A demo forgery whose edit does not fit its operation (a bug in the demo's specs)."""


_OPS = {
    "paste": ("insert", "replace"),
    "recolour": ("recolour",),
    "remove": ("remove",),
    "retext": ("retext",),
}


def _png(arr: np.ndarray, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(arr).save(path, format="PNG", compress_level=1)


def _proposal(seed: SeedSpec, f: Forgery, root: Path) -> dict[str, Any]:
    e = f.edit
    if f.operation not in _OPS[e.kind]:
        raise SeedFolderError(f"{seed.key}-{f.tag}: a {e.kind} edit cannot be a {f.operation!r}")
    params = dict(e.params)
    row: dict[str, Any] = {}
    if e.patch is not None:
        rel = f"assets/{seed.key}-{f.tag}-patch.png"
        _png(e.patch, root / rel)
        params["patch"] = rel
    if e.mask is not None:
        rel = f"assets/{seed.key}-{f.tag}-mask.png"
        _png(((e.mask > 0.5) * 255).astype(np.uint8), root / rel)
        row["mask"] = rel
    row.update({
        "id": f"{seed.key}-{f.tag}", "seed_id": seed.key, "family": f.family,
        "control_for": f.control_for, "k1_type": f.k1_type, "variant": f.variant,
        "saliency": f.saliency, "operation": f.operation, "region": list(e.region),
        "instruction": f.instruction, "entity": f.entity, "target": f.target, "text": e.text,
        "attribute": f.attribute, "place": f.place, "contradiction": f.contradiction,
        "params": params, "proposer": "demo", "wrong_name": f.wrong_name,
    })  # fmt: skip
    return {k: v for k, v in row.items() if v is not None}


def write_seed_folder(root: Path, seeds: list[SeedSpec], kb: list[dict[str, Any]]) -> Path:
    """Write the seed folder (see the module docstring); returns ``proposals.jsonl``."""
    scenes, proposals = [], []
    for seed in seeds:
        image = f"images/{seed.key}.png"
        _png(seed.rgb, root / image)
        scenes.append({
            "id": seed.key, "image": image, "event": seed.event, "domain": seed.domain,
            "noun": seed.noun, **seed.record, "source": seed.source,
            **({"wrong_event": seed.wrong_event} if seed.wrong_event else {}),
        })  # fmt: skip
        proposals += [_proposal(seed, f, root) for f in seed.forgeries]
    write_jsonl(root / "scenes.jsonl", scenes)
    write_jsonl(root / "kb.jsonl", kb)
    write_jsonl(root / "proposals.jsonl", proposals)
    return root / "proposals.jsonl"
