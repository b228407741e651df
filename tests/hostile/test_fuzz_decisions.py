"""Fuzz: a review sheet's ``decisions.json`` through ``forgebench review import``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from support.fuzz import Target, fuzz, json_document_mutator
from support.mandela_data import write_mandela_dataset

from .conftest import read_items


def test_fuzz_review_decisions(tmp_path: Path) -> None:
    clean = write_mandela_dataset(tmp_path / "clean" / "dataset")
    ids = [it["id"] for it in read_items(clean)]
    seed = json.dumps({"reviewer": "ana", "decisions": {
        ids[0]: {"decision": "accept", "note": ""},
        ids[1]: {"decision": "reject", "note": "seam visible"}}}).encode()  # fmt: skip

    def args(case: Path, _k: int) -> list[str]:
        build = case.parent / "build"
        shutil.copytree(clean, build / "dataset")  # an accepted import rewrites the dataset
        return ["review", "import", str(build), str(case)]

    target = Target("decisions.json", [seed], args, [json_document_mutator], "decisions.json")
    report = fuzz(target, tmp_path / "cases", n=200, seed=8)
    assert report.cases == 200 and report.refused > 50
