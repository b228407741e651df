"""``forgebench forensics export``: a dataset folder back to the release TSV, through the CLI."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forgebench.cli import app
from forgebench.suites.forensics.contract import load_items


def _invoke(*args: str | Path):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.fixture
def dataset(release_tsv: Path, tmp_path: Path) -> Path:
    res = _invoke("import", release_tsv, "--out", tmp_path / "ds")
    assert res.exit_code == 0, res.output
    return tmp_path / "ds"


def _error_line(res) -> str:  # type: ignore[no-untyped-def]
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1, res.output
    return lines[0]


def test_export_then_import_gives_the_same_items(dataset: Path, tmp_path: Path) -> None:
    out = tmp_path / "exported" / "ForensicsBench.tsv"
    res = _invoke("forensics", "export", dataset, "--out", out)
    assert res.exit_code == 0, res.output
    assert f"exported 6 Forensics items to {out}" in res.output
    header = out.read_text(encoding="utf-8").splitlines()[0].split("\t")
    assert header[:3] == ["index", "image", "question"] and "category" in header
    again = _invoke("import", out, "--out", tmp_path / "again")
    assert again.exit_code == 0, again.output
    before, after = load_items(dataset), load_items(tmp_path / "again")
    assert [x.model_dump() for x in before] == [y.model_dump() for y in after]
    # an existing file is replaced only with --force
    refused = _invoke("forensics", "export", dataset, "--out", out)
    assert refused.exit_code == 2
    assert _error_line(refused) == f"error: {out}: exists; add --force to replace it"
    assert _invoke("forensics", "export", dataset, "--out", out, "--force").exit_code == 0


def test_a_missing_dataset_is_one_line_exit_2(tmp_path: Path) -> None:
    res = _invoke("forensics", "export", tmp_path / "nope", "--out", tmp_path / "x.tsv")
    assert res.exit_code == 2
    assert _error_line(res) == f"error: {tmp_path / 'nope'}: no such dataset folder"
    assert list(tmp_path.iterdir()) == []


def test_a_folder_of_another_benchmark_is_refused(tmp_path: Path) -> None:
    mandela = tmp_path / "mandela"
    mandela.mkdir()
    (mandela / "items.jsonl").write_text(json.dumps({"id": "a", "image": "a.png"}) + "\n")
    res = _invoke("forensics", "export", mandela, "--out", tmp_path / "x.tsv")
    assert res.exit_code == 2
    assert "not a Forensics dataset folder" in _error_line(res)
    assert not (tmp_path / "x.tsv").exists()


def test_an_unwritable_output_leaves_nothing(dataset: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    res = _invoke("forensics", "export", dataset, "--out", blocker / "out.tsv")
    assert res.exit_code == 2
    assert _error_line(res) == (
        f"error: {blocker / 'out.tsv'}: cannot write: {blocker} is a file, not a folder"
    )
    if os.geteuid() != 0:  # root writes into a read-only folder anyway
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        res = _invoke("forensics", "export", dataset, "--out", locked / "out.tsv")
        assert res.exit_code == 2
        assert _error_line(res) == f"error: {locked / 'out.tsv'}: cannot write: Permission denied"
        assert list(locked.iterdir()) == []
    folder = tmp_path / "folder"
    folder.mkdir()
    res = _invoke("forensics", "export", dataset, "--out", folder)
    assert res.exit_code == 2 and "is a folder" in _error_line(res)
    assert list(folder.iterdir()) == []


def test_an_unreadable_image_names_it_and_keeps_the_old_file(dataset: Path, tmp_path: Path) -> None:
    out = tmp_path / "old.tsv"
    out.write_text("the previous export\n")
    first = load_items(dataset)[0]
    (dataset / first.images[0]).unlink()
    res = _invoke("forensics", "export", dataset, "--out", out, "--force")
    assert res.exit_code == 2
    line = _error_line(res)
    assert "items.jsonl:1: image " in line and first.images[0] in line
    assert out.read_text() == "the previous export\n"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary file


def test_a_bad_item_line_is_named(dataset: Path, tmp_path: Path) -> None:
    items = dataset / "items.jsonl"
    lines = items.read_text().splitlines()
    bad = json.loads(lines[1])
    del bad["question"]
    items.write_text("\n".join([lines[0], json.dumps(bad), *lines[2:]]) + "\n")
    res = _invoke("forensics", "export", dataset, "--out", tmp_path / "x.tsv")
    assert res.exit_code == 2
    assert "items.jsonl:2: question: Field required" in _error_line(res)
    assert not (tmp_path / "x.tsv").exists()
