"""Assemble kept PIXAR candidates into a pairs folder.

``original/ID.png``, ``edited/ID.png`` (lossless) and ``labels/ID.png`` (the label at tau), which
``forgebench pixar`` commands read as a pairs folder, plus ``pairs.jsonl`` with the manipulation
type, the Table 14 description and provenance
(:func:`forgebench.construct.assemble.provenance`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

from forgebench.construct.assemble import Kept, copy_original, provenance
from forgebench.construct.facts import Knowledge
from forgebench.construct.specs import write_jsonl
from forgebench.suites.pixar.construct.rules import pixar_edit
from forgebench.suites.pixar.taxonomy import Edit, describe_all


def write_pixar(kept: list[Kept], know: Knowledge, seed_root: Path, root: Path) -> int:
    """Write the PIXAR pairs folder; returns the number of pairs."""
    rows = []
    for sub in ("original", "edited", "labels"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    for k in kept:
        sid = k.spec.id
        copy_original(
            seed_root, know.scenes[k.spec.seed_id].image, root / "original" / f"{sid}.png"
        )
        Image.fromarray(k.pixels).save(root / "edited" / f"{sid}.png")
        assert k.label is not None
        Image.fromarray((k.label > 0).astype(np.uint8) * 255).save(root / "labels" / f"{sid}.png")
        edits: list[Edit] = [e for s in k.spec.all_steps if (e := pixar_edit(s)) is not None]
        rows.append({
            "id": sid, "seed_id": k.spec.seed_id,
            "manipulation": [e.primitive.value for e in edits],
            "description": describe_all(edits),
            "semantic_class": [e.semantic_class for e in edits],
            "provenance": provenance(k),
        })  # fmt: skip
    write_jsonl(root / "pairs.jsonl", rows)
    return len(rows)
