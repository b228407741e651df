"""Our JSONL form of a Forensics-Bench dataset (Table 9's uniform metadata).

A dataset folder::

    DATASET/
      benchmark.txt    "forensics": the suite of the folder (how ``forgebench run`` knows it)
      dataset.json     {"suite": "forensics", ...}: provenance (source file, item count)
      items.jsonl      one item per line (:class:`ForensicsItem`)
      images/ab/abcd...png   image files, content-addressed (sha256 of the bytes)

One item is one released multiple-choice question: its image(s) (several for multi-image and
video rows, whose frames are the images), the five perspectives in Table 5's abbreviations, the
question, its options ``A``.. (only the non-empty ones), the answer letter, the optional hint,
and Table 9's descriptive fields (resolution, source, caption for image+text items, frame indices
for videos). Fields we do not know are kept, never rejected.
"""

from __future__ import annotations

import json
import re
from array import array
from collections.abc import Container, Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, overload

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from forgebench.suites.forensics.marker import (
    BENCHMARK_FILE,
    MARKER_FILE,
    SUITE,
)
from forgebench.suites.forensics.taxonomy import (
    PERSPECTIVES,
    VALUES,
    TaxonomyError,
    TypeCode,
    parse_category,
)
from forgebench.util.jsonl import parse_line
from forgebench.util.paths import PathCheck

ITEMS_FILE = "items.jsonl"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXY"
"""Option letters (``Z`` is reserved for "no option": refusals and failed extraction)."""

_LETTER = re.compile(r"^[A-Y]$")


class ForensicsItem(BaseModel):
    """One Forensics-Bench question (DESIGN.md "Forensics identifiers")."""

    model_config = ConfigDict(extra="allow", frozen=True)

    id: str = Field(min_length=1)
    """Item id: the release TSV's ``index`` as a string."""
    images: list[str] = Field(min_length=1)
    """Image paths relative to the dataset folder, in the order they are shown (video: frames)."""
    question: str = Field(min_length=1)
    """The question text as released."""
    options: dict[str, str] = Field(min_length=2)
    """Option letter -> option text, only non-empty options, letters ``A``.. in order."""
    answer: str
    """The correct option letter."""
    hint: str | None = None
    """The release's optional ``hint`` (shown before the question)."""
    semantic: str
    """Forgery semantic (Table 5): ``HS`` or ``GS``."""
    modality: str
    """Forgery modality: ``RGB``, ``NIR``, ``VID``, ``RGB&TXT``."""
    task: str
    """Forgery task: ``BC``, ``SLS``, ``SLD``, ``TL``."""
    type: str
    """Forgery type, e.g. ``ES``, ``FE&FT``; ``REAL`` for real media."""
    model: str
    """Forgery model, e.g. ``DF``, ``ED&GR``; ``REAL`` for real media."""
    type_code: str | None = None
    """``SEMANTIC-MODALITY-TASK-TYPE-MODEL``; filled from the five fields when absent."""
    category: str | None = None
    """The release's ``category`` string, kept so an export writes it back unchanged."""
    resolution: tuple[int, int] | None = None
    """Width and height of the first image, in pixels (Table 9 "Image Resolution")."""
    source: str | None = None
    """Data source, e.g. ``DFFD_StyleGANv1_ffhq`` (Table 9 "Data Source")."""
    caption: str | None = None
    """The caption of an image+text (``RGB&TXT``) item, when recorded apart from the question."""
    frames: list[int] | None = None
    """For videos: the indices of the sampled frames that ``images`` holds."""
    image_path: list[str] | None = None
    """The release's ``image_path`` cell(s), provenance only."""

    @field_validator("options")
    @classmethod
    def _options(cls, v: dict[str, str]) -> dict[str, str]:
        letters = list(v)
        if letters != list(LETTERS[: len(letters)]):  # else every key is one of A..Y already
            if any(not _LETTER.match(k) for k in letters):
                raise ValueError(f"option keys must be letters A..Y, got {letters}")
            raise ValueError(f"option letters must run A, B, ... without gaps, got {letters}")
        for text in v.values():
            if not str(text).strip():
                raise ValueError("an option text is empty (leave unused options out)")
        return v

    @field_validator("answer")
    @classmethod
    def _answer(cls, v: str, info: ValidationInfo) -> str:
        options = info.data.get("options")
        if options is not None and v not in options:
            raise ValueError(f"{v!r} is not one of the options {list(options)}")
        return v

    @field_validator(*PERSPECTIVES)
    @classmethod
    def _abbreviation(cls, v: str, info: ValidationInfo) -> str:
        allowed = VALUES[info.field_name]  # type: ignore[index]
        if v not in allowed:
            raise ValueError(f"{v!r} is not one of {', '.join(allowed)}")
        return v

    @field_validator("type_code", "category")
    @classmethod
    def _agrees(cls, v: str | None, info: ValidationInfo) -> str | None:
        fields = [info.data.get(p) for p in PERSPECTIVES]
        if v is None or None in fields:
            return v
        code = "-".join(str(f) for f in fields)
        if info.field_name == "type_code":
            if v != code:
                raise ValueError(f"{v!r} disagrees with the five perspective fields ({code})")
            return v
        try:
            from_cat = _category_code(v)
        except TaxonomyError as exc:
            raise ValueError(str(exc)) from None
        if from_cat != code:
            raise ValueError(f"{v!r} means {from_cat}, the perspective fields say {code}")
        return v

    @model_validator(mode="after")
    def _fill_code(self) -> ForensicsItem:
        if self.type_code is None:
            object.__setattr__(self, "type_code", str(self.code))
        return self

    @property
    def code(self) -> TypeCode:
        """The item's type code."""
        return TypeCode(self.semantic, self.modality, self.task, self.type, self.model)


