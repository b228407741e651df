"""Mandela in the interchange formats: the right verdict of a task and the dataset's table
layout (``export-dataset --format hf``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forgebench.interop.layout import DatasetLayout, ImageColumn
from forgebench.suites.mandela.contract import Item

VERDICT_PROBES = frozenset({"L0", "L1", "L-adv"})
"""Probes whose answer is a REAL/FAKE verdict with one right value (the item's label)."""

CONTRACT = """\
One row per item of a Mandela dataset (DESIGN.md "Mandela dataset folder"): `id`, `seed_id`,
`label` (`forged` | `authentic`), `family` (K0-K6), `domain` (A1-A6), the edit box, crop, event,
entity and face records (nested records as JSON text), `source` (url, licence). `image` is the
item's picture; `face_original` the original face image of absent-celebrity items (`faces`).
The paths in `image` and `faces` are the files' places in the dataset folder; `kb.jsonl`
(the knowledge base of entities) travels beside the data."""


def target(item: Mapping[str, Any], probe: str) -> str | None:
    """``FAKE`` for a forged item and ``REAL`` for an authentic one, on the verdict probes."""
    if probe not in VERDICT_PROBES:
        return None
    return {"forged": "FAKE", "authentic": "REAL"}.get(str(item.get("label")))


def _face(item: Mapping[str, Any]) -> list[str]:
    faces = item.get("faces")
    path = faces.get("original_image") if isinstance(faces, Mapping) else None
    return [str(path)] if path else []


def _license(item: Mapping[str, Any]) -> str:
    source = item.get("source")
    return str(source.get("license") or "") if isinstance(source, Mapping) else ""


def layout() -> DatasetLayout:
    """The table layout of a Mandela dataset folder."""
    return DatasetLayout(
        benchmark="mandela",
        items_file="items.jsonl",
        item_model=Item,
        images={
            "image": ImageColumn(lambda it: [str(it["image"])] if it.get("image") else []),
            "face_original": ImageColumn(_face),
        },
        license=_license,
        contract=CONTRACT,
        files=("kb.jsonl", "normalization.json"),
    )
