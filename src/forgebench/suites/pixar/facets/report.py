"""PIXAR's report facet: its section with a link to its pairs in the viewer (:mod:`..section`) and the front page's
intervals (pairs resampled, gIoU and F1 only; :mod:`..intervals`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from forgebench.suites import facets
from forgebench.suites.outputs import Section
from forgebench.suites.pixar.intervals import headline_intervals
from forgebench.suites.pixar.section import pixar_section

TITLE = "PIXAR (seed 003)"


class PixarReport(facets.Report):
    interval_note = "pairs resampled, gIoU and F1 only, see its section"

    def section(
        self, run_dir: Path, out_dir: Path, judge: str | None, dataset: Path | None = None
    ) -> Section | None:
        built = pixar_section(run_dir, out_dir, dataset)
        if built is None:
            return None
        body, files = built
        return Section(title=TITLE, html=body, files=files)

    def intervals(self, run_dir: Path, out_dir: Path, judge: str | None) -> Any:
        return headline_intervals(run_dir)


REPORT = PixarReport()
