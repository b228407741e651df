"""A small Mandela dataset with real images, built in tmp_path (protocol tests)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from forgebench.suites.mandela.contract import Dataset, load_dataset

E1 = {"label": "1986 World Cup final: Maradona lifts the trophy", "date": "1986-06-29"}
E2 = {"label": "Apollo 11 lunar landing", "date": "1969-07-20", "place": "Moon"}
E3 = {"label": "Inauguration of the bridge", "date": "1937-05-27"}
E4 = {"label": "A 1960 concert", "date": "1960-01-01"}
WRONG = {"label": "1982 World Cup final", "date": "1982-07-11"}


def pattern(width: int, height: int, seed: int, mode: str = "RGB") -> Image.Image:
    """A deterministic, non-symmetric test picture."""
    rng = np.random.default_rng(seed)
    channels = {"RGB": 3, "RGBA": 4, "L": 1}[mode]
    arr = rng.integers(0, 256, size=(height, width, channels), dtype=np.uint8)
    arr[:, : width // 3, 0] = 255  # a bright left band: a flip shows
    if channels == 1:
        return Image.fromarray(arr[:, :, 0], "L")
    return Image.fromarray(arr, mode)


BASE_ITEMS: list[dict[str, Any]] = [
    # seed s1: a peripheral K1 forgery, its original and a K0 control
    {"id": "s1-auth", "seed_id": "s1", "image": "images/s1.png", "label": "authentic",
     "domain": "A3", "noun": "photograph", "crop": [10, 8, 50, 40], "event": E1,
     "wrong_event": WRONG},
    {"id": "s1-k1", "seed_id": "s1", "image": "images/s1_k1.jpg", "label": "forged",
     "family": "K1", "k1_type": "date_impossible", "domain": "A3", "noun": "photograph",
     "saliency": "C2", "crop": [12, 6, 60, 44], "event": E1, "wrong_event": WRONG,
     "edit": {"operation": "insert", "region": [20, 10, 40, 30]},
     "entity": {"name": "George Orwell", "aliases": ["Eric Blair"]},
     "principal_figures": ["Diego Maradona"],
     "contradiction": "George Orwell died in 1950, before the 1986 World Cup final."},
    {"id": "s1-k0", "seed_id": "s1", "image": "images/s1_k0.png", "label": "forged",
     "family": "K0", "control_for": "K1", "domain": "A3", "noun": "photograph",
     "saliency": "C2", "crop": [12, 6, 60, 44], "event": E1,
     "edit": {"operation": "insert", "region": [20, 10, 40, 30]}},
    # seed s2: a peripheral K2 forgery and its original
    {"id": "s2-auth", "seed_id": "s2", "image": "images/s2.png", "label": "authentic",
     "domain": "A1", "noun": "photograph", "crop": [0, 0, 30, 30], "event": E2},
    {"id": "s2-k2", "seed_id": "s2", "image": "images/s2_k2.png", "label": "forged",
     "family": "K2", "domain": "A1", "noun": "photograph", "saliency": "C3",
     "crop": [5, 5, 35, 25], "event": E2, "entity": {"name": "a digital wristwatch"},
     "edit": {"operation": "insert", "region": [10, 10, 20, 20]}},
    # seed s3: an absent-celebrity triple and its original
    {"id": "s3-auth", "seed_id": "s3", "image": "images/s3.png", "label": "authentic",
     "domain": "A5", "noun": "photograph", "event": E3},
    {"id": "s3-erase", "seed_id": "s3", "image": "images/s3_erase.png", "label": "forged",
     "family": "K1", "k1_type": "absent_celebrity", "variant": "erase", "domain": "A5",
     "noun": "photograph", "saliency": "C1", "event": E3,
     "entity": {"name": "Winston Churchill"},
     "erased": {"name": "Winston Churchill", "aliases": ["Churchill"]},
     "faces": {"original": [20, 10, 44, 40], "replacement": [21, 11, 43, 41],
               "original_image": "images/s3.png", "wrong_name": "Clement Attlee"}},
    {"id": "s3-swap", "seed_id": "s3", "image": "images/s3_swap.png", "label": "forged",
     "family": "K1", "k1_type": "cross_domain", "variant": "swap", "domain": "A5",
     "noun": "photograph", "saliency": "C1", "event": E3, "entity": {"name": "Pele"}},
    {"id": "s3-k0", "seed_id": "s3", "image": "images/s3_k0.png", "label": "forged",
     "family": "K0", "control_for": "K1", "variant": "k0", "domain": "A5",
     "noun": "photograph", "saliency": "C1", "event": E3},
    # seed s4: a main-figure K1 forgery without an authentic item of its event
    {"id": "s4-k1", "seed_id": "s4", "image": "images/s4_k1.png", "label": "forged",
     "family": "K1", "k1_type": "cross_domain", "domain": "A4", "noun": "painting",
     "saliency": "C1", "event": E4, "entity": {"name": "Elvis Presley"}},
]  # fmt: skip


def write_dataset(root: Path, items: list[dict[str, Any]]) -> Path:
    """Write items.jsonl and one distinct picture per image path (80x60)."""
    (root / "images").mkdir(parents=True, exist_ok=True)
    paths = sorted({it["image"] for it in items})
    for i, rel in enumerate(paths):
        path = root / rel
        if path.exists():
            continue
        im = pattern(80, 60, seed=i + 1)
        if rel.endswith(".jpg"):
            im.save(path, format="JPEG", quality=90)
        else:
            im.save(path, format="PNG")
    with (root / "items.jsonl").open("w", encoding="utf-8") as fh:
        for it in items:
            fh.write(json.dumps(it) + "\n")
    return root


@pytest.fixture
def base_items() -> list[dict[str, Any]]:
    """A fresh, editable copy of the base items."""
    return copy.deepcopy(BASE_ITEMS)


@pytest.fixture
def make_dataset(tmp_path: Path) -> Callable[..., Dataset]:
    """``make_dataset(items=None, name="ds")`` writes and loads a dataset folder."""

    def make(items: list[dict[str, Any]] | None = None, name: str = "ds") -> Dataset:
        root = write_dataset(tmp_path / name, copy.deepcopy(items or BASE_ITEMS))
        return load_dataset(root)

    return make


@pytest.fixture
def dataset(make_dataset: Callable[..., Dataset]) -> Dataset:
    """The base dataset."""
    return make_dataset()


@pytest.fixture(autouse=True)
def _cache_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Keep every variant cache of these tests inside tmp_path."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("FORGEBENCH_CACHE", str(cache))
    return cache
