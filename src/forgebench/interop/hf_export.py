"""``export-dataset DATASET --format hf``: a dataset folder as a Hugging Face ``datasets`` folder.

The output folder (``datasets.load_dataset("parquet", data_dir=OUT)`` or ``load_dataset(OUT)``
reads it; ``forgebench import OUT`` reads it back):

- ``data/test-NNNNN-of-MMMMM.parquet``: split ``test``, one row per item in the items file's
  order. Columns: the contract's fields (scalars as such, nested values as JSON text), ``extra``
  (JSON of the fields an item carries beyond the contract; ``{}`` when none), ``license``, and one
  ``Image`` feature per image column of the suite's layout (a ``List(Image)`` for a list) holding
  each file's bytes and its path in the dataset folder. The schema is ``datasets``' own
  ``Features`` (the ``datasets`` extra), so the Hub and ``load_dataset`` see real images.
- ``files/``: the folder's small files that travel verbatim (a knowledge base, markers).
- ``forgebench.json``: the layout (benchmark, items file, columns, image columns, files) and
  provenance (forgebench version, dataset hash), what the import reads.
- ``README.md``: the dataset card (front matter with the ``test`` split's files, licence and
  provenance; the contract in words).

Streaming: items are read one at a time and a shard (at most ``rows_per_shard`` rows or
``bytes_per_shard`` image bytes) is the most held in memory. Atomic: everything is written into a
hidden folder beside ``OUT`` and renamed into place at the end, so an interrupted export leaves no
``OUT`` (and an existing non-empty ``OUT`` is refused, never mixed).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import forgebench
from forgebench.errors import UserError
from forgebench.interop.extras import need
from forgebench.interop.layout import DatasetLayout, Kind
from forgebench.util.atomic import clean_stale
from forgebench.util.jsonl import iter_jsonl
from forgebench.util.paths import outside_reason

FORMAT = "forgebench-hf/1"
META_FILE = "forgebench.json"
EXTRA = "extra"
LICENSE = "license"
ROWS_PER_SHARD = 2000
BYTES_PER_SHARD = 256 * 1024 * 1024


class DatasetExportError(UserError):
    """A dataset that cannot be exported (a bad line, an image outside the folder, OUT in use)."""


def _value(value: Any, kind: Kind) -> Any:
    if value is None:
        return None
    if kind == "json":
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return value


def _features(layout: DatasetLayout) -> Any:
    ds = need("datasets", "datasets", "--format hf")
    types = {"string": "string", "int": "int64", "float": "float64", "bool": "bool"}
    cols: dict[str, Any] = {}
    for name, kind in layout.columns().items():
        cols[name] = ds.Value("string" if kind == "json" else types[kind])
    for name, column in layout.images.items():  # a path field becomes its image column
        cols[name] = ds.List(ds.Image()) if column.many else ds.Image()
    cols[EXTRA] = ds.Value("string")
    cols[LICENSE] = ds.Value("string")
    return ds.Features(cols)


def _items(root: Path, layout: DatasetLayout) -> Iterator[tuple[str, dict[str, Any]]]:
    if layout.items_file is None:
        if layout.read_items is None:
            raise DatasetExportError(f"{layout.benchmark}: its layout names no items")
        for n, item in enumerate(layout.read_items(root), start=1):
            yield f"item {n}", item
        return
    path = root / layout.items_file
    if not path.is_file():
        raise DatasetExportError(f"{path}: not found")
    for lineno, obj, err in iter_jsonl(path):
        if obj is None:
            raise DatasetExportError(f"{layout.items_file}:{lineno}: {err}")
        yield f"{layout.items_file}:{lineno}", obj


def _image(root: Path, rel: str, where: str, digest: Any) -> dict[str, Any]:
    why = outside_reason(root, rel)
    if why is not None:
        raise DatasetExportError(f"{where}: image {why}")
    try:
        data = (root / rel).read_bytes()
    except OSError as exc:
        raise DatasetExportError(f"{where}: image {rel}: {exc.strerror or exc}") from None
    digest.update(rel.encode() + b"\0" + hashlib.sha256(data).digest())
    return {"bytes": data, "path": rel}


def _row(
    root: Path, layout: DatasetLayout, item: dict[str, Any], where: str, digest: Any, lic: str
) -> tuple[dict[str, Any], int]:
    columns = layout.columns()
    row = {name: _value(item.get(name), kind) for name, kind in columns.items()}
    extra = {k: v for k, v in item.items() if k not in columns}
    row[EXTRA] = json.dumps(extra, ensure_ascii=False, sort_keys=True)
    row[LICENSE] = layout.license(item) or lic
    size = 0
    for name, column in layout.images.items():
        if column.derived is not None:
            images = [{"bytes": column.derived(root, item), "path": p} for p in column.paths(item)]
        else:
            images = [_image(root, p, where, digest) for p in column.paths(item)]
        size += sum(len(im["bytes"]) for im in images)
        row[name] = images if column.many else (images[0] if images else None)
    return row, size


def _card(layout: DatasetLayout, meta: Mapping[str, Any], n_rows: int, lic: str) -> str:
    front = {
        "license": lic or "other",
        "task_categories": ["visual-question-answering"],
        "tags": ["forgebench", layout.benchmark, "image-forensics"],
        "configs": [
            {"config_name": "default", "data_files": [{"split": "test", "path": "data/test-*"}]}
        ],
        "forgebench": meta,
    }
    columns = ", ".join(f"`{c}`" for c in layout.columns())
    images = ", ".join(f"`{c}`" for c in layout.images)
    return (
        "---\n"
        + json.dumps(front, indent=2, ensure_ascii=False)  # JSON is YAML
        + "\n---\n\n"
        + f"# forgebench {layout.benchmark} dataset\n\n"
        + f"{n_rows} items, split `test`, exported by forgebench {forgebench.__version__} "
        + f"(dataset sha256 `{meta['dataset_sha256']}`).\n\n"
        + "## Contract\n\n"
        + layout.contract
        + f"\n\nColumns: {columns}; images: {images}; `extra` holds an item's fields beyond the "
        + "contract (JSON); `license` is the item's licence.\n\n"
        + "## Use\n\n```python\nimport datasets\n"
        + 'ds = datasets.load_dataset("parquet", data_dir="data", split="test")\n```\n\n'
        + "`forgebench import THIS_FOLDER --out DATASET` turns it back into a forgebench dataset "
        + "folder.\n"
    )


def _write_shard(pa: Any, pq: Any, rows: list[dict[str, Any]], schema: Any, path: Path) -> None:
    table = pa.Table.from_pylist(rows, schema=schema)
    pq.write_table(table, path)


def export_hf(root: Path, layout: DatasetLayout, out: Path, *, license: str = "") -> int:
    """Write ``root`` (a dataset folder of ``layout``) as a ``datasets`` folder ``out``; the
    number of rows. See the module docstring."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    root, out = Path(root), Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise DatasetExportError(f"{out}: exists and is not empty (choose a new folder)")
    schema = _features(layout).arrow_schema
    out.parent.mkdir(parents=True, exist_ok=True)
    clean_stale(out.parent, out.name)
    tmp = out.parent / f".{out.name}.{os.getpid()}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    (tmp / "data").mkdir(parents=True)
    digest = hashlib.sha256()
    try:
        shard: list[dict[str, Any]] = []
        held, index, n_rows = 0, 0, 0
        paths: list[Path] = []
        for where, item in _items(root, layout):
            row, size = _row(root, layout, item, where, digest, license)
            digest.update(json.dumps(item, sort_keys=True, ensure_ascii=False).encode() + b"\n")
            shard.append(row)
            held += size
            n_rows += 1
            if len(shard) >= ROWS_PER_SHARD or held >= BYTES_PER_SHARD:
                paths.append(tmp / "data" / f"test-{index:05d}.parquet")
                _write_shard(pa, pq, shard, schema, paths[-1])
                shard, held, index = [], 0, index + 1
        if shard or not paths:
            paths.append(tmp / "data" / f"test-{index:05d}.parquet")
            _write_shard(pa, pq, shard, schema, paths[-1])
        for i, p in enumerate(paths):  # the Hub's shard names, now that the count is known
            p.rename(p.with_name(f"test-{i:05d}-of-{len(paths):05d}.parquet"))
        files = []
        for rel in layout.files:
            if (root / rel).is_file() and outside_reason(root, rel) is None:
                (tmp / "files" / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(root / rel, tmp / "files" / rel)
                files.append(rel)
        meta = {
            "format": FORMAT,
            "benchmark": layout.benchmark,
            "items_file": layout.items_file,
            "columns": dict(layout.columns()),
            "images": {k: ("many" if c.many else "one") for k, c in layout.images.items()},
            "derived": [k for k, c in layout.images.items() if c.derived is not None],
            "files": files,
            "rows": n_rows,
            "forgebench_version": forgebench.__version__,
            "dataset_sha256": digest.hexdigest(),
            "source": root.resolve().name,
        }
        (tmp / META_FILE).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        (tmp / "README.md").write_text(_card(layout, meta, n_rows, license), encoding="utf-8")
        if out.exists():
            out.rmdir()  # empty (checked above)
        os.replace(tmp, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return n_rows
