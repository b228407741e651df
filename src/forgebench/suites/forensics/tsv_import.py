"""Import the official release ``ForensicsBench.tsv`` (a VLMEvalKit-style TSV) as a dataset folder.

The columns and their cells: :mod:`.tsv_rows`. An ``image`` cell of 64 characters or fewer is the
``index`` of another row whose image(s) it reuses, as VLMEvalKit's ``ImageBaseDataset`` resolves
it. A row without ``image`` data may name its file(s) in ``image_path``, relative to the TSV's
folder.

Streaming, two passes, memory bounded by the number of rows (never by image bytes): pass 1 reads
one row at a time, decodes and writes its images (content-addressed, :mod:`.images`) and spools
the row, with its image references still unresolved, to a temporary file; pass 2 resolves the
references (a reference may name a later row) and writes ``items.jsonl``. Everything is written
to a temporary folder that replaces ``--out`` only when no row has an error, so a failed import
leaves nothing half-written.
"""

from __future__ import annotations

import base64
import binascii
import csv
import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from forgebench.suites.forensics.contract import (
    ITEMS_FILE,
    LETTERS,
    ForensicsItem,
    item_json,
    write_markers,
)
from forgebench.suites.forensics.images import ImageFolder, NotAnImage
from forgebench.suites.forensics.problems import ForensicsDataError
from forgebench.suites.forensics.taxonomy import PERSPECTIVES, TaxonomyError, parse_category
from forgebench.suites.forensics.tsv_rows import (
    REQUIRED,
    cell_text,
    parse_image_cell,
    read_header,
    read_rows,
)
from forgebench.util.atomic import clean_stale, temp_name
from forgebench.util.owned import replace_folder, replace_guard
from forgebench.util.paths import outside_reason
from forgebench.util.problems import Problem

REF_MAX = 64
"""An ``image`` cell this short is a reference to another row's ``index`` (VLMEvalKit's rule)."""
MAX_ERRORS = 200
"""Stop collecting after this many problems (the file is then clearly not the release format)."""


@dataclass
class ImportSummary:
    """What :func:`import_release_tsv` wrote."""

    out: Path
    items: int
    images: int
    references: int
    """Rows whose image cell referenced another row."""


@dataclass
class _Pending:
    images: list[dict[str, str]]
    line: int


