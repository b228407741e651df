"""Fuzz: the Forensics release TSV through ``forgebench import``."""

from __future__ import annotations

from pathlib import Path

from support.forensics_data import write_forensics_release
from support.fuzz import Target, fuzz, tsv_mutator


def test_fuzz_release_tsv(tmp_path: Path) -> None:
    write_forensics_release(tmp_path / "fb")
    tsv = (tmp_path / "fb" / "ForensicsBench.tsv").read_bytes()

    def args(case: Path, k: int) -> list[str]:
        return ["import", str(case), "--out", str(case.parent / "ds")]

    target = Target("release TSV", [tsv], args, [tsv_mutator], case_name="ForensicsBench.tsv")
    report = fuzz(target, tmp_path / "cases", n=200, seed=3)
    assert report.cases == 200 and report.refused > 100 and report.ok > 0
