"""Fixtures for the dataset tests: small, real Mandela dataset folders with real images."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from support.textured import IMAGE_SIZE, write_image

__all__ = ["IMAGE_SIZE", "write_image"]

_EVENT = {"label": "1986 World Cup final", "date": "1986-06-29", "place": "Mexico City"}
_BASE: list[dict[str, Any]] = [
    # line 1: authentic original of a seed with peripheral forgeries (carries a crop)
    {"id": "s1-orig", "seed_id": "s1", "image": "images/s1.jpg", "label": "authentic",
     "domain": "A3", "noun": "photograph", "saliency": None, "crop": [40, 10, 90, 60],
     "event": _EVENT, "principal_figures": ["Diego Maradona"],
     "source": {"url": "https://example.org/s1", "license": "CC0"}},
    # line 2: peripheral people-family forgery
    {"id": "s1-k1", "seed_id": "s1", "image": "images/s1-k1.png", "label": "forged",
     "family": "K1", "k1_type": "date_impossible", "domain": "A3", "noun": "photograph",
     "saliency": "C2", "edit": {"operation": "insert", "region": [50, 20, 70, 40],
                                "instruction": "add George Orwell among the photographers"},
     "crop": [40, 10, 90, 60], "event": _EVENT,
     "wrong_event": {"label": "1982 World Cup final", "date": "1982-07-11"},
     "entity": {"name": "George Orwell", "aliases": ["Eric Blair"], "role": "photographer"},
     "contradiction": "George Orwell died in 1950, before the 1986 final."},
    # line 3: its anchor-free control
    {"id": "s1-k0", "seed_id": "s1", "image": "images/s1-k0.png", "label": "forged",
     "family": "K0", "control_for": "K1", "domain": "A3", "noun": "photograph",
     "saliency": "C3", "edit": {"operation": "insert", "region": [50, 20, 70, 40]},
     "crop": [40, 10, 90, 60], "event": _EVENT},
    # line 4: authentic original of the absent-celebrity seed
    {"id": "s2-orig", "seed_id": "s2", "image": "images/s2.jpg", "label": "authentic",
     "domain": "A5", "noun": "photograph", "event": {"label": "Truman holds the paper",
                                                     "date": "1948-11-03"}},
    # lines 5-7: the absent-celebrity triple
    {"id": "s2-erase", "seed_id": "s2", "image": "images/s2-erase.png", "label": "forged",
     "family": "K1", "k1_type": "absent_celebrity", "variant": "erase", "domain": "A5",
     "noun": "photograph", "saliency": "C1",
     "edit": {"operation": "replace", "region": [10, 10, 30, 30]},
     "event": {"label": "Truman holds the paper", "date": "1948-11-03"},
     "erased": {"name": "Harry S. Truman", "aliases": ["Truman"]},
     "faces": {"original": [10, 10, 30, 30], "replacement": [10, 10, 30, 30],
               "original_image": "images/s2.jpg", "wrong_name": None}},
    {"id": "s2-swap", "seed_id": "s2", "image": "images/s2-swap.png", "label": "forged",
     "family": "K1", "k1_type": "cross_domain", "variant": "swap", "domain": "A5",
     "noun": "photograph", "saliency": "C1",
     "edit": {"operation": "replace", "region": [10, 10, 30, 30]},
     "event": {"label": "Truman holds the paper", "date": "1948-11-03"},
     "entity": {"name": "Taylor Swift", "aliases": [], "role": "holding the paper"}},
    {"id": "s2-k0", "seed_id": "s2", "image": "images/s2-k0.png", "label": "forged",
     "family": "K0", "variant": "k0", "domain": "A5", "noun": "photograph", "saliency": "C1",
     "edit": {"operation": "replace", "region": [10, 10, 30, 30]},
     "event": {"label": "Truman holds the paper", "date": "1948-11-03"}},
    # line 8: a text forgery on a painting
    {"id": "s3-k4", "seed_id": "s3", "image": "images/s3-k4.jpg", "label": "forged",
     "family": "K4", "domain": "A4", "noun": "painting", "saliency": "C1",
     "edit": {"operation": "retext", "region": [0, 0, 96, 16]},
     "event": {"label": "Washington Crossing the Delaware", "date": "1851"}},
]  # fmt: skip

_KB = [
    {"id": "Q3335", "name": "George Orwell", "aliases": ["Eric Blair"], "died": "1950-01-21"},
    {"id": "Q11613", "name": "Harry S. Truman", "born": "1884-05-08"},
]


def base_items() -> list[dict[str, Any]]:
    """A fresh copy of the valid dataset's item rows (line N is ``base_items()[N - 1]``)."""
    return copy.deepcopy(_BASE)


def write_jsonl(path: Path, rows: list[Any]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


MakeDataset = Callable[..., Path]


@pytest.fixture
def make_mandela(tmp_path: Path) -> MakeDataset:
    """``make(items=None, kb=..., name="ds", images=True, absent=()) -> folder``: a dataset on disk.

    Every image that the items name (``image`` and ``faces.original_image``, when a plain relative
    path) is drawn at 96x64, unless ``images=False`` or the path is in ``absent``.
    """

    def make(
        items: list[Any] | None = None,
        kb: list[Any] | None = None,
        name: str = "ds",
        images: bool = True,
        absent: tuple[str, ...] = (),
    ) -> Path:
        root = tmp_path / name
        root.mkdir()
        rows = base_items() if items is None else items
        write_jsonl(root / "items.jsonl", rows)
        write_jsonl(root / "kb.jsonl", copy.deepcopy(_KB) if kb is None else kb)
        if images:
            for n, row in enumerate(rows):
                if not isinstance(row, dict):
                    continue
                faces = row.get("faces") if isinstance(row.get("faces"), dict) else {}
                for rel in (row.get("image"), faces.get("original_image")):
                    plain = isinstance(rel, str) and rel and rel[0] != "/" and ".." not in rel
                    if plain and rel not in absent and not (root / str(rel)).exists():
                        write_image(root / str(rel), seed=n)
        return root

    return make
