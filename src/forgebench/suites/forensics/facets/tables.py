"""Forensics' tables facet: the console summary and the paper's tables (:mod:`..tables`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from forgebench.suites import facets
from forgebench.suites.forensics import verbs
from forgebench.suites.outputs import Output


class ForensicsTables(facets.Tables):
    def summary(self, run_dir: Path, judge: str | None) -> list[Any]:
        return verbs.summary(run_dir, judge)

    def tables(
        self, run_dir: Path, out_dir: Path | None, judge: str | None, reps: int = 2000
    ) -> Output:
        return verbs.tables(run_dir, out_dir, judge)


TABLES = ForensicsTables()
