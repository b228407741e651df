"""What was accepted in silence is refused in words: a knowledge-base date that is not a date
(its check was dropped), portraits outside the KB folder, a release TSV whose problem was called
"unsupported table format", a base64 cell that decodes but is not an image."""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path

import pytest
from PIL import Image

from support.mandela_data import write_mandela_dataset

from .conftest import cli, error_lines, run_args, write_tsv

CAT = "human_entiresynthesis_diffusion_visibleimage_category"


def _kb(tmp_path: Path, entity: dict[str, object]) -> Path:
    kb = tmp_path / "kb"
    (kb / "portraits").mkdir(parents=True)
    Image.new("RGB", (32, 32), (200, 150, 120)).save(kb / "portraits" / "p.png")
    (kb / "kb.jsonl").write_text(json.dumps({"id": "Q1", "name": "A Person", **entity}) + "\n")
    return kb


def _verifier_run(tmp_path: Path, kb: Path) -> str:
    ds = write_mandela_dataset(tmp_path / "ds")
    res = cli(*run_args(ds, tmp_path / "run", f"builtin/verifier@{kb}"), "--prepare")
    assert res.exit_code == 2, res.output
    lines = error_lines(res.stderr)
    assert len(lines) == 1, res.stderr
    return lines[0]


@pytest.mark.parametrize("field", ["died", "born"])
def test_a_kb_date_that_is_not_a_date_is_refused(field: str, tmp_path: Path) -> None:
    kb = _kb(tmp_path, {field: "1992-13-45", "portraits": ["portraits/p.png"]})
    line = _verifier_run(tmp_path, kb)
    assert field in line and "1992-13-45" in line


@pytest.mark.parametrize("how", ["dotdot", "link"])
def test_a_kb_portrait_outside_the_kb_folder_is_refused(how: str, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.png"
    Image.new("RGB", (32, 32), (1, 2, 3)).save(outside)
    kb = _kb(tmp_path, {})
    if how == "link":
        os.symlink(outside, kb / "portraits" / "q.png")
        portrait = "portraits/q.png"
    else:
        portrait = "../elsewhere.png"
    (kb / "kb.jsonl").write_text(
        json.dumps({"id": "Q1", "name": "A Person", "portraits": [portrait]}) + "\n"
    )
    line = _verifier_run(tmp_path, kb)
    assert "portrait" in line and "knowledge-base folder" in line


def test_a_tsv_with_a_missing_column_says_which(tmp_path: Path) -> None:
    tsv = write_tsv(tmp_path / "t.tsv", [], ["index", "image", "question", "A", "B", "answer"])
    res = cli("import", str(tsv), "--out", str(tmp_path / "ds"))
    assert res.exit_code == 2
    assert "missing column(s) category" in res.stderr and "unsupported" not in res.stderr


def test_a_tsv_not_utf8_in_its_first_8kb_says_so(tmp_path: Path) -> None:
    tsv = tmp_path / "t.tsv"
    tsv.write_bytes(b"index\timage\tquestion\tA\tB\tanswer\tcategory\n0\t\xff\xfe\tq\n")
    res = cli("import", str(tsv), "--out", str(tmp_path / "ds"))
    assert res.exit_code == 2
    assert "UTF-8" in res.stderr and "unsupported" not in res.stderr


def test_base64_that_is_not_an_image_is_not_called_invalid_base64(tmp_path: Path) -> None:
    cell = base64.b64encode(b"plain text, long enough to be more than a reference " * 4).decode()
    header = ["index", "image", "question", "A", "B", "answer", "category"]
    tsv = write_tsv(tmp_path / "t.tsv", [["0", cell, "q", "AI", "real", "A", CAT]], header)
    res = cli("import", str(tsv), "--out", str(tmp_path / "ds"))
    assert res.exit_code == 2
    assert "base64 that is not an image" in res.stderr and "not valid base64" not in res.stderr
