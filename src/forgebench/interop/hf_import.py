"""``forgebench import HF_FOLDER --out DATASET``: a folder written by ``export-dataset --format hf``
back into the suite's dataset folder.

It reads ``forgebench.json`` (the layout the export used) and the parquet shards of ``data/`` in
order, a batch of rows at a time, with pyarrow alone (no ``datasets`` needed). Each row becomes
an item line again: the contract's columns (JSON text parsed back; a null column is a field the
item did not carry), then the fields of ``extra``. Each image cell's bytes are written at its
``path``, under the dataset rules that hold for every dataset folder: the path must stay inside
the folder (:func:`forgebench.util.paths.lexical_reason`), must be one the item names, and the
bytes must be an image whose header size is within the decoding limit
(:func:`forgebench.util.images.pixel_limit_error`); one path given two different contents is
refused. The small files of ``files/`` come back beside the items.

All or nothing: everything is written into a hidden folder beside ``DATASET``, checked by the
suite's validator and renamed into place at the end; any problem raises :class:`HFImportError` (one line naming the shard and row)
and leaves no ``DATASET``.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import shutil
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from PIL import Image, UnidentifiedImageError

from forgebench.errors import UserError
from forgebench.interop.hf_export import EXTRA, FORMAT, META_FILE
from forgebench.interop.layout import DatasetLayout
from forgebench.util.atomic import clean_stale, temp_name
from forgebench.util.images import pixel_limit_error
from forgebench.util.jsonl import JSONTooDeep, load_json_bounded
from forgebench.util.owned import replace_folder, replace_guard
from forgebench.util.paths import (
    InputFileError,
    inside,
    lexical_reason,
    outside_reason,
    read_input_text,
    regular_file,
)

BATCH_ROWS = 256


class HFImportError(UserError):
    """A Hugging Face dataset folder that cannot be imported; the message names where."""


def read_meta(src: Path) -> dict[str, Any] | None:
    """The export's ``forgebench.json`` when ``src`` is such a folder, else None."""
    path = Path(src) / META_FILE
    if not path.exists():
        return None
    try:
        meta = load_json_bounded(read_input_text(path))
    except InputFileError as exc:
        raise HFImportError(str(exc)) from None
    except ValueError as exc:
        raise HFImportError(f"{path}: not readable JSON ({exc})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        return None
    return meta


KINDS = frozenset({"string", "int", "float", "bool", "json"})


def _check_meta(meta: dict[str, Any]) -> None:
    """The shape :func:`import_hf` relies on; :class:`HFImportError` naming the first field
    that is off."""
    columns, images, files = meta.get("columns"), meta.get("images"), meta.get("files", [])
    if not isinstance(columns, dict) or not all(
        isinstance(k, str) and isinstance(v, str) and v in KINDS for k, v in columns.items()
    ):
        raise HFImportError(f"{META_FILE}: columns: not a map of column -> kind")
    if not isinstance(images, dict) or not all(
        isinstance(v, str) and v in ("one", "many") for v in images.values()
    ):
        raise HFImportError(f"{META_FILE}: images: not a map of column -> one|many")
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        raise HFImportError(f"{META_FILE}: files: not a list of paths")


def _check_image(data: Any, where: str) -> bytes:
    if not isinstance(data, bytes | bytearray) or not data:
        raise HFImportError(f"{where}: no image bytes")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as im:
                too_big = pixel_limit_error(im.width, im.height)
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        raise HFImportError(f"{where}: not a recognised image") from None
    except Image.DecompressionBombError as exc:
        raise HFImportError(f"{where}: refused to decode: {exc}") from None
    if too_big is not None:
        raise HFImportError(f"{where}: {too_big}")
    return bytes(data)


def _shards(src: Path) -> list[Path]:
    """The parquet shards of ``data/``, each checked to be a regular file before anything opens
    it (a named pipe would block the import for ever, a device never end)."""
    shards = sorted((src / "data").glob("test-*.parquet"))
    if not shards:
        raise HFImportError(f"{src}: no data/test-*.parquet shards")
    for shard in shards:
        try:
            regular_file(shard)
        except InputFileError as exc:
            raise HFImportError(str(exc)) from None
    return shards


def _rows(shards: list[Path]) -> Iterator[tuple[str, int, dict[str, Any]]]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    for shard in shards:
        try:
            pf = pq.ParquetFile(shard)
            n = 0
            for batch in pf.iter_batches(batch_size=BATCH_ROWS):
                for row in batch.to_pylist():
                    yield shard.name, n, row
                    n += 1
        except (pa.ArrowException, OSError, ValueError) as exc:  # UnicodeDecodeError too
            why = " ".join(str(exc).split())  # Arrow's messages span lines
            raise HFImportError(f"{shard}: not a readable parquet file ({why})") from None


def _item(meta: dict[str, Any], row: dict[str, Any], where: str) -> dict[str, Any]:
    item: dict[str, Any] = {}
    images = dict(meta.get("images") or {})
    for name, kind in meta["columns"].items():
        value = None if name in images else row.get(name)
        if value is None:
            continue
        if kind == "json":
            try:
                value = load_json_bounded(value)
            except JSONTooDeep as exc:
                raise HFImportError(f"{where}: {name}: {exc}") from None
            except (TypeError, ValueError):
                raise HFImportError(f"{where}: {name}: not JSON text") from None
        item[name] = value
    try:
        extra = load_json_bounded(row.get(EXTRA) or "{}")
    except JSONTooDeep as exc:
        raise HFImportError(f"{where}: {EXTRA}: {exc}") from None
    except (TypeError, ValueError):
        raise HFImportError(f"{where}: {EXTRA}: not JSON text") from None
    if not isinstance(extra, dict):
        raise HFImportError(f"{where}: {EXTRA}: not a JSON object")
    for key, value in extra.items():
        item.setdefault(key, value)
    if not item.get("id"):
        raise HFImportError(f"{where}: the item has no id")
    return item


def import_hf(
    src: Path,
    out: Path,
    layout: DatasetLayout,
    *,
    force: bool = False,
    validate: Callable[[Path], list[str]] | None = None,
    links_into: Path | None = None,
) -> int:
    """Write the dataset folder ``out`` from the export ``src`` (of ``layout``'s suite); the
    number of items. ``validate`` (the suite's validator) checks the folder before it is moved
    into place: a problem refuses the whole import, naming the first. ``links_into``: the one
    folder outside ``src/files`` that a side file may resolve into (a Hub snapshot's files are
    links into its repository's ``blobs/``, :mod:`.hf_hub`). See the module docstring."""
    src, out = Path(src), Path(out)
    meta = read_meta(src)
    if meta is None:
        raise HFImportError(f"{src}: not a forgebench Hugging Face export (no {META_FILE})")
    _check_meta(meta)
    if meta.get("benchmark") != layout.benchmark:
        raise HFImportError(f"{src}: a {meta.get('benchmark')!r} export, not {layout.benchmark}")
    items_file = layout.items_file
    if items_file is not None and lexical_reason(items_file) is not None:
        raise HFImportError(f"{META_FILE}: items_file {lexical_reason(items_file)}")
    if out.exists() and (not out.is_dir() or any(out.iterdir())) and not force:
        raise HFImportError(f"{out}: exists and is not empty (use --force to replace it)")
    replace_guard(out, "dataset", sources=[src])
    shards = _shards(src)
    out.parent.mkdir(parents=True, exist_ok=True)
    clean_stale(out.parent, out.name)
    tmp = out.parent / temp_name(out.name, "importing")
    tmp.mkdir()
    written: dict[str, str] = {}
    n = 0
    try:
        items = (tmp / items_file).open("w", encoding="utf-8") if items_file else None
        with items or contextlib.nullcontext():
            for shard, index, row in _rows(shards):
                where = f"{shard} row {index}"
                item = _item(meta, row, where)
                for name, column in layout.images.items():
                    if column.derived is not None:  # computed from the folder: not written
                        continue
                    cells = row.get(name)
                    cells = [] if cells is None else cells if column.many else [cells]
                    if not isinstance(cells, list) or not all(
                        c is None or isinstance(c, dict) for c in cells
                    ):
                        raise HFImportError(f"{where}: {name}: not an image column")
                    paths = [str((c or {}).get("path") or "") for c in cells]
                    if name in meta.get("columns", {}) and cells:  # the path field's own column
                        item[name] = paths if column.many else paths[0]
                    named = column.paths(item)
                    if paths != named:
                        raise HFImportError(
                            f"{where}: {name}: image paths {paths} are not the item's {named}"
                        )
                    for cell, rel in zip(cells, paths, strict=True):
                        why = lexical_reason(rel)
                        if why is not None:
                            raise HFImportError(f"{where}: {name}: {why}")
                        data = _check_image(cell.get("bytes"), f"{where}: {name}: {rel}")
                        digest = hashlib.sha256(data).hexdigest()
                        if rel in written:
                            if written[rel] != digest:
                                raise HFImportError(
                                    f"{where}: {name}: {rel} given twice, differing"
                                )
                            continue
                        target = tmp / rel
                        target.parent.mkdir(parents=True, exist_ok=True)
                        if outside_reason(tmp, rel) is not None:
                            raise HFImportError(f"{where}: {name}: {outside_reason(tmp, rel)}")
                        target.write_bytes(data)
                        written[rel] = digest
                if items is not None:
                    items.write(json.dumps(item, ensure_ascii=False) + "\n")
                n += 1
        for rel in meta.get("files", []):
            why = lexical_reason(rel) or outside_reason(src / "files", rel)
            if why is not None and links_into is not None and lexical_reason(rel) is None:
                why = None if inside(links_into, src / "files" / rel) else why
            if why is not None:
                raise HFImportError(f"{META_FILE}: files: {why}")
            if rel in written or rel == items_file:
                raise HFImportError(f"{META_FILE}: files: {rel!r} is also an image or the items")
            if not (src / "files" / rel).is_file():
                raise HFImportError(f"{META_FILE}: files: {rel!r} is not in files/")
            (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src / "files" / rel, tmp / rel)
        problems = validate(tmp) if validate is not None else []
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise HFImportError(f"{src}: the items do not validate: {problems[0]}{more}")
        replace_folder(tmp, out, "dataset", sources=[src])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return n
