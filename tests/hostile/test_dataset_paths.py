"""Nothing outside the dataset is read or sent; ``run`` validates first."""

from __future__ import annotations

import csv
import os
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from forgebench.models.spec import ModelConfig
from forgebench.run.generate import GenerationSettings, run_generation
from forgebench.suites import SuiteError
from forgebench.suites.mandela.importer import ImportFailed, import_dataset
from forgebench.suites.mandela.suite import SUITE as MANDELA
from forgebench.suites.mandela.validate import validate_dataset
from support.mandela_data import write_mandela_dataset

from .conftest import cli, error_lines, read_items, run_args, write_items


def _outside_secret(tmp_path: Path) -> Path:
    secret = tmp_path / "outside" / "secret.png"
    secret.parent.mkdir()
    Image.new("RGB", (32, 24), (200, 10, 10)).save(secret)
    return secret


def _hostile(tmp_path: Path, how: str) -> Path:
    ds = write_mandela_dataset(tmp_path / "ds")
    secret = _outside_secret(tmp_path)
    items = read_items(ds)
    if how == "dotdot":
        items[1]["image"] = "../outside/secret.png"
    elif how == "absolute":
        items[1]["image"] = str(secret)
    else:
        (ds / "images" / "s0_k2.png").unlink()
        os.symlink(secret, ds / "images" / "s0_k2.png")
    write_items(ds, items)
    return ds


@pytest.mark.parametrize("how", ["dotdot", "absolute", "symlink"])
def test_run_refuses_an_image_outside_the_dataset_and_sends_nothing(
    how: str, tmp_path: Path, fake_openai: Any
) -> None:
    ds = _hostile(tmp_path, how)
    server = fake_openai()
    res = cli(*run_args(ds, tmp_path / "run", f"openai/fake@{server.url}"))
    assert res.exit_code == 2, res.output
    lines = error_lines(res.stderr)
    assert len(lines) == 1 and "Traceback" not in res.output
    assert "s0-k2" in lines[0] or "items.jsonl:2" in lines[0]
    assert "secret.png" in lines[0]
    assert server.hits == 0


def test_validate_refuses_a_link_to_a_file_outside_the_dataset(tmp_path: Path) -> None:
    ds = _hostile(tmp_path, "symlink")
    report = validate_dataset(ds)
    msgs = [str(p) for p in report.errors]
    assert any(
        m.startswith("items.jsonl:2: image:") and "outside the dataset folder" in m for m in msgs
    ), msgs
    res = cli("validate", str(ds))
    assert res.exit_code != 0


def test_the_demo_path_run_generation_refuses_a_link_outside(tmp_path: Path) -> None:
    """``forgebench demo`` sends through :func:`run_generation` (no CLI preflight)."""
    ds = _hostile(tmp_path, "symlink")
    settings = GenerationSettings(cache_dir=tmp_path / "c")
    with pytest.raises(SuiteError, match=r"(s0-k2|items\.jsonl:2).*image.*secret\.png.*outside"):
        run_generation(
            MANDELA, ds, tmp_path / "run", [ModelConfig(spec="builtin/artefact")], settings
        )
    assert not (tmp_path / "run" / "run.sqlite").exists()


def test_import_takes_images_only_from_the_images_root(tmp_path: Path) -> None:
    secret = _outside_secret(tmp_path)
    root = tmp_path / "src"
    (root / "img").mkdir(parents=True)
    Image.new("RGB", (32, 24)).save(root / "img" / "a.png")
    os.symlink(secret, root / "img" / "link.png")
    table = root / "items.csv"
    rows = [
        ("a", "img/a.png"),
        ("b", str(secret)),
        ("c", "../outside/secret.png"),
        ("d", "img/link.png"),
    ]
    with table.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "seed_id", "image", "label", "domain", "noun", "event.label"])
        for item_id, image in rows:
            w.writerow([item_id, item_id, image, "authentic", "A1", "photo", "Apollo 11"])
    with pytest.raises(ImportFailed) as info:
        import_dataset(table, tmp_path / "out", images_root=root)
    text = "\n".join(str(p) for p in info.value.problems)
    for image in (str(secret), "../outside/secret.png", "img/link.png"):
        assert f"{image!r} lies outside the images root" in text, text
    assert "img/a.png" not in text
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("breakage", "expected"),
    [
        ("duplicate_id", "duplicate id 's0-auth'"),
        ("empty", "no items"),
        ("duplicate_key", "duplicate key 'label'"),
    ],
)
def test_run_refuses_what_validate_rejects(
    breakage: str, expected: str, tmp_path: Path, fake_openai: Any
) -> None:
    ds = write_mandela_dataset(tmp_path / "ds")
    text = (ds / "items.jsonl").read_text()
    if breakage == "duplicate_id":
        text = text.replace('"id": "s0-k2"', '"id": "s0-auth"')
    elif breakage == "empty":
        text = ""
    else:
        first, rest = text.split("\n", 1)
        text = first.replace('"label": "authentic"', '"label": "authentic", "label": "forged"')
        text += "\n" + rest
    (ds / "items.jsonl").write_text(text)
    server = fake_openai()
    res = cli(*run_args(ds, tmp_path / "run", f"openai/fake@{server.url}"))
    assert res.exit_code == 2, res.output
    lines = error_lines(res.stderr)
    assert len(lines) == 1 and expected in lines[0], res.stderr
    assert server.hits == 0
    dry = cli(*run_args(ds, tmp_path / "run", f"openai/fake@{server.url}"), "--dry-run")
    assert dry.exit_code == 2


def test_validate_names_a_duplicate_key_in_one_object(tmp_path: Path) -> None:
    ds = write_mandela_dataset(tmp_path / "ds")
    lines = (ds / "items.jsonl").read_text().splitlines()
    lines[0] = lines[0].replace('"noun": "photograph"', '"noun": "photograph", "noun": "x"')
    (ds / "items.jsonl").write_text("\n".join(lines) + "\n")
    msgs = [str(p) for p in validate_dataset(ds).errors]
    assert "items.jsonl:1: -: duplicate key 'noun' in one JSON object" in msgs
