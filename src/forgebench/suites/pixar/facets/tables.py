"""PIXAR's tables facet: the console summary and the localisation tables (:mod:`..verbs`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from forgebench.suites import facets
from forgebench.suites.outputs import Output
from forgebench.suites.pixar import verbs


class PixarTables(facets.Tables):
    def summary(self, run_dir: Path, judge: str | None) -> list[Any]:
        return verbs.summary(run_dir)

    def tables(
        self, run_dir: Path, out_dir: Path | None, judge: str | None, reps: int = 2000
    ) -> Output:
        return verbs.tables(run_dir, out_dir)


TABLES = PixarTables()
