"""``forgebench import``: CSV / Parquet tables into dataset folders that validate."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from PIL import Image
from typer.testing import CliRunner

from forgebench.cli import app
from forgebench.suites.mandela.importer import ImportFailed, import_dataset
from forgebench.suites.mandela.validate import validate_dataset

from .conftest import MakeDataset, base_items, write_image

runner = CliRunner()


def flatten(obj: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested item dict -> dotted columns; lists stay lists (callers pick the cell form)."""
    out: dict[str, Any] = {}
    for key, value in obj.items():
        if isinstance(value, dict):
            out.update(flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def write_csv(path: Path, items: list[dict[str, Any]]) -> Path:
    rows = [flatten(it) for it in items]
    columns = sorted({c for r in rows for c in r})
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(columns)
        for r in rows:
            w.writerow(
                [
                    "" if r.get(c) is None else json.dumps(r[c]) if isinstance(r[c], list) else r[c]
                    for c in columns
                ]
            )
    return path


def items_of(root: Path) -> list[dict[str, Any]]:
    report = validate_dataset(root)
    assert report.ok, [str(p) for p in report.errors]
    return [it.model_dump(mode="json") for it in report.items]


def test_csv_round_trip_gives_identical_items(make_mandela: MakeDataset, tmp_path: Path) -> None:
    src_root = make_mandela()
    table = write_csv(tmp_path / "items.csv", base_items())
    out = tmp_path / "imported"
    result = runner.invoke(
        app, ["import", str(table), "--out", str(out), "--images-root", str(src_root)]
    )
    assert result.exit_code == 0, result.output
    assert "imported 8 items; 8 images copied" in result.stdout
    assert items_of(out) == items_of(src_root)
    assert (out / "images/s1-k1.png").read_bytes() == (src_root / "images/s1-k1.png").read_bytes()
    assert not (out / "normalization.json").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ds", "imported", "items.csv"]


def test_parquet_round_trip_with_json_cells_and_native_lists(
    make_mandela: MakeDataset, tmp_path: Path
) -> None:
    src_root = make_mandela()
    rows = [flatten(it) for it in base_items()]
    columns = sorted({c for r in rows for c in r})
    native = {"crop", "principal_figures"}  # list<int64> / list<string> columns
    data = {
        c: [
            r.get(c) if c in native or not isinstance(r.get(c), list) else json.dumps(r[c])
            for r in rows
        ]
        for c in columns
    }
    pq.write_table(pa.table(data), tmp_path / "items.parquet")
    out = tmp_path / "pq"
    result = import_dataset(tmp_path / "items.parquet", out, images_root=src_root)
    assert result.report.ok and result.n_images == 8
    assert items_of(out) == items_of(src_root)


def test_dotted_columns_empty_cells_and_nested_nulls(tmp_path: Path) -> None:
    write_image(tmp_path / "pics/a.png")
    table = tmp_path / "t.csv"
    table.write_text(
        "id,seed_id,image,label,family,domain,noun,saliency,edit.operation,edit.region,"
        "crop,event.label,event.date,event.place,entity.name,entity.aliases,extra_note\n"
        'x1,s,pics/a.png,forged,K4,A4,painting,C1,retext,"[0,0,10,10]",,Fair,1851,,'
        'Lincoln,"[""Abe""]",42\n'
        "x2,s,pics/a.png,authentic,,A4,painting,,,,,Fair,1851,,,,\n"
    )
    out = tmp_path / "out"
    import_dataset(table, out)
    lines = [json.loads(line) for line in (out / "items.jsonl").read_text().splitlines()]
    assert lines[0]["edit"] == {"operation": "retext", "region": [0, 0, 10, 10]}
    assert lines[0]["entity"] == {"name": "Lincoln", "aliases": ["Abe"]}
    assert lines[0]["event"] == {"label": "Fair", "date": "1851"}  # empty place left out
    assert lines[0]["extra_note"] == "42"  # unknown columns are text
    assert "edit" not in lines[1] and "entity" not in lines[1] and "family" not in lines[1]
    assert lines[0]["image"] == lines[1]["image"] == "images/pics/a.png"
    assert [p.name for p in (out / "images/pics").iterdir()] == ["a.png"]


def test_normalize_reencodes_at_q92_longest_side_1280_and_scales_boxes(
    tmp_path: Path,
) -> None:
    write_image(tmp_path / "big.png", size=(2000, 1500))
    write_image(tmp_path / "small.png", size=(96, 64))
    items = base_items()[:2]
    items[0]["image"] = "big.png"
    items[0]["crop"] = [100, 200, 1001, 900]
    items[1]["image"] = "small.png"
    items[1]["edit"]["region"] = [50, 20, 70, 40]
    table = write_csv(tmp_path / "items.csv", items)
    out = tmp_path / "norm"
    result = runner.invoke(app, ["import", str(table), "--out", str(out), "--normalize"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in (out / "items.jsonl").read_text().splitlines()]
    assert lines[0]["image"] == "images/big.jpg"
    with Image.open(out / "images/big.jpg") as im:
        assert (im.format, im.size) == ("JPEG", (1280, 960))
        reference = tmp_path / "ref.jpg"
        im.convert("RGB").save(reference, quality=92)
        with Image.open(reference) as ref:
            assert im.quantization == ref.quantization  # quality 92 tables
        assert not im.getexif()
    # outward rounding: floor(100*.64)=64, floor(200*.64)=128, ceil(1001*.64)=641, ceil(900*.64)=576
    assert lines[0]["crop"] == [64, 128, 641, 576]
    assert lines[0]["normalized"]["scale"] == pytest.approx(0.64)
    assert lines[0]["normalized"]["quality"] == 92
    assert lines[0]["normalized"]["longest_side"] == 1280
    with Image.open(out / "images/small.jpg") as im:  # never upscaled, still re-encoded
        assert (im.format, im.size) == ("JPEG", (96, 64))
    assert lines[1]["edit"]["region"] == [50, 20, 70, 40]
    record = json.loads((out / "normalization.json").read_text())
    assert record["quality"] == 92 and record["longest_side"] == 1280
    assert record["images"]["images/big.jpg"]["source_size"] == [2000, 1500]
    assert record["images"]["images/big.jpg"]["size"] == [1280, 960]
    assert len(record["images"]["images/big.jpg"]["source_sha256"]) == 64


def test_normalize_turns_exif_rotated_images_upright_with_their_boxes(tmp_path: Path) -> None:
    stored = Image.new("RGB", (300, 200), (0, 0, 0))
    stored.paste((255, 255, 255), (20, 30, 80, 70))  # the edit region, in the stored grid
    exif = stored.getexif()
    exif[0x0112] = 6  # viewers rotate it 90 degrees clockwise
    stored.save(tmp_path / "rot.jpg", quality=95, exif=exif.tobytes())
    item = base_items()[7]
    item["image"] = "rot.jpg"
    item["edit"]["region"] = [20, 30, 80, 70]
    table = write_csv(tmp_path / "items.csv", [item])
    out = tmp_path / "out"
    import_dataset(table, out, normalize=True)
    row = json.loads((out / "items.jsonl").read_text())
    with Image.open(out / "images/rot.jpg") as im:
        assert im.size == (200, 300)
        bright = im.convert("L").point(lambda v: 255 if v > 128 else 0).getbbox()
    assert row["edit"]["region"] == list(bright)
    assert row["normalized"]["exif_orientation"] == 6
    assert validate_dataset(out).warnings == []


def test_missing_image_fails_with_exit_2_and_leaves_nothing(
    make_mandela: MakeDataset, tmp_path: Path
) -> None:
    src_root = make_mandela()
    items = base_items()
    items[2]["image"] = "images/not-there.png"
    table = write_csv(tmp_path / "items.csv", items)
    out = tmp_path / "new" / "dataset"
    result = runner.invoke(
        app, ["import", str(table), "--out", str(out), "--images-root", str(src_root)]
    )
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"items.csv:4: image: {src_root / 'images/not-there.png'}: image file not found",
        f"error: {table}: 1 problem(s); nothing written",
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ds", "items.csv"]


def test_every_problem_is_reported_against_the_table_lines(
    make_mandela: MakeDataset, tmp_path: Path
) -> None:
    src_root = make_mandela()
    items = base_items()
    items[1]["family"] = "K9"
    items[4]["image"] = "images/absent.png"
    items[7]["edit"]["region"] = [0, 0, 500, 16]
    table = write_csv(tmp_path / "items.csv", items)
    text = table.read_text().replace("[10, 10, 30, 30]", "[10, 10, 30", 1)
    table.write_text(text)
    with pytest.raises(ImportFailed) as caught:
        import_dataset(table, tmp_path / "out", images_root=src_root)
    lines = [str(p) for p in caught.value.problems]
    assert lines[0] == "items.csv:3: family: 'K9' is not one of K0..K6"
    assert lines[1].startswith("items.csv:6: edit.region: not valid JSON")
    assert lines[2] == f"items.csv:6: image: {src_root / 'images/absent.png'}: image file not found"
    assert lines[3] == "items.csv:9: edit.region: box [0, 0, 500, 16] is outside the 96x64 image"
    assert len(lines) == 4, lines
    assert not (tmp_path / "out").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ds", "items.csv"]


def test_refuses_to_overwrite_a_non_empty_dataset_unless_forced(
    make_mandela: MakeDataset, tmp_path: Path
) -> None:
    src_root = make_mandela()
    table = write_csv(tmp_path / "items.csv", base_items())
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    args = ["import", str(table), "--out", str(out), "--images-root", str(src_root)]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert result.stderr == f"error: {out} exists and is not empty (use --force to replace it)\n"
    assert [p.name for p in out.iterdir()] == ["keep.txt"]
    result = runner.invoke(app, [*args, "--force"])  # keep.txt is no file forgebench writes
    assert result.exit_code == 2 and "keep.txt" in result.stderr
    assert [p.name for p in out.iterdir()] == ["keep.txt"]
    (out / "keep.txt").rename(out / "items.jsonl")  # a folder of a dataset's files only
    result = runner.invoke(app, [*args, "--force"])
    assert result.exit_code == 0, result.output
    assert items_of(out) == items_of(src_root)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ds", "items.csv", "out"]


def test_unreadable_tables_are_one_clear_line(tmp_path: Path) -> None:
    (tmp_path / "t.xlsx").write_text("x")
    (tmp_path / "bad.parquet").write_bytes(b"PAR1 nonsense")
    for name, message in [
        ("t.xlsx", "no benchmark's importer reads it (importers: forensics, mandela)"),
        ("bad.parquet", "unreadable Parquet"),
        ("nope.csv", "no such file"),
    ]:
        result = runner.invoke(app, ["import", str(tmp_path / name), "--out", str(tmp_path / "o")])
        assert result.exit_code == 2
        assert len(result.stderr.splitlines()) == 1 and message in result.stderr
    assert not (tmp_path / "o").exists()


def test_jsonl_reimport_normalizes_each_image_with_its_own_scale(
    make_mandela: MakeDataset, tmp_path: Path
) -> None:
    src_root = make_mandela()
    write_image(src_root / "images/s2.jpg", size=(2560, 1280))  # the erase item's original
    out = tmp_path / "norm"
    result = import_dataset(src_root / "items.jsonl", out, normalize=True, kb=src_root / "kb.jsonl")
    assert result.report.ok and len(result.report.kb) == 2
    rows = {r["id"]: r for r in map(json.loads, (out / "items.jsonl").read_text().splitlines())}
    erase = rows["s2-erase"]
    assert erase["faces"]["original_image"] == "images/s2.jpg"
    assert erase["faces"]["original"] == [5, 5, 15, 15]  # in the 1280x640 original
    assert erase["faces"]["replacement"] == [10, 10, 30, 30]  # its own image is not scaled
    assert rows["s2-orig"]["normalized"]["scale"] == 0.5
    assert rows["s2-erase"]["normalized"]["scale"] == 1.0
    with Image.open(out / "images/s2.jpg") as im:
        assert im.size == (1280, 640)


def test_copied_files_that_are_not_images_are_named_by_their_source(
    make_mandela: MakeDataset, tmp_path: Path
) -> None:
    src_root = make_mandela()
    (src_root / "images/s3-k4.jpg").write_text("this is no JPEG")
    bad_kb = tmp_path / "kb.jsonl"
    bad_kb.write_text('{"id": "Q1", "name": "A"}\n{"id": "Q1", "name": "B"}\n')
    with pytest.raises(ImportFailed) as caught:
        import_dataset(src_root / "items.jsonl", tmp_path / "out", kb=bad_kb)
    assert [str(p) for p in caught.value.problems] == [
        f"items.jsonl:8: image: {src_root / 'images/s3-k4.jpg'}: not a recognised image file",
        f"{bad_kb}:2: id: duplicate id 'Q1' (first on line 1)",
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ds", "kb.jsonl"]