class _Importer:
    def __init__(self, src: Path, work: Path, on_row: Callable[[int], None] | None) -> None:
        self.src = src
        self.name = src.name
        self.work = work
        self.images = ImageFolder(work)
        self.problems: list[Problem] = []
        self.resolved: dict[str, list[str]] = {}
        self._sizes: dict[str, tuple[int, int]] = {}
        self.pending: dict[str, _Pending] = {}
        self.lines: dict[str, int] = {}
        self.on_row = on_row
        self.references = 0

    def error(self, line: int | None, field: str, message: str) -> None:
        self.problems.append(Problem(self.name, line, field, message))
        if len(self.problems) >= MAX_ERRORS:
            raise ForensicsDataError(f"{self.name}: too many problems", self.problems)

    def pass_one(self, spool: Path) -> int:
        try:
            header = read_header(self.src)
        except (UnicodeDecodeError, csv.Error) as exc:
            self.error(1, "-", f"not a UTF-8 TSV header ({exc})")
            return 0
        missing = [c for c in REQUIRED if c not in header]
        if not {"image", "image_path"} & set(header):
            missing.append("image (or image_path)")
        if missing:
            self.error(
                1,
                "-",
                f"missing column(s) {', '.join(missing)} (a ForensicsBench TSV has "
                "index, image, question, A, B, ..., answer, category)",
            )
            return 0
        n = 0
        with spool.open("w", encoding="utf-8") as out:
            try:
                for line, row in read_rows(self.src):
                    n += 1
                    rec = self._row(line, row)
                    if rec is not None:
                        out.write(json.dumps(rec, ensure_ascii=False) + "\n")
                    if self.on_row is not None:
                        self.on_row(n)
            except (UnicodeDecodeError, csv.Error) as exc:
                if isinstance(exc, UnicodeDecodeError):
                    self.error(None, "-", "not UTF-8 text (the release TSV is UTF-8)")
                else:
                    self.error(None, "-", f"not a TSV ({exc}), after row {n}")
        return n

    def _row(self, line: int, row: dict[str, str]) -> dict[str, Any] | None:
        index = (row.get("index") or "").strip()
        if not index:
            self.error(line, "index", "empty")
            return None
        if index in self.lines:
            self.error(line, "index", f"duplicate {index!r} (first on line {self.lines[index]})")
            return None
        self.lines[index] = line
        ok = True
        try:
            code = parse_category(row.get("category") or "")
        except TaxonomyError as exc:
            self.error(line, "category", str(exc))
            ok = False
        images = self._images(line, index, row)
        if images is None or not ok:
            return None
        options = {k: row[k] for k in LETTERS if cell_text(row, k) is not None}
        rec: dict[str, Any] = {
            "id": index,
            "question": row.get("question") or "",
            "options": options,
            "answer": (row.get("answer") or "").strip(),
            "hint": cell_text(row, "hint"),
            "category": (row.get("category") or "").strip(),
            **{p: code.value(p) for p in PERSPECTIVES},
        }
        paths = cell_text(row, "image_path")
        if paths is not None:
            try:
                rec["image_path"] = parse_image_cell(paths)
            except ValueError:
                rec["image_path"] = [paths.strip()]
        if not self._check(line, {**rec, "images": ["-"]}):
            return None
        rec["__line__"] = line
        rec["__images__"] = images
        return rec

    def _images(self, line: int, index: str, row: dict[str, str]) -> list[dict[str, str]] | None:
        cell = cell_text(row, "image")
        entries: list[dict[str, str]] = []
        if cell is None:
            paths = cell_text(row, "image_path")
            if paths is None:
                self.error(line, "image", "empty, and no image_path")
                return None
            try:
                listed = parse_image_cell(paths)
            except ValueError as exc:
                self.error(line, "image_path", str(exc))
                return None
            for p in listed:
                why = outside_reason(self.src.parent, p, "table's folder")
                if why is not None:
                    self.error(line, "image_path", why)
                    return None
                f = self.src.parent / p
                if not f.is_file():
                    self.error(line, "image_path", f"{p!r} not found next to {self.name}")
                    return None
                try:
                    entries.append({"path": self._put(f.read_bytes())})
                except NotAnImage:
                    self.error(line, "image_path", f"{p!r} is not an image")
                    return None
            return entries
        try:
            parts = parse_image_cell(cell)
        except ValueError as exc:
            self.error(line, "image", f"not base64, a list of base64 strings or an index ({exc})")
            return None
        for k, part in enumerate(parts):
            where = "image" if len(parts) == 1 else f"image[{k}]"
            if len(part) <= REF_MAX:
                if part == index:
                    self.error(line, where, f"refers to its own index {index!r}")
                    return None
                entries.append({"ref": part})
                continue
            try:
                data = base64.b64decode(part, validate=True)
            except (binascii.Error, ValueError):
                self.error(line, where, "not valid base64")
                return None
            try:
                entries.append({"path": self._put(data)})
            except NotAnImage as exc:
                self.error(line, where, f"base64 that is not an image ({exc})")
                return None
        if any("ref" in e for e in entries):
            self.references += 1
        return entries

    def _put(self, data: bytes) -> str:
        stored = self.images.put(data)
        self._sizes[stored.path] = stored.size
        return stored.path

    def _check(self, line: int, rec: dict[str, Any]) -> bool:
        try:
            ForensicsItem.model_validate(rec)
        except ValidationError as exc:
            for e in exc.errors():
                field = ".".join(str(x) for x in e["loc"]) or "-"
                self.error(line, field, str(e["msg"]).removeprefix("Value error, "))
            return False
        return True

    def _resolve(self, index: str) -> list[str] | None:
        """The image paths of row ``index``, following references (None: unresolvable: a
        cycle, a missing row). Iterative, so a chain of thousands of rows cannot overflow the
        stack; every row on the way is resolved (and remembered) once."""
        stack = [index]
        on_path = {index}
        while stack:
            top = stack[-1]
            if top in self.resolved:
                stack.pop()
                on_path.discard(top)
                continue
            pend = self.pending.get(top)
            if pend is None:
                return None
            waiting = [
                e["ref"] for e in pend.images if "ref" in e and e["ref"] not in self.resolved
            ]
            if not waiting:
                out: list[str] = []
                for e in pend.images:
                    out.extend([e["path"]] if "path" in e else self.resolved[e["ref"]])
                self.resolved[top] = out
                stack.pop()
                on_path.discard(top)
                continue
            nxt = waiting[0]
            if nxt in on_path:
                return None  # a cycle
            stack.append(nxt)
            on_path.add(nxt)
        return self.resolved.get(index)

    def pass_two(self, spool: Path, dest: Path) -> int:
        # Index every spooled row's image entries first (small: paths and references only).
        with spool.open("r", encoding="utf-8") as fh:
            for raw in fh:
                rec = json.loads(raw)
                entries = rec["__images__"]
                if all("path" in e for e in entries):
                    self.resolved[rec["id"]] = [e["path"] for e in entries]
                else:
                    self.pending[rec["id"]] = _Pending(entries, rec["__line__"])
        n = 0
        with spool.open("r", encoding="utf-8") as fh, dest.open("w", encoding="utf-8") as out:
            for raw in fh:
                rec = json.loads(raw)
                line = rec.pop("__line__")
                rec.pop("__images__")
                paths = self._resolve(rec["id"])
                if paths is None:
                    refs = [e["ref"] for e in self.pending[rec["id"]].images if "ref" in e]
                    why = [r for r in refs if r not in self.lines]
                    msg = (
                        f"refers to index {why[0]!r}, which no row has"
                        if why
                        else f"reference(s) {refs} do not lead to image data (a cycle or a bad row)"
                    )
                    self.error(line, "image", msg)
                    continue
                rec["images"] = paths
                rec["resolution"] = self._sizes.get(paths[0])
                item = ForensicsItem.model_validate(rec)
                out.write(item_json(item) + "\n")
                n += 1
        return n


