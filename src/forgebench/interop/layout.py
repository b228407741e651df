"""How a suite's dataset folder maps to a table of one row per item (the Hugging Face dataset
export and its import).

A suite whose dataset is a JSONL file of items plus image files describes it with a
:class:`DatasetLayout`: the items file, the contract's item model (its fields become columns, in
order; their column kinds come from the field annotations), the image columns (each names, for an
item, the image paths it holds, relative to the folder), the licence of an item, the contract's
text for the dataset card, and the small files of the folder that travel verbatim (a knowledge
base, the folder's markers). Fields an item carries beyond the contract go into one JSON column,
``extra``, so nothing is dropped.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

Kind = Literal["string", "int", "float", "bool", "json"]
"""A column's kind: a scalar parquet type, or ``json`` (nested values as JSON text)."""


@dataclass(frozen=True)
class ImageColumn:
    """One image column: where an item keeps the paths of its images."""

    paths: Callable[[Mapping[str, Any]], list[str]]
    """The item's image paths for this column (relative to the dataset folder; empty: none)."""
    many: bool = False
    """A list of images (a ``List(Image)`` feature) rather than at most one."""
    derived: Callable[[Path, Mapping[str, Any]], bytes] | None = None
    """For an image the folder does not hold but computes (PIXAR's truth mask): its bytes from
    the folder and the item. Exported for users; the import does not write it back."""


@dataclass(frozen=True)
class DatasetLayout:
    """A suite's dataset folder as a table (see the module docstring)."""

    benchmark: str
    """The suite's name."""
    items_file: str | None
    """The JSONL file of items, relative to the folder (None: the folder's files are the items,
    read by ``read_items``; the import then writes the images only)."""
    item_model: type[BaseModel]
    """The contract's item model: its fields are the table's columns, in order."""
    images: Mapping[str, ImageColumn]
    """Image column name -> where an item keeps those images."""
    license: Callable[[Mapping[str, Any]], str]
    """An item's licence ('' when the item names none)."""
    contract: str
    """The contract in a few Markdown lines, for the dataset card."""
    files: tuple[str, ...] = ()
    """Other small files of the folder (relative paths) that travel verbatim when present."""
    read_items: Callable[[Path], Iterable[dict[str, Any]]] | None = None
    """The items of a folder without an items file, in order."""
    kinds: Mapping[str, Kind] = field(default_factory=dict)
    """Column kinds that override :func:`kinds_of` (rarely needed)."""

    def columns(self) -> dict[str, Kind]:
        """The contract's fields and their column kinds, in order."""
        return {**kinds_of(self.item_model), **self.kinds}


_SCALARS: dict[Any, Kind] = {str: "string", int: "int", float: "float", bool: "bool"}


def _kind(annotation: Any) -> Kind:
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        kinds = {_kind(a) for a in typing.get_args(annotation) if a is not type(None)}
        return kinds.pop() if len(kinds) == 1 else "json"
    if origin is Literal:
        values = typing.get_args(annotation)
        return "string" if all(isinstance(v, str) for v in values) else "json"
    return _SCALARS.get(annotation, "json")


def kinds_of(model: type[BaseModel]) -> dict[str, Kind]:
    """Column kinds of a pydantic model's fields, in order: ``str``, ``int``, ``float``,
    ``bool`` (optional or not) and string literals are scalar columns; everything else
    (models, lists, dicts, tuples, unions of several kinds) is JSON text."""
    return {name: _kind(f.annotation) for name, f in model.model_fields.items()}
