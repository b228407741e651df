"""`export-dataset --format hf` and `import`: a datasets-loadable folder that comes back exact."""

from __future__ import annotations

import io
import json
import shutil
import struct
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from forgebench.cli import app
from forgebench.interop.layout import DatasetLayout
from forgebench.suites import get
from forgebench.suites.base import Dataset, Selection
from forgebench.suites.forensics.demo import build_forensics_demo
from support.pixar_loc import BOXES, box_pairs


@pytest.fixture(scope="module")
def demo(demo_dataset: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("demo")
    mandela = demo_dataset  # read only; the session's one build (tests/conftest.py)
    forensics = root / "forensics"
    build_forensics_demo(mandela, forensics)
    pairs = root / "pairs"
    box_pairs(pairs)  # the demo's PIXAR part reads pairs from the Mandela folder; a pairs folder
    return {"mandela": mandela, "forensics": forensics, "pixar": pairs}


def _layout(benchmark: str) -> DatasetLayout:
    facet = get(benchmark).facet(Dataset)
    layout = facet.layout() if facet is not None else None
    assert layout is not None
    return layout


def _loaded(benchmark: str, folder: Path) -> list[dict[str, Any]]:
    """The items as the suite reads them (a null field and an absent one are the same)."""
    layout = _layout(benchmark)
    if layout.items_file is not None:
        return _items(folder / layout.items_file)
    items = get(benchmark).load(folder, Selection()).items
    return [{k: v for k, v in dict(it).items() if v is not None} for it in items]


def _items(path: Path) -> list[dict[str, Any]]:
    """Items as the contract reads them (a null field and an absent one are the same)."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        out.append({k: v for k, v in json.loads(line).items() if v is not None})
    return out


def _invoke(*args: str) -> Any:
    return CliRunner().invoke(app, [*args])


def _export(dataset: Path, out: Path) -> None:
    res = _invoke("export-dataset", str(dataset), "--format", "hf", "--out", str(out))
    assert res.exit_code == 0, res.output


@pytest.mark.parametrize("benchmark", ["mandela", "forensics", "pixar"])
def test_round_trip_is_exact_and_datasets_loads_it(
    benchmark: str, demo: dict[str, Path], tmp_path: Path
) -> None:
    import datasets

    src = demo[benchmark]
    hf = tmp_path / "hf"
    _export(src, hf)
    card = (hf / "README.md").read_text(encoding="utf-8")
    assert "## Contract" in card and "dataset_sha256" in card and "forgebench_version" in card
    ds = datasets.load_dataset(
        "parquet", data_dir=str(hf / "data"), cache_dir=str(tmp_path / "cache"), split="test"
    )
    items = _loaded(benchmark, src)
    assert ds.num_rows == len(items) and ds["id"] == [it["id"] for it in items]
    layout = _layout(benchmark)
    for name, column in layout.images.items():
        feature = ds.features[name]
        inner = feature.feature if column.many else feature
        assert isinstance(inner, datasets.Image)
    assert all(isinstance(x, str) for x in ds["license"])
    # the image bytes are the files' bytes (decode=False)
    raw = ds.cast_column(
        next(iter(layout.images)),
        datasets.List(datasets.Image(decode=False))
        if next(iter(layout.images.values())).many
        else datasets.Image(decode=False),
    )
    first = next(iter(layout.images))
    for row, item in zip(raw, items, strict=True):
        cells = row[first] if isinstance(row[first], list) else [row[first]]
        for cell, rel in zip(cells, next(iter(layout.images.values())).paths(item), strict=True):
            assert cell["path"] == rel and cell["bytes"] == (src / rel).read_bytes()
    # and back: the same items, the same bytes, the same side files; the folder validates
    back = tmp_path / "back"
    res = _invoke("import", str(hf), "--out", str(back))
    assert res.exit_code == 0, res.output
    assert _loaded(benchmark, back) == items
    for item in items:
        for column in layout.images.values():
            for rel in [] if column.derived else column.paths(item):
                assert (back / rel).read_bytes() == (src / rel).read_bytes()
    if benchmark == "pixar":  # the truth mask: the planted box, at tau
        mask = np.asarray(ds[0]["mask"])
        x0, y0, x1, y1 = BOXES[ds[0]["id"]]
        assert mask[y0:y1, x0:x1].min() == 255 and mask.sum() == 255 * (x1 - x0) * (y1 - y0)
        assert not (back / "labels").exists()  # derived, not written back
    for rel in layout.files:
        if (src / rel).is_file():
            assert (back / rel).read_bytes() == (src / rel).read_bytes()
    facet = get(benchmark).facet(Dataset)
    assert facet is not None and facet.validate(back).errors == []


def test_release_tsv_format_and_unknown_format(demo: dict[str, Path], tmp_path: Path) -> None:
    res = _invoke("export-dataset", str(demo["forensics"]), "--format", "release-tsv",
                  "--out", str(tmp_path / "tsv"))  # fmt: skip
    assert res.exit_code == 0, res.output
    head = (tmp_path / "tsv" / "ForensicsBench.tsv").read_text().splitlines()[0].split("\t")
    assert head[:3] == ["index", "image", "question"]
    res = _invoke("export-dataset", str(demo["mandela"]), "--format", "release-tsv",
                  "--out", str(tmp_path / "x"))  # fmt: skip
    assert res.exit_code == 2 and "known: hf" in res.output


def test_existing_output_is_refused_and_missing_extra_named(
    demo: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "hf"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    res = _invoke("export-dataset", str(demo["mandela"]), "--format", "hf", "--out", str(out))
    assert res.exit_code == 2 and "not empty" in res.output
    assert [p.name for p in out.iterdir()] == ["keep.txt"]
    monkeypatch.setitem(sys.modules, "datasets", None)
    res = _invoke("export-dataset", str(demo["mandela"]), "--format", "hf", "--out",
                  str(tmp_path / "new"))  # fmt: skip
    assert res.exit_code == 2 and "pip install 'forgebench[datasets]'" in res.output
    assert not (tmp_path / "new").exists()


# -- hostile folders: the import refuses, writes nothing ------------------------------------------


def _png_header(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims ``width`` x ``height`` (a decompression bomb's shape)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
            + chunk(b"IDAT", zlib.compress(b"\0" * 16)) + chunk(b"IEND", b""))  # fmt: skip


def _rewrite(hf: Path, change: Any) -> None:
    """Apply ``change(rows)`` to the first shard of an export."""
    shard = sorted((hf / "data").glob("*.parquet"))[0]
    table = pq.read_table(shard)
    rows = table.to_pylist()
    change(rows)
    import pyarrow as pa

    pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), shard)


def _hostile(demo: dict[str, Path], tmp_path: Path) -> Iterator[tuple[str, Any, str]]:
    def escape(rows: list[dict[str, Any]]) -> None:
        rows[0]["image"]["path"] = "../../escaped.png"

    def absolute(rows: list[dict[str, Any]]) -> None:
        rows[0]["image"]["path"] = "/tmp/absolute.png"

    def large(rows: list[dict[str, Any]]) -> None:
        rows[0]["image"]["bytes"] = _png_header(10000, 10000)

    def bomb(rows: list[dict[str, Any]]) -> None:
        rows[0]["image"]["bytes"] = _png_header(60000, 60000)

    def not_image(rows: list[dict[str, Any]]) -> None:
        rows[0]["image"]["bytes"] = b"<html>not an image</html>"

    def other_face(rows: list[dict[str, Any]]) -> None:
        row = next(r for r in rows if r["face_original"])
        row["face_original"]["path"] = "images/elsewhere.png"

    def twice(rows: list[dict[str, Any]]) -> None:
        row = next(r for r in rows if r["face_original"])
        buf = io.BytesIO()
        from PIL import Image

        Image.new("RGB", (4, 4)).save(buf, "PNG")
        row["face_original"]["bytes"] = buf.getvalue()

    def bad_json(rows: list[dict[str, Any]]) -> None:
        rows[0]["event"] = "{not json"

    yield "escape", escape, "leaves the dataset folder"
    yield "absolute", absolute, "must be a path relative"
    yield "large", large, "safe to decode"
    yield "bomb", bomb, "refused to decode"
    yield "not_image", not_image, "not a recognised image"
    yield "other_face", other_face, "are not the item's"
    yield "twice", twice, "given twice, differing"
    yield "bad_json", bad_json, "event: not JSON text"


def test_hostile_exports_are_refused_whole(demo: dict[str, Path], tmp_path: Path) -> None:
    clean = tmp_path / "hf"
    _export(demo["mandela"], clean)
    for name, change, message in _hostile(demo, tmp_path):
        hf = tmp_path / f"hf-{name}"
        shutil.copytree(clean, hf)
        _rewrite(hf, change)
        out = tmp_path / f"back-{name}"
        res = _invoke("import", str(hf), "--out", str(out))
        assert res.exit_code == 2, (name, res.output)
        assert message in res.output and "Traceback" not in res.output, (name, res.output)
        assert not out.exists(), name
        assert not (tmp_path / "escaped.png").exists()
        assert not list(tmp_path.glob(f".back-{name}*")), name


def test_side_file_leaving_the_export_is_refused(demo: dict[str, Path], tmp_path: Path) -> None:
    hf = tmp_path / "hf"
    _export(demo["mandela"], hf)
    meta = json.loads((hf / "forgebench.json").read_text())
    meta["files"] = ["../../../etc/passwd"]
    (hf / "forgebench.json").write_text(json.dumps(meta))
    res = _invoke("import", str(hf), "--out", str(tmp_path / "back"))
    assert res.exit_code == 2 and "leaves the dataset folder" in res.output
    assert not (tmp_path / "back").exists()


def test_interrupted_export_leaves_nothing(demo: dict[str, Path], tmp_path: Path) -> None:
    """An item whose image cannot be read stops the export after earlier rows were converted:
    no OUT, no hidden temporary folder."""
    src = tmp_path / "ds"
    shutil.copytree(demo["mandela"], src)
    last = _items(src / "items.jsonl")[-1]
    (src / last["image"]).unlink()
    out = tmp_path / "hf"
    res = _invoke("export-dataset", str(src), "--format", "hf", "--out", str(out))
    assert res.exit_code == 2 and last["image"] in res.output, res.output
    assert not out.exists() and [p.name for p in tmp_path.iterdir()] == ["ds"]
