"""Fuzz: a dataset's ``items.jsonl`` (Mandela and Forensics) through ``forgebench validate``."""

from __future__ import annotations

import shutil
from pathlib import Path

from support.forensics_data import write_forensics_release
from support.fuzz import Target, fuzz, json_lines_mutator
from support.mandela_data import write_mandela_dataset


def test_fuzz_mandela_items(tmp_path: Path) -> None:
    ds = write_mandela_dataset(tmp_path / "ds", seeds=2)
    items = ds / "items.jsonl"

    def args(case: Path, _k: int) -> list[str]:
        shutil.copyfile(case, items)  # the dataset's images stay; its items are the case
        return ["validate", str(ds)]

    target = Target("mandela items.jsonl", [items.read_bytes()], args, [json_lines_mutator])
    report = fuzz(target, tmp_path / "cases", n=200, seed=1)
    assert report.cases == 200 and report.refused > 80


def test_fuzz_forensics_items(tmp_path: Path) -> None:
    ds, _ = write_forensics_release(tmp_path / "fb")
    items = ds / "items.jsonl"

    def args(case: Path, _k: int) -> list[str]:
        shutil.copyfile(case, items)
        return ["validate", str(ds)]

    target = Target("forensics items.jsonl", [items.read_bytes()], args, [json_lines_mutator])
    report = fuzz(target, tmp_path / "cases", n=100, seed=2)
    assert report.cases == 100 and report.refused > 30
