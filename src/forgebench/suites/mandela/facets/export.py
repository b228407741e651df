"""Mandela's export facet: each task's verdict, grade and item attributes (verdicts parsed
first; :mod:`..frame`) and the right answer of a task (:mod:`..interop`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from forgebench.suites import facets
from forgebench.suites.mandela import interop
from forgebench.suites.mandela.frame import load_frame
from forgebench.suites.mandela.parse_run import parse_answers

EXPORT_COLUMNS = (
    "finish_reason", "verdict", "miss_why", "correct", "level", "grade_status", "judge",
    "judge_reason", "names_erased", "names_principal", "l2_cannot", "recog_year", "seed_id",
    "label", "family", "analysis_family", "control_for", "k1_type", "variant", "domain",
    "saliency", "peripheral", "peripheral_k1", "named_insertion", "has_principal",
)  # fmt: skip
"""Mandela's own columns of the export, after the shared ones (``frame.py`` defines them)."""


class MandelaExport(facets.Export):
    def rows(self, run_dir: Path, judge: str | None) -> pd.DataFrame:
        """Each task's verdict, grade (of ``judge``) and item attributes, verdicts parsed first."""
        parse_answers(run_dir)
        frame = load_frame(run_dir, judge)
        return frame[["task_key", *(c for c in EXPORT_COLUMNS if c in frame.columns)]].copy()

    def target(self, item: Mapping[str, Any], probe: str, extra: Mapping[str, Any]) -> str | None:
        return interop.target(item, probe)


EXPORT = MandelaExport()
