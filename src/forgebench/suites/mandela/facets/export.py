"""Mandela's export facet: each task's verdict, grade and item attributes
(:func:`..verbs_run.export_rows`) and the right answer of a task (:mod:`..interop`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from forgebench.suites import facets
from forgebench.suites.mandela import interop, verbs_run


class MandelaExport(facets.Export):
    def rows(self, run_dir: Path, judge: str | None) -> pd.DataFrame:
        return verbs_run.export_rows(run_dir, judge)

    def target(self, item: Mapping[str, Any], probe: str, extra: Mapping[str, Any]) -> str | None:
        return interop.target(item, probe)


EXPORT = MandelaExport()
