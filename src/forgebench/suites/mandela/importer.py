"""``forgebench import``: a CSV / Parquet (or JSONL) table into a Mandela dataset folder.

The table has the fields of ``items.jsonl`` (DESIGN.md "Mandela dataset folder"), one item per
row. Reading rules (:mod:`forgebench.suites.mandela._table`):

- nested fields are dotted columns (``event.label``, ``edit.region``, ``entity.aliases``,
  ``source.license``); a whole object may also be one JSON cell (column ``event``);
- list- and box-typed fields (``crop``, ``edit.region``, ``faces.original``, ``entity.aliases``,
  ``principal_figures``, ...) are JSON cells (``[10,20,30,40]``, ``["Orwell"]``); other known fields
  are text, taken verbatim; unknown (extra) columns are text unless the cell starts with ``[`` or
  ``{``, then JSON;
- an empty cell is null: the field is left out (its default applies), and an object whose columns
  are all empty is null;
- Parquet cells may also be native lists, structs and numbers; integers in text fields become
  text (as they would from a CSV), dates become ISO text, integral floats in boxes become ints.

Images: ``image`` and ``faces.original_image`` are paths relative to ``--images-root`` (default:
the table's folder) or absolute; either way the file (links resolved) must lie inside the images
root, so a table cannot copy ``/etc/...`` or ``../../secret.png`` into a dataset. Each distinct source file is copied once into ``DATASET/images/``:
a relative path keeps its sub-folders (``a/b.jpg`` -> ``images/a/b.jpg``; a leading ``images/`` is
not doubled), an absolute path (or one with ``..``) keeps only its file name, and a name already
taken by a different file gets ``-2``, ``-3``, ... before its suffix. The item's paths are rewritten.

``--normalize`` re-encodes every image as Appendix C does (JPEG quality 92, longest side 1280,
only downscaling; the details are in :mod:`forgebench.util.images`) and scales the boxes with
it. It records the parameters and each image's source hash in ``DATASET/normalization.json`` and
adds ``normalized: {scale, quality, longest_side, source_sha256, source_size, exif_orientation}``
to every item (an extra field, kept by the contract).

The dataset is written to a hidden temporary folder beside ``--out`` and renamed into place only
when :func:`~forgebench.suites.mandela.validate.validate_dataset` finds no error; otherwise the temporary
folder is removed and every problem is reported against the table's own lines (CSV: the line in
the file, header = line 1; Parquet: the 1-based row). An existing non-empty ``--out`` is only
replaced with ``force=True``. ``--kb FILE`` copies a ``kb.jsonl`` into the folder (validated too).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from forgebench import __version__
from forgebench.errors import UserError
from forgebench.suites.mandela._table import Row, TableError, read_table
from forgebench.suites.mandela.validate import (
    ITEMS_FILE,
    KB_FILE,
    ValidationReport,
    box_geometry_error,
    validate_dataset,
)
from forgebench.util.atomic import clean_stale, temp_name
from forgebench.util.images import (
    JPEG_QUALITY,
    LONGEST_SIDE,
    ImageCheckError,
    Normalized,
    inspect_image,
    normalize_image,
)
from forgebench.util.owned import replace_folder, replace_guard
from forgebench.util.paths import inside
from forgebench.util.problems import Problem

IMAGE_FIELDS = (("image",), ("faces", "original_image"))
NORMALIZATION_FILE = "normalization.json"
_BOXES_OF = {
    ("image",): (("edit", "region"), ("crop",), ("faces", "replacement")),
    ("faces", "original_image"): (("faces", "original"),),
}


class ImportFailed(UserError):
    """The import wrote nothing; ``problems`` lists every reason, one line each."""

    def __init__(self, message: str, problems: list[Problem] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or []

    def details(self) -> list[str]:
        return [str(p) for p in self.problems]


@dataclass
class ImportResult:
    """A successful import."""

    out: Path
    """The dataset folder written."""
    report: ValidationReport
    """Validation of the written folder (no errors; maybe warnings, mapped to the table)."""
    n_images: int
    """Image files written."""
    normalized: bool
    """Whether images were re-encoded (``--normalize``)."""
    warnings: list[Problem] = field(default_factory=list)
    """The report's warnings, located in the source table."""


def _get(obj: Any, path: tuple[str, ...]) -> Any:
    for part in path:
        obj = obj.get(part) if isinstance(obj, dict) else None
    return obj


