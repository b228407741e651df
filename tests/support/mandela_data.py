"""A small Mandela dataset with real images, for the run-stage and hostile-input tests.

Imported as ``from support.mandela_data import write_mandela_dataset`` (pytest puts ``tests/`` on
the path).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

EVENT = {"label": "Apollo 11 lunar landing", "date": "1969-07-20", "place": "Moon"}


def write_mandela_dataset(root: Path, seeds: int = 1, label: str = EVENT["label"]) -> Path:
    """``seeds`` authentic/forged pairs of 32x24 PNGs (distinct pixels) under ``root``;
    ``--probes L0 --conditions full`` makes 2 tasks per seed. ``label`` names the event."""
    (root / "images").mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    lines = []
    for s in range(seeds):
        for kind in ("auth", "k2"):
            name = f"images/s{s}_{kind}.png"
            arr = rng.integers(0, 256, size=(24, 32, 3), dtype=np.uint8)
            Image.fromarray(arr, "RGB").save(root / name)
            item: dict[str, Any] = {
                "id": f"s{s}-{kind}",
                "seed_id": f"s{s}",
                "image": name,
                "label": "authentic" if kind == "auth" else "forged",
                "domain": "A1",
                "noun": "photograph",
                "event": {**EVENT, "label": label},
            }
            if kind == "k2":
                item.update(
                    family="K2",
                    saliency="C1",
                    edit={"operation": "insert", "region": [2, 2, 10, 10]},
                    entity={"name": "a digital wristwatch"},
                )
            lines.append(json.dumps(item))
    (root / "items.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root
