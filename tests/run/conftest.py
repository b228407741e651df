"""Run-stage fixtures: a small Mandela dataset with real images, a model spec for the fake server."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

EVENT = {"label": "Apollo 11 lunar landing", "date": "1969-07-20", "place": "Moon"}


def write_run_dataset(root: Path, seeds: int) -> Path:
    """``seeds`` authentic/forged pairs (32x24 PNGs, distinct pixels) under ``root``."""
    (root / "images").mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    lines = []
    for s in range(seeds):
        for kind in ("auth", "k2"):
            name = f"images/s{s}_{kind}.png"
            arr = rng.integers(0, 256, size=(24, 32, 3), dtype=np.uint8)
            Image.fromarray(arr, "RGB").save(root / name)
            item: dict[str, object] = {
                "id": f"s{s}-{kind}",
                "seed_id": f"s{s}",
                "image": name,
                "label": "authentic" if kind == "auth" else "forged",
                "domain": "A1",
                "noun": "photograph",
                "event": EVENT,
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


@pytest.fixture
def make_dataset(tmp_path: Path) -> Callable[[int], Path]:
    """``make_dataset(seeds)``: a dataset folder; ``--probes L0,L1 --conditions full`` gives
    4 tasks per seed."""

    def make(seeds: int) -> Path:
        return write_run_dataset(tmp_path / f"ds{seeds}", seeds)

    return make