def import_release_tsv(
    src: Path,
    out: Path,
    *,
    force: bool = False,
    on_row: Callable[[int], None] | None = None,
) -> ImportSummary:
    """Import ``src`` into the dataset folder ``out`` (see the module docstring).

    Raises :class:`ForensicsDataError` listing every problem (``FILE:LINE: FIELD: message``); then
    nothing is written. ``out`` must not exist (or be empty) unless ``force``.
    """
    if not src.is_file():
        raise ForensicsDataError(f"{src}: no such file")
    if out.exists() and any(out.iterdir()) and not force:
        raise ForensicsDataError(f"{out} exists and is not empty (give --force to replace it)")
    if out.exists():
        replace_guard(out, "dataset", sources=[src])
    out.parent.mkdir(parents=True, exist_ok=True)
    clean_stale(out.parent, out.name)
    work = out.parent / temp_name(out.name, "importing")
    work.mkdir()
    try:
        imp = _Importer(src, work, on_row)
        spool = work / ".rows.jsonl"
        rows = imp.pass_one(spool)
        n = imp.pass_two(spool, work / ITEMS_FILE) if spool.exists() else 0
        if imp.problems:
            raise ForensicsDataError(f"{src.name}: {len(imp.problems)} problem(s)", imp.problems)
        if rows == 0:
            raise ForensicsDataError(f"{src.name}: no rows")
        spool.unlink()
        write_markers(work, {"source": src.name, "format": "ForensicsBench.tsv", "items": n})
        n_images = sum(1 for _ in (work / "images").rglob("*") if _.is_file())
        replace_folder(work, out, "dataset", sources=[src])
        return ImportSummary(out, n, n_images, imp.references)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
