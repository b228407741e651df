"""Importing the release TSV, and exporting a dataset folder back to it."""

from __future__ import annotations

import base64
import csv
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from forgebench.suites.forensics.contract import load_items
from forgebench.suites.forensics.marker import is_forensics_dataset
from forgebench.suites.forensics.problems import ForensicsDataError
from forgebench.suites.forensics.tsv_export import export_release_tsv
from forgebench.suites.forensics.tsv_import import import_release_tsv
from forgebench.suites.forensics.tsv_rows import looks_like_release_tsv
from forgebench.suites.forensics.validate import validate_forensics
from forgebench.util.owned import NotOurs


def test_import_writes_items_and_content_addressed_images(
    release_tsv: Path, tmp_path: Path, rows: list[dict[str, str]]
) -> None:
    out = tmp_path / "ds"
    summary = import_release_tsv(release_tsv, out)
    assert summary.items == 6 and summary.references == 2
    assert is_forensics_dataset(out) and looks_like_release_tsv(release_tsv)
    items = {it.id: it for it in load_items(out)}
    assert list(items) == ["0", "1", "2", "3", "4", "5"]
    assert items["0"].type_code == "HS-RGB-BC-ES-DF"
    assert items["1"].type_code == "GS-RGB-BC-REAL-REAL"
    assert items["2"].type_code == "HS-VID-TL-FSS-ED" and len(items["2"].images) == 2
    assert items["3"].type_code == "HS-RGB-SLS-FE&FT-ED&GR"
    assert items["5"].type_code == "HS-VID-BC-FSM-ED&RNN&GR"
    # references: 1 -> later row 3, 4 -> earlier row 0; same file, stored once
    assert items["1"].images == items["3"].images and items["4"].images == items["0"].images
    assert items["1"].resolution == (64, 48)
    assert items["2"].hint == "The frames are sampled uniformly."
    assert list(items["0"].options) == ["A", "B"] and list(items["2"].options) == list("ABCD")
    files = sorted(p for p in (out / "images").rglob("*") if p.is_file())
    assert len(files) == 5 == summary.images
    raw = base64.b64decode(rows[0]["image"])
    stored = (out / items["0"].images[0]).read_bytes()
    assert stored == raw and items["0"].images[0].endswith(".png")
    assert items["2"].images[0].endswith(".jpg")
    assert (
        "base64" not in (out / "items.jsonl").read_text()
        and len((out / "items.jsonl").read_text()) < 6000
    )
    assert validate_forensics(out).ok


def test_round_trip_tsv_folder_tsv(release_tsv: Path, tmp_path: Path) -> None:
    first = tmp_path / "a"
    import_release_tsv(release_tsv, first)
    exported = tmp_path / "again.tsv"
    assert export_release_tsv(first, exported) == 6
    second = tmp_path / "b"
    import_release_tsv(exported, second)
    a, b = load_items(first), load_items(second)
    assert [x.model_dump() for x in a] == [y.model_dump() for y in b]
    for x in a:
        for p in x.images:
            assert (first / p).read_bytes() == (second / p).read_bytes()
    with exported.open(newline="") as fh:
        rows = {r["index"]: r for r in csv.DictReader(fh, delimiter="\t")}
    assert rows["4"]["image"] == "0"  # a repeated image is written as a reference
    assert rows["2"]["image"].startswith("['")
    assert rows["1"]["category"] == "nonhuman_real_none_visibleimage_category"


def test_bad_rows_are_named_by_line_and_nothing_is_written(
    make_tsv: Callable[[list[dict[str, str]]], Path], tmp_path: Path, rows: list[dict[str, str]]
) -> None:
    rows[1]["category"] = "human_entiresynthesis_stablediffusion_visibleimage_category"
    rows[2]["image"] = "99"
    rows[3]["answer"] = "E"
    rows[4]["image"] = (
        "not base64 at all, and longer than sixty-four characters so not a reference!!"
    )
    rows[5]["category"] = "human_faceswapmultiplefaces_rnn_video_category"  # case matters
    out = tmp_path / "ds"
    with pytest.raises(ForensicsDataError) as info:
        import_release_tsv(make_tsv(rows), out)
    lines = [str(p) for p in info.value.problems]
    assert (
        "bad.tsv:3: category: unknown forgery model token 'stablediffusion' in "
        "'human_entiresynthesis_stablediffusion_visibleimage_category'" in lines
    )
    assert any(s.startswith("bad.tsv:5: answer: ") for s in lines), lines
    assert "bad.tsv:4: image: refers to index '99', which no row has" in lines
    assert any(s.startswith("bad.tsv:6: image: not valid base64") for s in lines), lines
    assert any(
        s.startswith("bad.tsv:7: category: unknown forgery model token 'rnn'") for s in lines
    )
    assert not out.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".ds.")]


def test_dangling_reference_and_duplicate_index(
    make_tsv: Callable[[list[dict[str, str]]], Path], tmp_path: Path, rows: list[dict[str, str]]
) -> None:
    rows[1]["image"] = "42"
    with pytest.raises(ForensicsDataError) as info:
        import_release_tsv(make_tsv(rows), tmp_path / "ds")
    assert [str(p) for p in info.value.problems] == [
        "bad.tsv:3: image: refers to index '42', which no row has"
    ]
    rows[1]["image"] = "3"
    rows[4]["index"] = "0"
    with pytest.raises(ForensicsDataError) as info:
        import_release_tsv(make_tsv(rows), tmp_path / "ds")
    assert [str(p) for p in info.value.problems] == [
        "bad.tsv:6: index: duplicate '0' (first on line 2)"
    ]