def _set(obj: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    for part in path[:-1]:
        obj = obj[part]
    obj[path[-1]] = value


def _destination(value: str, taken: dict[str, Path], src: Path, normalize: bool) -> str:
    p = PurePosixPath(value.replace("\\", "/"))
    if p.is_absolute() or ".." in p.parts:
        rel = PurePosixPath("images", p.name)
    else:
        rel = p if p.parts and p.parts[0] == "images" else PurePosixPath("images", *p.parts)
    if normalize:
        rel = rel.with_suffix(".jpg")
    candidate, n = rel, 1
    while str(candidate) in taken and taken[str(candidate)] != src:
        n += 1
        candidate = rel.with_name(f"{rel.stem}-{n}{rel.suffix}")
    return str(candidate)


def _plan_images(
    rows: list[Row], images_root: Path, normalize: bool, problems: list[Problem]
) -> tuple[dict[str, Path], dict[tuple[int, tuple[str, ...]], str]]:
    """Which source file goes where; the destination of each (row, image field)."""
    taken: dict[str, Path] = {}
    by_source: dict[Path, str] = {}
    where: dict[tuple[int, tuple[str, ...]], str] = {}
    for index, row in enumerate(rows):
        for path in IMAGE_FIELDS:
            value = _get(row.data, path)
            if not isinstance(value, str) or not value:
                continue
            src = Path(value) if Path(value).is_absolute() else images_root / value
            if not src.is_file():
                problems.append(
                    Problem(row.file, row.line, ".".join(path), f"{src}: image file not found")
                )
                continue
            if not inside(images_root, src):
                msg = f"{value!r} lies outside the images root {images_root} (see --images-root)"
                problems.append(Problem(row.file, row.line, ".".join(path), msg))
                continue
            key = src.resolve()
            if key not in by_source:
                by_source[key] = _destination(value, taken, key, normalize)
                taken[by_source[key]] = key
            where[(index, path)] = by_source[key]
    return {dest: src for src, dest in by_source.items()}, where


def _write_images(
    plan: dict[str, Path],
    tmp: Path,
    normalize: bool,
    progress: Callable[[int, int], None] | None,
) -> tuple[dict[str, Normalized], dict[str, str]]:
    done: dict[str, Normalized] = {}
    failed: dict[str, str] = {}

    def one(dest: str) -> tuple[str, Normalized | str | None]:
        target = tmp / dest
        target.parent.mkdir(parents=True, exist_ok=True)
        if not normalize:
            shutil.copyfile(plan[dest], target)
            return dest, None
        try:
            inspect_image(plan[dest])
            return dest, normalize_image(plan[dest], target)
        except ImageCheckError as exc:
            return dest, str(exc)

    with ThreadPoolExecutor(max_workers=max(1, min(8, os.cpu_count() or 1))) as pool:
        for count, (dest, outcome) in enumerate(pool.map(one, sorted(plan)), start=1):
            if isinstance(outcome, Normalized):
                done[dest] = outcome
            elif isinstance(outcome, str):
                failed[dest] = outcome
            if progress is not None:
                progress(count, len(plan))
    return done, failed


def _apply_normalization(
    rows: list[Row],
    where: dict[tuple[int, tuple[str, ...]], str],
    done: dict[str, Normalized],
    problems: list[Problem],
) -> None:
    for (index, img_path), dest in where.items():
        norm = done.get(dest)
        if norm is None:
            continue
        row = rows[index]
        for box_path in _BOXES_OF[img_path]:
            box = _get(row.data, box_path)
            if not (isinstance(box, list) and len(box) == 4 and all(type(v) is int for v in box)):
                continue  # the validator reports the shape
            if msg := box_geometry_error((box[0], box[1], box[2], box[3]), norm.source_size):
                problems.append(Problem(row.file, row.line, ".".join(box_path), msg))
                continue
            _set(row.data, box_path, list(norm.map_box((box[0], box[1], box[2], box[3]))))
        if img_path == ("image",):
            row.data["normalized"] = {
                "scale": norm.scale,
                "quality": JPEG_QUALITY,
                "longest_side": LONGEST_SIDE,
                "source_sha256": norm.source_sha256,
                "source_size": list(norm.source_size),
                "exif_orientation": norm.orientation,
            }


def _normalization_record(src: Path, plan: dict[str, Path], done: dict[str, Normalized]) -> Any:
    from PIL import __version__ as pillow_version

    return {
        "tool": f"forgebench {__version__} import --normalize",
        "pillow": pillow_version,
        "source_table": str(src),
        "paper": "seed 000 Appendix C: JPEG quality 92, longest side 1280 px",
        "quality": JPEG_QUALITY,
        "longest_side": LONGEST_SIDE,
        "only_downscale": True,
        "resample": "lanczos",
        "exif_orientation": "applied to the pixels and the boxes, then dropped",
        "modes": "alpha flattened onto white; grayscale kept; other modes to RGB; ICC kept",
        "box_rounding": "outward: floor(x0*w'/w), floor(y0*h'/h), ceil(x1*w'/w), ceil(y1*h'/h)",
        "images": {
            dest: {
                "source": str(plan[dest]),
                "source_sha256": n.source_sha256,
                "source_size": list(n.source_size),
                "exif_orientation": n.orientation,
                "size": list(n.size),
                "scale": n.scale,
            }
            for dest, n in sorted(done.items())
        },
    }


def _check_out(src: Path, out: Path, force: bool, reads: list[Path | None]) -> None:
    if out.exists() and not (out.is_dir() and not any(out.iterdir())):
        if not force:
            what = "is not empty" if out.is_dir() else "is a file"
            raise ImportFailed(f"{out} exists and {what} (use --force to replace it)")
        if out.resolve() in src.resolve().parents:
            raise ImportFailed(f"{src} lies inside {out}; --force would delete it")
    replace_guard(out, "dataset", sources=reads)


def import_dataset(
    src: Path,
    out: Path,
    *,
    images_root: Path | None = None,
    normalize: bool = False,
    force: bool = False,
    kb: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ImportResult:
    """Import a table into the dataset folder ``out`` (module docstring); all or nothing.

    ``kb``: an optional ``kb.jsonl`` copied into the folder (and validated with it).

    Raises :class:`ImportFailed` (nothing written) with every problem found.
    """
    src, out = Path(src), Path(out)
    reads = [src, images_root, kb]
    _check_out(src, out, force, reads)
    try:
        rows, problems = read_table(src)
    except TableError as exc:
        raise ImportFailed(str(exc)) from None
    root = Path(images_root) if images_root is not None else src.parent
    if not root.is_dir():
        raise ImportFailed(f"{root}: images root is not a folder")
    if kb is not None and not Path(kb).is_file():
        raise ImportFailed(f"{kb}: no such KB file")
    plan, where = _plan_images(rows, root, normalize, problems)

    created = [p for p in [out.parent, *out.parent.parents] if not p.exists()]
    out.parent.mkdir(parents=True, exist_ok=True)
    clean_stale(out.parent, out.name)
    tmp = out.parent / temp_name(out.name, "importing")
    tmp.mkdir()
    try:
        done, failed = _write_images(plan, tmp, normalize, progress)
        for (index, path), dest in where.items():
            if dest in failed:
                row = rows[index]
                msg = f"{plan[dest]}: {failed[dest]}"
                problems.append(Problem(row.file, row.line, ".".join(path), msg))
            else:
                _set(rows[index].data, path, dest)
        if normalize:
            _apply_normalization(rows, where, done, problems)
            record = _normalization_record(src, plan, done)
            (tmp / NORMALIZATION_FILE).write_text(json.dumps(record, indent=2) + "\n")
        with (tmp / ITEMS_FILE).open("w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(row.data, ensure_ascii=False) + "\n")
        if kb is not None:
            shutil.copyfile(kb, tmp / KB_FILE)
        report = validate_dataset(tmp)
        blamed = {(p.line, p.field) for p in problems}
        sources = {dest: str(path) for dest, path in plan.items()}
        for p in report.errors:
            mapped = _to_source(p, rows, sources, kb)
            if (mapped.line, mapped.field) not in blamed:
                problems.append(mapped)
        if problems:
            problems.sort(key=lambda p: (p.file != rows[0].file if rows else 0, p.line or 0))
            raise ImportFailed(f"{src}: {len(problems)} problem(s); nothing written", problems)
        replace_folder(tmp, out, "dataset", sources=reads)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        for folder in created:
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()
        raise
    report.root = out
    warnings = [_to_source(p, rows, sources, kb) for p in report.warnings]
    return ImportResult(out, report, len(plan), normalize, warnings)


def _to_source(p: Problem, rows: list[Row], sources: dict[str, str], kb: Path | None) -> Problem:
    """A problem of the written folder located in the source table (and source images) instead."""
    if p.file == KB_FILE and kb is not None:
        return Problem(str(kb), p.line, p.field, p.message, p.severity)
    if p.file != ITEMS_FILE or p.line is None or not 1 <= p.line <= len(rows):
        return p
    row = rows[p.line - 1]
    message = p.message
    head, sep, rest = message.partition(": ")
    if sep and head in sources:
        message = f"{sources[head]}: {rest}"
    return Problem(row.file, row.line, p.field, message, p.severity)