@lru_cache(maxsize=1024)
def _category_code(category: str) -> str:
    """``str(parse_category(category))``: a release has 112 categories and 63k rows, each row
    validated again whenever it is read (an error is raised each time, never cached)."""
    return str(parse_category(category))


def item_json(item: ForensicsItem) -> str:
    """One JSONL line (no newline) for ``item``; unset optional fields are left out."""
    return json.dumps(item.model_dump(mode="json", exclude_none=True), ensure_ascii=False)


def write_markers(root: Path, provenance: dict[str, Any]) -> None:
    """Write ``benchmark.txt`` and ``dataset.json`` into a (temporary) dataset folder."""
    (root / BENCHMARK_FILE).write_text(SUITE + "\n", encoding="utf-8")
    marker = {"suite": SUITE, **provenance}
    (root / MARKER_FILE).write_text(json.dumps(marker, indent=2) + "\n", encoding="utf-8")


def load_items(root: Path) -> list[ForensicsItem]:
    """All items of a dataset folder (raises ``ValueError`` naming the first bad line;
    ``forgebench validate`` lists every problem)."""
    return list(open_items(root))


def open_items(root: Path) -> ItemFile:
    """The items of a dataset folder, each line checked now (``ValueError`` naming the first bad
    one) but held as file offsets only: a 63k-item release costs half a megabyte, not the 170 MB
    its validated objects take; iterating reads and validates them again, one at a time."""
    path = root / ITEMS_FILE
    offsets: array[int] = array("q")
    check = PathCheck(root)
    with path.open("rb") as fh:
        pos = 0
        for lineno, raw in enumerate(fh, start=1):
            start, pos = pos, pos + len(raw)
            item = _parse(raw, path, lineno)
            if item is None:
                continue
            for k, rel in enumerate(item.images):
                why = check.reason(rel)
                if why is not None:
                    raise ValueError(f"{path}:{lineno}: images.{k}: {why}")
            offsets.append(start)
    return ItemFile(path, offsets)


class ItemFile(Sequence[ForensicsItem]):
    """A dataset's items read from ``items.jsonl`` on demand, in file order (a ``Sequence``, so
    the engine stores and expands it like a list)."""

    def __init__(self, path: Path, offsets: array[int]) -> None:
        self.path = path
        self._offsets = offsets

    def __len__(self) -> int:
        return len(self._offsets)

    @overload
    def __getitem__(self, index: int) -> ForensicsItem: ...

    @overload
    def __getitem__(self, index: slice) -> list[ForensicsItem]: ...

    def __getitem__(self, index: int | slice) -> ForensicsItem | list[ForensicsItem]:
        if isinstance(index, slice):
            return list(self._read(self._offsets[index]))
        return next(self._read([self._offsets[index]]))

    def __iter__(self) -> Iterator[ForensicsItem]:
        return self._read(self._offsets)

    def only(self, ids: Container[str]) -> ItemFile:
        """The items whose id is in ``ids``, in file order."""
        keep = array(
            "q", (off for off, it in zip(self._offsets, self, strict=True) if it.id in ids)
        )
        return ItemFile(self.path, keep)

    def _read(self, offsets: Iterable[int]) -> Iterator[ForensicsItem]:
        with self.path.open("rb") as fh:
            for off in offsets:
                if fh.tell() != off:
                    fh.seek(off)
                item = _parse(fh.readline(), self.path, None)
                if item is None:
                    raise ValueError(f"{self.path}: changed since it was loaded")
                yield item


def _parse(raw: bytes, path: Path, lineno: int | None) -> ForensicsItem | None:
    """The item of one line (None: a blank line); ``ValueError`` naming the line."""
    where = f"{path}:{lineno}" if lineno is not None else f"{path} (changed since it was loaded)"
    obj, err = parse_line(raw)
    if err is not None:
        raise ValueError(f"{where}: {err}")
    if obj is None:
        return None
    try:
        return ForensicsItem.model_validate(obj)
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None


_LAST: list[Any] = [None, None]
"""The item last validated by :func:`validated` and its model (the viewer asks three times)."""


def validated(item: Mapping[str, Any] | ForensicsItem) -> ForensicsItem:
    """``item`` as a :class:`ForensicsItem`; validated once when asked again about the same
    (unchanged: the model is frozen, the dict is the caller's) object in a row."""
    if isinstance(item, ForensicsItem):
        return item
    if _LAST[0] is item:
        return _LAST[1]
    model = ForensicsItem.model_validate(item)
    _LAST[0], _LAST[1] = item, model
    return model
