"""PIXAR in the interchange formats: a pairs folder as a table (``export-dataset --format hf``).

One row per pair, as :mod:`.loc_items` loads it: ``id`` (the edited file's stem), ``image`` (the
edited file's path), ``original``, the edited image's ``width`` x ``height`` and the label
threshold ``tau``. Image columns: ``original`` and ``edited`` (the files' bytes) and ``mask``, the
truth label map at ``tau`` (255 where the pair differs by more than tau, seed 003's pixel label,
:func:`forgebench.construct.pixels.label_u8`), computed for the table's users and not written back
by the import (the folder's pairs define it).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from forgebench.construct.pixels import label_u8
from forgebench.interop.layout import DatasetLayout, ImageColumn
from forgebench.suites.base import Selection
from forgebench.suites.pixar.loc_items import load_items
from forgebench.suites.pixar.pairs import encode_label_png, read_rgb

CONTRACT = """\
One row per (original, edited) pair of a PIXAR pairs folder (DESIGN.md "PIXAR identifiers"): `id`
(the edited file's stem), `image` (the edited file's path), `width` x `height` (the edited image's
decoded size), `tau` (the pixel-label threshold). `original` and `edited` are the two images as
files; `mask` is the truth label map at `tau` (a pixel is tampered when the mean absolute RGB
difference exceeds tau), computed from them. The paths are the files' places in the folder
(`original/`, `edited/`)."""


class PixarPair(BaseModel):
    """The contract's fields of a PIXAR item (the table's columns)."""

    id: str
    """The edited file's stem."""
    image: str
    """The edited image, relative to the pairs folder."""
    original: str
    """The original image, relative to the pairs folder."""
    width: int
    """The edited image's decoded width."""
    height: int
    """The edited image's decoded height."""
    tau: float
    """The pixel-label threshold of the truth."""


def _items(root: Path) -> Iterator[dict[str, Any]]:
    yield from load_items(root, Selection()).items


def _mask(root: Path, item: Mapping[str, Any]) -> bytes:
    original = read_rgb(root / str(item["original"]))
    edited = read_rgb(root / str(item["image"]))
    return encode_label_png(label_u8(original, edited, float(item["tau"])))


def layout() -> DatasetLayout:
    """The table layout of a PIXAR pairs folder."""
    return DatasetLayout(
        benchmark="pixar",
        items_file=None,
        item_model=PixarPair,
        images={
            "original": ImageColumn(lambda it: [str(it["original"])]),
            "edited": ImageColumn(lambda it: [str(it["image"])]),
            "mask": ImageColumn(lambda it: [f"labels/{it['id']}.png"], derived=_mask),
        },
        license=lambda it: "",
        contract=CONTRACT,
        read_items=_items,
    )
