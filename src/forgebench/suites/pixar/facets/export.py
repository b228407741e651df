"""PIXAR's export facet: each LOC task's pair, verdict, IoU and F1 (:mod:`..export`), the IoU
and F1 as scores of their own."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from forgebench.suites import facets
from forgebench.suites.pixar.export import export_frame


class PixarExport(facets.Export):
    reading_scores = ("iou", "f1")
    """A LOC answer's per-pair IoU and F1 (percentages), as scores in the exports."""

    def rows(self, run_dir: Path, judge: str | None) -> pd.DataFrame:
        return export_frame(run_dir)


EXPORT = PixarExport()