def test_reference_cycle_is_an_error(
    make_tsv: Callable[[list[dict[str, str]]], Path], tmp_path: Path, rows: list[dict[str, str]]
) -> None:
    rows[0]["image"], rows[4]["image"] = "4", "0"
    with pytest.raises(ForensicsDataError) as info:
        import_release_tsv(make_tsv(rows), tmp_path / "ds")
    assert {p.line for p in info.value.problems} == {2, 6}


def test_missing_columns_and_existing_output(
    tmp_path: Path, release_tsv: Path, tsv_writer: Callable[..., Path]
) -> None:
    bad = tsv_writer(tmp_path / "x.tsv", [{"index": "0"}], header=["index", "question"])
    with pytest.raises(ForensicsDataError) as info:
        import_release_tsv(bad, tmp_path / "ds")
    assert "missing column(s) answer, category, A, B, image (or image_path)" in str(
        info.value.problems[0]
    )
    assert not looks_like_release_tsv(bad)
    out = tmp_path / "taken"
    out.mkdir()
    (out / "keep.txt").write_text("x")
    with pytest.raises(ForensicsDataError, match="--force"):
        import_release_tsv(release_tsv, out)
    with pytest.raises(NotOurs, match=r"keep\.txt"):  # not a folder forgebench wrote
        import_release_tsv(release_tsv, out, force=True)
    assert (out / "keep.txt").read_text() == "x" and not (out / "items.jsonl").exists()
    (out / "keep.txt").unlink()
    import_release_tsv(release_tsv, out)
    import_release_tsv(release_tsv, out, force=True)  # its own folder: replaced
    assert (out / "items.jsonl").is_file() and (out / ".forgebench").is_file()


def test_large_base64_cell_beyond_csv_default_limit(
    tmp_path: Path, encode: Callable[..., str], tsv_writer: Callable[..., Path]
) -> None:
    big = encode(9, "PNG", (400, 300))
    assert len(big) > 131072  # csv's default field_size_limit
    rows = [
        dict(
            index="7",
            image=big,
            question="q?",
            A="x",
            B="y",
            answer="B",
            category="nonhuman_generalsplicing_traditional_nirimage_det",
        )
    ]
    out = tmp_path / "ds"
    import_release_tsv(tsv_writer(tmp_path / "big.tsv", rows), out)
    item = load_items(out)[0]
    assert item.resolution == (400, 300) and item.type_code == "GS-NIR-SLD-SPL-GR"


def test_validator_reports_every_problem_by_line(release_tsv: Path, tmp_path: Path) -> None:
    out = tmp_path / "ds"
    import_release_tsv(release_tsv, out)
    lines = (out / "items.jsonl").read_text().splitlines()
    obj = json.loads(lines[0])
    obj["answer"] = "C"
    lines[0] = json.dumps(obj)
    obj = json.loads(lines[1])
    obj["model"] = "XX"
    lines[1] = json.dumps(obj)
    obj = json.loads(lines[2])
    obj["images"][1] = "images/none.png"
    lines[2] = json.dumps(obj)
    lines[3] = "{not json"
    lines[4] = lines[5]
    (out / "items.jsonl").write_text("\n".join(lines) + "\n")
    report = validate_forensics(out)
    got = [str(p) for p in report.errors]
    assert got[0] == "items.jsonl:1: answer: 'C' is not one of the options ['A', 'B']"
    assert got[1].startswith("items.jsonl:2: model: 'XX' is not one of ")
    assert got[2] == "items.jsonl:3: images.1: 'images/none.png' not found"
    assert got[3].startswith("items.jsonl:4: -: invalid JSON")
    assert got[4] == "items.jsonl:6: id: duplicate '5' (first on line 5)"
    assert report.items == 1


def test_not_utf8_is_one_clear_problem(release_tsv: Path, tmp_path: Path) -> None:
    bad = tmp_path / "latin.tsv"
    bad.write_bytes(release_tsv.read_bytes() + "7\t\tcaf\xe9?\tx\ty\tA\n".encode("latin-1"))
    with pytest.raises(ForensicsDataError) as info:
        import_release_tsv(bad, tmp_path / "ds")
    assert [str(p) for p in info.value.problems] == [
        "latin.tsv: -: not UTF-8 text (the release TSV is UTF-8)"
    ]
    assert not (tmp_path / "ds").exists()


def test_validator_names_a_key_given_twice_in_one_item(release_tsv: Path, tmp_path: Path) -> None:
    """JSON's last-wins would silently keep the second ``answer``; the validator names the line
    (the same reader as Mandela's, ``util/jsonl.py``)."""
    out = tmp_path / "ds"
    import_release_tsv(release_tsv, out)
    lines = (out / "items.jsonl").read_text().splitlines()
    lines[0] = lines[0][:-1] + ', "answer": "B"}'
    (out / "items.jsonl").write_text("\n".join(lines) + "\n")
    got = [str(p) for p in validate_forensics(out).errors]
    assert got == ["items.jsonl:1: -: duplicate key 'answer' in one JSON object"]
