"""Forensics' export facet: each task's type code, perspectives, letters and correctness
(:func:`..verbs.export_rows`), the right letter as a task's target, and the VLMEvalKit result
file (``export RUN --format vlmevalkit``; :mod:`..vlmevalkit_export`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from forgebench.interop.run_formats import RunWriter
from forgebench.suites import facets
from forgebench.suites.forensics import verbs
from forgebench.suites.forensics.vlmevalkit_export import write_vlmevalkit


class ForensicsExport(facets.Export):
    def rows(self, run_dir: Path, judge: str | None) -> pd.DataFrame:
        return verbs.export_rows(run_dir, judge)

    def target(self, item: Mapping[str, Any], probe: str, extra: Mapping[str, Any]) -> str | None:
        answer = extra.get("answer") or item.get("answer")
        return str(answer) if answer else None

    def run_formats(self) -> Mapping[str, RunWriter]:
        return {"vlmevalkit": write_vlmevalkit}


EXPORT = ForensicsExport()
