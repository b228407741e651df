"""``forgebench validate``: every problem, one ``FILE:LINE: FIELD: message`` line each."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from typer.testing import CliRunner

from forgebench.cli import app
from forgebench.suites.mandela.validate import validate_dataset

from .conftest import IMAGE_SIZE, MakeDataset, base_items, write_image, write_jsonl

Items = list[dict[str, Any]]


def lines_of(root: Path) -> tuple[list[str], list[str]]:
    report = validate_dataset(root)
    return [str(p) for p in report.errors], [str(p) for p in report.warnings]


def test_valid_dataset_has_no_problem_and_counts_everything(make_mandela: MakeDataset) -> None:
    report = validate_dataset(make_mandela())
    assert report.ok and report.errors == [] and report.warnings == []
    assert [it.id for it in report.items][:2] == ["s1-orig", "s1-k1"]
    assert len(report.kb) == 2
    summary = report.summary()
    assert summary["label"] == {"forged": 6, "authentic": 2}
    assert summary["family"] == {"K0": 2, "K1": 3, "K4": 1, "-": 2}
    assert summary["domain"] == {"A3": 3, "A4": 1, "A5": 4}
    assert summary["saliency"] == {"C1": 4, "C2": 1, "C3": 1, "-": 2}
    assert summary["k1_type"] == {
        "date_impossible": 1,
        "cross_domain": 1,
        "absent_celebrity": 1,
        "-": 5,
    }
    assert summary["variant"] == {"erase": 1, "swap": 1, "k0": 1, "-": 5}


def _set(index: int, key: str, value: Any) -> Callable[[Items], None]:
    def mutate(items: Items) -> None:
        target: Any = items[index]
        *parents, last = key.split(".")
        for part in parents:
            target = target[part]
        if value is _DELETE:
            del target[last]
        else:
            target[last] = value

    return mutate


_DELETE = object()

# (mutation of the valid rows, expected error line)
ITEM_ERRORS: list[tuple[Callable[[Items], None], str]] = [
    (_set(1, "noun", _DELETE), "items.jsonl:2: noun: required field is missing"),
    (_set(1, "id", 5), "items.jsonl:2: id: expected a string, got a number 5"),
    (_set(1, "edit.region", _DELETE), "items.jsonl:2: edit.region: required field is missing"),
    (_set(1, "entity.aliases", "Blair"), "items.jsonl:2: entity.aliases: expected a list, got a string"),
    (_set(1, "event", "1986"), "items.jsonl:2: event: expected an object, got a string"),
    (_set(1, "family", "K9"), "items.jsonl:2: family: 'K9' is not one of K0..K6"),
    (_set(1, "label", "fake"), "items.jsonl:2: label: 'fake' is not one of forged, authentic"),
    (_set(7, "domain", "A7"), "items.jsonl:8: domain: 'A7' is not one of A1..A6"),
    (_set(1, "saliency", "C4"), "items.jsonl:2: saliency: 'C4' is not one of C1..C3"),
    (_set(1, "k1_type", "famous"), "items.jsonl:2: k1_type: 'famous' is not one of date_impossible, cross_domain, absent_celebrity"),
    (_set(2, "id", "s1-k1"), "items.jsonl:3: id: duplicate id 's1-k1' (first on line 2)"),
    (_set(7, "id", ""), "items.jsonl:8: id: must not be empty"),
    (_set(1, "crop", [1, 2, 3]), "items.jsonl:2: crop: expected a box [x0, y0, x1, y1] of 4 integers, got [1, 2, 3]"),
    (_set(1, "crop", [40.5, 10, 90, 60]), "items.jsonl:2: crop: expected a box [x0, y0, x1, y1] of 4 integers"),
    (_set(1, "crop", ["40", 10, 90, 60]), "items.jsonl:2: crop: expected a box [x0, y0, x1, y1] of 4 integers"),
    (_set(1, "crop", [40, 10, 200, 60]), "items.jsonl:2: crop: box [40, 10, 200, 60] is outside the 96x64 image"),
    (_set(7, "edit.region", [-1, 0, 96, 16]), "items.jsonl:8: edit.region: box [-1, 0, 96, 16] is outside the 96x64 image"),
    (_set(7, "edit.region", [70, 0, 50, 16]), "items.jsonl:8: edit.region: empty box [70, 0, 50, 16]: needs x0 < x1 and y0 < y1"),
    (_set(7, "edit.region", [0, 16, 96, 16]), "items.jsonl:8: edit.region: empty box"),
    (_set(4, "faces.replacement", [10, 10, 30, 99]), "items.jsonl:5: faces.replacement: box [10, 10, 30, 99] is outside the 96x64 image"),
    (_set(4, "faces.original", [90, 10, 100, 30]), "items.jsonl:5: faces.original: box [90, 10, 100, 30] is outside the 96x64 image"),
    (_set(7, "image", "images/missing.jpg"), "items.jsonl:8: image: images/missing.jpg: file not found"),
    (_set(7, "image", "/etc/passwd"), "items.jsonl:8: image: '/etc/passwd' must be a path relative to the dataset folder"),
    (_set(7, "image", "../outside.jpg"), "items.jsonl:8: image: '../outside.jpg' leaves the dataset folder"),
    (_set(4, "faces.original_image", "images/gone.jpg"), "items.jsonl:5: faces.original_image: images/gone.jpg: file not found"),
    (_set(7, "family", None), "items.jsonl:8: family: forged item has no family"),
    (_set(0, "family", "K1"), "items.jsonl:1: family: authentic item must not have a family (got 'K1')"),
    (_set(0, "edit", {"operation": "x", "region": [0, 0, 5, 5]}), "items.jsonl:1: edit: authentic item must not have a edit"),
    (_set(7, "control_for", "K1"), "items.jsonl:8: control_for: only K0 controls name the family they control; this item is K4"),
    (_set(7, "k1_type", "cross_domain"), "items.jsonl:8: k1_type: k1_type is the K1 (people) subtype; this item is K4"),
    (_set(4, "k1_type", "date_impossible"), "items.jsonl:5: k1_type: an erase member is absent_celebrity, got 'date_impossible'"),
    (_set(4, "erased", None), "items.jsonl:5: erased: an erase member names the erased person"),
    (_set(5, "family", "K2"), "items.jsonl:6: family: a swap member is K1, not K2"),
    (_set(5, "k1_type", "absent_celebrity"), "items.jsonl:6: k1_type: a swap member is a named insertion"),
    (_set(6, "family", "K3"), "items.jsonl:7: family: a k0 member is K0, not K3"),
    (_set(4, "variant", None), "items.jsonl:5: variant: absent_celebrity items are the erase member of their triple; got None"),
    (_set(4, "seed_id", "elsewhere"), "items.jsonl:6: variant: swap member of seed 's2' has no erase sibling"),
    (_set(4, "seed_id", "elsewhere"), "items.jsonl:7: variant: k0 member of seed 's2' has no erase sibling"),
    (_set(1, "crop", None), "items.jsonl:2: crop: peripheral item (saliency C2) needs a crop that contains its edit"),
    (_set(2, "edit", None), "items.jsonl:3: edit: peripheral item (saliency C3) needs an edit region"),
    (_set(1, "crop", [55, 10, 90, 60]), "items.jsonl:2: crop: crop [55, 10, 90, 60] does not contain the edit region [50, 20, 70, 40]"),
]  # fmt: skip


@pytest.mark.parametrize(("mutate", "expected"), ITEM_ERRORS, ids=[e[1][:60] for e in ITEM_ERRORS])
def test_each_item_error_names_file_line_and_field(
    make_mandela: MakeDataset, mutate: Callable[[Items], None], expected: str
) -> None:
    items = base_items()
    mutate(items)
    root = make_mandela(items, absent=("images/missing.jpg", "images/gone.jpg"))
    errors, _ = lines_of(root)
    assert any(e.startswith(expected) for e in errors), errors


def test_bad_lines_are_reported_and_the_rest_still_checked(make_mandela: MakeDataset) -> None:
    root = make_mandela()
    text = (root / "items.jsonl").read_text().splitlines()
    text[2] = '{"id": "s1-k0", "seed_id": '  # truncated JSON
    text.insert(3, "[1, 2, 3]")  # becomes line 4, the rest shifts by one
    text.insert(4, "")  # blank lines are skipped but counted
    (root / "items.jsonl").write_text("\n".join(text) + "\n")
    with (root / "items.jsonl").open("ab") as fh:
        fh.write(b'{"id": "\xff"}\n')
    errors, _ = lines_of(root)
    assert errors[0].startswith("items.jsonl:3: -: invalid JSON: Expecting value")
    assert errors[1] == "items.jsonl:4: -: expected a JSON object, got a list"
    assert errors[-1] == "items.jsonl:11: -: not UTF-8 text (byte 9)"
    assert len(errors) == 3, errors


def test_undecodable_images_are_errors(make_mandela: MakeDataset) -> None:
    root = make_mandela()
    jpeg = (root / "images/s3-k4.jpg").read_bytes()
    (root / "images/s3-k4.jpg").write_bytes(jpeg[: len(jpeg) // 2])  # truncated
    (root / "images/s2-swap.png").write_bytes(b"not an image at all")
    errors, _ = lines_of(root)
    assert errors == [
        "items.jsonl:6: image: images/s2-swap.png: not a recognised image file",
        "items.jsonl:8: image: images/s3-k4.jpg: cannot be decoded: image file is truncated "
        + errors[1].split("truncated ", 1)[1],
    ]


def test_kb_problems_are_located_in_kb_jsonl(make_mandela: MakeDataset) -> None:
    kb: list[Any] = [
        {"id": "Q1", "name": "A"},
        {"id": "Q1", "name": "B"},
        {"id": "Q2"},
        "just a string",
    ]
    root = make_mandela(kb=kb)
    errors, _ = lines_of(root)
    assert errors == [
        "kb.jsonl:2: id: duplicate id 'Q1' (first on line 1)",
        "kb.jsonl:3: name: required field is missing",
        "kb.jsonl:4: -: expected a JSON object, got a string",
    ]


def test_warnings_do_not_make_errors(make_mandela: MakeDataset) -> None:
    items = base_items()
    del items[5:7]  # the erase item loses its swap and k0 siblings
    items[0]["crop"] = None  # authentic original of a peripheral seed without crop
    root = make_mandela(items)
    image = Image.open(root / "images/s3-k4.jpg")
    exif = image.getexif()
    exif[0x0112] = 6
    image.save(root / "images/s3-k4.jpg", exif=exif.tobytes())
    report = validate_dataset(root)
    assert report.ok
    assert [str(p) for p in report.warnings] == [
        "items.jsonl:1: crop: warning: authentic original of seed 's1', which has peripheral "
        "forgeries, has no crop: it drops out of the crop conditions",
        "items.jsonl:5: variant: warning: erase member of seed 's2' has no swap sibling",
        "items.jsonl:5: variant: warning: erase member of seed 's2' has no k0 sibling",
        "items.jsonl:6: image: warning: images/s3-k4.jpg has EXIF orientation 6 (rotated 90° "
        "clockwise); boxes are read in the stored pixel grid, which viewers show turned "
        "(forgebench import --normalize turns it upright)",
    ]


def _broken_dataset(make_mandela: MakeDataset) -> tuple[Path, list[str]]:
    items: list[Any] = base_items()
    items[0]["family"] = "K2"
    items[1]["family"] = "K9"
    items[1]["crop"] = [40, 10, 200, 60]
    items[2]["id"] = "s1-k1"
    del items[3]["noun"]
    items[4]["erased"] = None
    items[5]["image"] = "images/none.png"
    items[6]["edit"]["region"] = [30, 10, 10, 30]
    items[7] = "oops"
    kb = [{"id": "Q1", "name": "A"}, {"id": "Q1", "name": "A"}]
    root = make_mandela(items, kb=kb, absent=("images/none.png",))
    expected = [
        "items.jsonl:1: family: authentic item must not have a family (got 'K2')",
        "items.jsonl:2: family: 'K9' is not one of K0..K6",
        "items.jsonl:3: id: duplicate id 's1-k1' (first on line 2)",
        "items.jsonl:4: noun: required field is missing",
        "items.jsonl:5: erased: an erase member names the erased person (erased.name)",
        "items.jsonl:6: image: images/none.png: file not found",
        "items.jsonl:7: edit.region: empty box [30, 10, 10, 30]: needs x0 < x1 and y0 < y1 (half-open pixel box)",
        "items.jsonl:8: -: expected a JSON object, got a string",
        "kb.jsonl:2: id: duplicate id 'Q1' (first on line 1)",
    ]  # fmt: skip
    return root, expected


def test_every_problem_of_a_broken_dataset_is_reported_in_one_run(
    make_mandela: MakeDataset,
) -> None:
    root, expected = _broken_dataset(make_mandela)
    errors, _ = lines_of(root)
    assert errors == expected
    assert validate_dataset(root).items == []


def _snapshot(root: Path) -> dict[str, tuple[int, int]]:
    return {
        str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in sorted(root.rglob("*"))
    }


def test_cli_exits_2_on_errors_prints_every_line_and_writes_nothing(
    make_mandela: MakeDataset,
) -> None:
    root, expected = _broken_dataset(make_mandela)
    before = _snapshot(root)
    result = CliRunner().invoke(app, ["validate", str(root)])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[: len(expected)] == expected
    assert f"error: {root}: 9 error(s), 0 warning(s)" in result.stderr
    assert result.stdout == ""
    assert _snapshot(root) == before


def test_cli_prints_the_summary_and_exits_0_on_a_valid_dataset(make_mandela: MakeDataset) -> None:
    root = make_mandela()
    result = CliRunner().invoke(app, ["validate", str(root)])
    assert result.exit_code == 0, result.output
    assert "8 items, 3 seeds, 8 images, 2 KB entities" in result.stdout
    assert "forged 6  authentic 2" in result.stdout
    assert "K0 2  K1 3  K4 1  - 2" in result.stdout
    assert "date_impossible 1  cross_domain 1  absent_celebrity 1  - 5" in result.stdout
    assert result.stderr == ""
    assert len(result.stdout.splitlines()) <= 24  # one screen


def test_cli_warnings_are_printed_but_exit_0(make_mandela: MakeDataset) -> None:
    items = base_items()
    del items[6]  # erase without k0 sibling: a warning
    result = CliRunner().invoke(app, ["validate", str(make_mandela(items))])
    assert result.exit_code == 0
    assert result.stderr == (
        "items.jsonl:5: variant: warning: erase member of seed 's2' has no k0 sibling\n"
    )


def test_cli_missing_folder_or_items_is_one_clear_line(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["validate", str(tmp_path / "nope")])
    assert result.exit_code == 2
    assert result.stderr == f"error: {tmp_path / 'nope'}: no such dataset folder\n"
    result = runner.invoke(app, ["validate", str(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith(
        f"error: {tmp_path}: not a dataset of any known benchmark"
    )
    assert os.listdir(tmp_path) == []


def test_empty_items_file_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "items.jsonl").write_text("\n\n")
    errors, _ = lines_of(tmp_path)
    assert errors == ["items.jsonl: -: no items (the file is empty)"]


def test_shared_original_image_is_decoded_and_used_for_face_boxes(tmp_path: Path) -> None:
    items = base_items()[3:7]
    root = tmp_path / "ds"
    root.mkdir()
    write_jsonl(root / "items.jsonl", items)
    for it in items:
        write_image(root / it["image"], size=(200, 100) if it["id"] == "s2-orig" else IMAGE_SIZE)
    items[1]["faces"]["original"] = [150, 10, 190, 60]  # inside 200x100, outside 96x64
    write_jsonl(root / "items.jsonl", items)
    assert validate_dataset(root).ok


def test_audit_fields_are_validated_with_file_line_and_field(make_mandela: MakeDataset) -> None:
    items = base_items()
    items[0]["footprint"] = 1.7
    items[1]["face_similarity"] = {"value": 0.41, "model": "insightface/buffalo_l"}
    items[2]["npr_score"] = 0.58  # fine
    items[2]["face_similarity"] = {"value": 0.41, "threshold": 0.35, "model": "arcface"}  # fine
    errors, _ = lines_of(make_mandela(items))
    assert any(e.startswith("items.jsonl:1: footprint:") for e in errors), errors
    assert any(e.startswith("items.jsonl:2: face_similarity.threshold:") for e in errors), errors
    assert not any(e.startswith("items.jsonl:3:") for e in errors), errors
