"""``forgebench validate``: every problem of a Mandela dataset folder, one line each.

:func:`validate_dataset` reads a folder (DESIGN.md "Mandela dataset folder") and returns a
:class:`ValidationReport`; it never writes anything. Each :class:`Problem` renders as
``FILE:LINE: FIELD: message`` (``items.jsonl:17: family: 'K9' is not one of K0..K6``); ``FIELD``
is ``-`` when a whole line is at fault. The validator never stops at the first problem.

Errors (the dataset cannot be used as it is):

- ``items.jsonl`` / ``kb.jsonl`` lines that are not UTF-8, not JSON or not a JSON object;
- fields missing or of the wrong type (the pydantic :class:`~forgebench.suites.mandela.contract.Item`),
  enum values outside their list; empty ``id``, ``seed_id``, ``image`` or ``noun``;
- boxes that are not 4 JSON integers, are empty (``x0 >= x1`` or ``y0 >= y1``, boxes are
  half-open) or reach outside their image (``edit.region``, ``crop``, ``faces.replacement`` in the
  item's image; ``faces.original`` in ``faces.original_image``);
- duplicate item ids (and duplicate KB ids), naming the line of the first occurrence;
- image paths that are absolute or leave the folder (symbolic links resolved: a link to a file
  outside the folder is refused), images larger than Pillow's safe-decoding limit (refused from
  their header, never decoded), images that are missing or cannot be fully
  decoded (``Image.open(...).load()``), for ``image`` and ``faces.original_image``;
- forged items without a family; authentic items with a ``family``, ``control_for``, ``k1_type``,
  ``variant`` or ``edit``; ``control_for`` on a non-K0 item; ``k1_type`` on a non-K1 item;
- absent-celebrity triples: ``erase`` must be K1 / ``absent_celebrity`` and carry ``erased``;
  ``swap`` must be K1 with a named-insertion ``k1_type`` (not ``absent_celebrity``); ``k0`` must be
  K0; a K1 ``absent_celebrity`` item must be the ``erase`` member; a ``swap`` or ``k0`` member
  whose seed has no ``erase`` item;
- peripheral items (forged, saliency C2/C3) without an ``edit`` or without a ``crop``; any
  forged item whose ``crop`` does not contain its ``edit.region``.

Warnings (printed, never change the exit code):

- an image whose EXIF orientation is not 1 (boxes are in the stored pixel grid, which then differs
  from what viewers show; ``forgebench import --normalize`` turns it upright); once per image;
- an ``erase`` item without a ``swap`` or ``k0`` sibling (the paper's release has such
  erasures, Appendix L), and a seed with more than one member of the same triple variant;
- an authentic original of a seed that has peripheral forgeries but no ``crop``: DESIGN.md asks
  for one, but the item is still usable under every condition except the crop ones, so it only
  drops out of the crop populations (a warning, not an error);
- a forged non-peripheral item without ``edit`` (the judge's ground truth lacks the region);
  ``erased`` or ``faces`` on an item that is not an ``erase`` member (no probe reads them).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args

from pydantic import BaseModel, ValidationError

from forgebench.suites.mandela import _validate_rules as rules
from forgebench.suites.mandela import contract as mandela
from forgebench.suites.mandela.contract import Item, KBEntity
from forgebench.util.images import ImageCheckError, ImageInfo, inspect_image, orientation_name
from forgebench.util.jsonl import iter_jsonl, json_type
from forgebench.util.paths import outside_reason
from forgebench.util.problems import Problem

ITEMS_FILE = "items.jsonl"
KB_FILE = "kb.jsonl"

_ENUMS: dict[str, tuple[str, ...]] = {
    "label": get_args(mandela.Label),
    "family": get_args(mandela.Family),
    "control_for": get_args(mandela.ControlFamily),
    "k1_type": get_args(mandela.K1Type),
    "variant": get_args(mandela.TripleVariant),
    "domain": get_args(mandela.Domain),
    "saliency": get_args(mandela.Saliency),
}
SUMMARY_FIELDS = ("label", "family", "domain", "saliency", "k1_type", "variant")
"""The fields :meth:`ValidationReport.summary` counts, in display order."""
BOX_FIELDS = (("edit", "region"), ("crop",), ("faces", "original"), ("faces", "replacement"))


@dataclass
class ValidationReport:
    """The outcome of :func:`validate_dataset`."""

    root: Path
    errors: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)
    """Items whose line has no error, in file order."""
    kb: list[KBEntity] = field(default_factory=list)
    """KB entities whose line has no error."""
    item_lines: dict[str, int] = field(default_factory=dict)
    """Line in ``items.jsonl`` of each item in :attr:`items`."""

    @property
    def ok(self) -> bool:
        """True when there is no error (warnings allowed)."""
        return not self.errors

    def summary(self) -> dict[str, dict[str, int]]:
        """Counts of :attr:`items` by each of :data:`SUMMARY_FIELDS` (``-`` counts nulls)."""
        out: dict[str, dict[str, int]] = {}
        for name in SUMMARY_FIELDS:
            counts = Counter(getattr(it, name) or "-" for it in self.items)
            order = [*_ENUMS[name], "-"]
            out[name] = {k: counts[k] for k in order if counts[k]}
        return out


Report = ValidationReport
"""Short alias of :class:`ValidationReport`."""


def validate_dataset(
    root: Path, *, progress: Callable[[int, int], None] | None = None, decode: bool = True
) -> ValidationReport:
    """Check a dataset folder and report every problem (see the module docstring for the rules).

    ``progress(done, total)`` is called as images are decoded. ``decode=False`` reads only the
    images' headers (their size, format and orientation; what ``run`` needs before it starts).
    """
    root = Path(root)
    report = ValidationReport(root=root)
    v = _Validator(root, report)
    v.decode = decode
    if not root.is_dir():
        v.add(
            str(root), None, "-", "no such dataset folder" if not root.exists() else "not a folder"
        )
    elif not (root / ITEMS_FILE).is_file():
        v.add(str(root / ITEMS_FILE), None, "-", "not found (a dataset folder holds items.jsonl)")
    else:
        v.run(progress)
    report.errors.sort(key=_order)
    report.warnings.sort(key=_order)
    bad = {p.line for p in report.errors if p.file == ITEMS_FILE}
    report.items = [it for it in v.items if v.lines[id(it)] not in bad]
    report.item_lines = {it.id: v.lines[id(it)] for it in report.items}
    bad_kb = {p.line for p in report.errors if p.file == KB_FILE}
    report.kb = [e for line, e in v.kb if line not in bad_kb]
    return report


def _order(p: Problem) -> tuple[int, int]:
    return (0 if p.file == ITEMS_FILE else 1 if p.file == KB_FILE else -1, p.line or 0)


def _short(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False) if _jsonable(value) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def allowed_values(name: str) -> str:
    """The allowed values of an enum field, compact: ``K0..K6``, ``forged, authentic``."""
    values = _ENUMS[name]
    prefixes = {v[:-1] for v in values}
    digits = [v[-1] for v in values]
    if len(prefixes) == 1 and all(d.isdigit() for d in digits) and len(values) > 2:
        nums = [int(d) for d in digits]
        if nums == list(range(nums[0], nums[0] + len(nums))):
            return f"{values[0]}..{values[-1]}"
    return ", ".join(values)


def _loc(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "-"


def translate_error(err: Any) -> tuple[str, str]:
    """A pydantic error as ``(field path, message)`` in the validator's words."""
    path = _loc(tuple(err["loc"]))
    kind, value = err["type"], err.get("input")
    last = err["loc"][-1] if err["loc"] else ""
    if kind == "missing":
        return path, "required field is missing"
    if kind == "literal_error" and isinstance(last, str) and last in _ENUMS:
        return path, f"{_short(value)} is not one of {allowed_values(last)}".replace('"', "'")
    expected = {
        "string_type": "a string",
        "list_type": "a list",
        "tuple_type": "a list",
        "model_type": "an object",
        "dict_type": "an object",
        "int_type": "an integer",
        "int_parsing": "an integer",
    }.get(kind)
    if expected:
        return path, f"expected {expected}, got {json_type(value)} {_short(value)}".rstrip()
    return path, f"{err['msg']} (got {_short(value)})"


def _box_shape_error(value: Any) -> str | None:
    """Why ``value`` is not ``[x0, y0, x1, y1]`` of 4 JSON integers, or None."""
    ok = (
        isinstance(value, list)
        and len(value) == 4
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    )
    return None if ok else f"expected a box [x0, y0, x1, y1] of 4 integers, got {_short(value)}"


def box_geometry_error(box: tuple[int, int, int, int], size: tuple[int, int] | None) -> str | None:
    """Why a half-open box is empty or leaves a ``size`` image, or None."""
    x0, y0, x1, y1 = box
    if x0 >= x1 or y0 >= y1:
        return f"empty box {list(box)}: needs x0 < x1 and y0 < y1 (half-open pixel box)"
    if size is not None and (x0 < 0 or y0 < 0 or x1 > size[0] or y1 > size[1]):
        return f"box {list(box)} is outside the {size[0]}x{size[1]} image"
    return None


class _Validator:
    def __init__(self, root: Path, report: ValidationReport) -> None:
        self.root = root
        self.report = report
        self.items: list[Item] = []
        self.lines: dict[int, int] = {}
        self.kb: list[tuple[int, KBEntity]] = []
        self.decode = True

    def add(self, file: str, line: int | None, fld: str, msg: str, *, warn: bool = False) -> None:
        if warn:
            self.report.warnings.append(Problem(file, line, fld, msg, "warning"))
        else:
            self.report.errors.append(Problem(file, line, fld, msg))

    def err(self, line: int, fld: str, msg: str) -> None:
        self.add(ITEMS_FILE, line, fld, msg)

    def warn(self, line: int, fld: str, msg: str) -> None:
        self.add(ITEMS_FILE, line, fld, msg, warn=True)

    def run(self, progress: Callable[[int, int], None] | None) -> None:
        raw_images: list[tuple[int, str, str]] = []
        seen: dict[str, int] = {}
        broken_erase: set[str] = set()
        count = 0
        for line, obj, problem in iter_jsonl(self.root / ITEMS_FILE):
            count += 1
            if obj is None:
                self.err(line, "-", problem or "unreadable line")
                continue
            item_id = obj.get("id")
            if isinstance(item_id, str) and item_id:
                if item_id in seen:
                    self.err(
                        line, "id", f"duplicate id {item_id!r} (first on line {seen[item_id]})"
                    )
                else:
                    seen[item_id] = line
            item = self._model(line, obj, Item)
            if item is not None:
                self.items.append(item)
                self.lines[id(item)] = line
            else:
                if isinstance(obj.get("image"), str):
                    raw_images.append((line, "image", obj["image"]))
                if obj.get("variant") == "erase" and isinstance(obj.get("seed_id"), str):
                    broken_erase.add(obj["seed_id"])
        if count == 0:
            self.add(ITEMS_FILE, None, "-", "no items (the file is empty)")
        for item in self.items:
            rules.check_item(self, self.lines[id(item)], item)
        members = [(self.lines[id(it)], it) for it in self.items]
        rules.check_seeds(self, members, frozenset(broken_erase))
        self._images(raw_images, progress)
        self._kb()

    def _model(self, line: int, obj: dict[str, Any], model: type[BaseModel]) -> Any:
        file = ITEMS_FILE if model is Item else KB_FILE
        shaped: set[str] = set()
        if model is Item:
            for parts in BOX_FIELDS:
                value: Any = obj
                for part in parts:
                    value = value.get(part) if isinstance(value, dict) else None
                if value is not None and (msg := _box_shape_error(value)):
                    shaped.add(".".join(parts))
                    self.add(file, line, ".".join(parts), msg)
            for name in ("id", "seed_id", "image", "noun"):
                if obj.get(name) == "":
                    self.add(file, line, name, "must not be empty")
        try:
            return model.model_validate(obj)
        except ValidationError as exc:
            for e in exc.errors():
                where, msg = translate_error(e)
                if not any(where == s or where.startswith(s + "[") for s in shaped):
                    self.add(file, line, where, msg)
            return None

    def _images(
        self, raw: list[tuple[int, str, str]], progress: Callable[[int, int], None] | None
    ) -> None:
        refs = list(raw)
        for item in self.items:
            line = self.lines[id(item)]
            refs.append((line, "image", item.image))
            if item.faces is not None:
                refs.append((line, "faces.original_image", item.faces.original_image))
        bad_paths = {ref[2]: outside_reason(self.root, ref[2]) for ref in refs}
        paths = sorted({p for p, why in bad_paths.items() if why is None})
        infos: dict[str, ImageInfo | str] = {}

        def inspect(rel: str) -> tuple[str, ImageInfo | str]:
            try:
                return rel, inspect_image(self.root / rel, decode=self.decode)
            except ImageCheckError as exc:
                return rel, str(exc)

        workers = max(1, min(8, os.cpu_count() or 1))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            for done, (rel, found) in enumerate(pool.map(inspect, paths), start=1):
                infos[rel] = found
                if progress is not None:
                    progress(done, len(paths))
        warned: set[str] = set()
        for line, fld, rel in sorted(refs, key=lambda r: r[0]):
            why = bad_paths[rel]
            info: ImageInfo | str | None = infos.get(rel)
            if why is not None:
                self.err(line, fld, why)
            elif isinstance(info, str):
                self.err(line, fld, f"{rel}: {info}")
            elif info is not None and info.orientation not in (None, 1) and rel not in warned:
                warned.add(rel)
                self.warn(
                    line,
                    fld,
                    f"{rel} has EXIF orientation {info.orientation} "
                    f"({orientation_name(info.orientation)}); boxes are read in the stored pixel "
                    "grid, which viewers show turned (forgebench import --normalize turns it upright)",
                )
        for item in self.items:
            main = infos.get(item.image)
            size = main.size if isinstance(main, ImageInfo) else None
            boxes: list[tuple[str, Any, tuple[int, int] | None]] = [
                ("edit.region", item.edit.region if item.edit else None, size),
                ("crop", item.crop, size),
            ]
            if item.faces is not None:
                orig = infos.get(item.faces.original_image)
                osize = orig.size if isinstance(orig, ImageInfo) else None
                boxes += [
                    ("faces.replacement", item.faces.replacement, size),
                    ("faces.original", item.faces.original, osize),
                ]
            for fld, box, sz in boxes:
                if box is not None and (msg := box_geometry_error(box, sz)):
                    self.err(self.lines[id(item)], fld, msg)

    def _kb(self) -> None:
        path = self.root / KB_FILE
        if not path.exists():
            return
        if not path.is_file():
            self.add(KB_FILE, None, "-", "not a file")
            return
        seen: dict[str, int] = {}
        for line, obj, problem in iter_jsonl(path):
            if obj is None:
                self.add(KB_FILE, line, "-", problem or "unreadable line")
                continue
            ent_id = obj.get("id")
            if isinstance(ent_id, str):
                if ent_id in seen:
                    msg = f"duplicate id {ent_id!r} (first on line {seen[ent_id]})"
                    self.add(KB_FILE, line, "id", msg)
                else:
                    seen[ent_id] = line
            entity = self._model(line, obj, KBEntity)
            if entity is not None:
                self.kb.append((line, entity))
