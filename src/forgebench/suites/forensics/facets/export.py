"""Forensics' export facet: each task's type code, perspectives, letters and correctness
(scored as ``metrics`` scores them; :mod:`..run_score`), the right letter as a task's target,
and the VLMEvalKit result file (``export RUN --format vlmevalkit``; :mod:`..vlmevalkit_export`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from forgebench.interop.run_formats import RunWriter
from forgebench.run.store import Store
from forgebench.suites import facets
from forgebench.suites.forensics.run_score import score_frame
from forgebench.suites.forensics.taxonomy import PERSPECTIVES
from forgebench.suites.forensics.vlmevalkit_export import write_vlmevalkit


class ForensicsExport(facets.Export):
    def rows(self, run_dir: Path, judge: str | None) -> pd.DataFrame:
        """Each task's type code and its five perspective values, the right letter, the
        extracted letter, how it was found (``letter``, ``text``, ``embed``, ``extractor``,
        ``missing``, or for a ``Z`` of the rules why: ``two_options``, ``hedge``, ``refusal``,
        ``nothing``) and whether it is correct; verdicts stored as ``metrics`` stores them."""
        with Store.open(run_dir, create=False) as store:
            frame, verdicts = score_frame(store, judge)
            store.put_verdicts(verdicts)
        cols = ["task_key", "type_code", *(f"persp_{p}" for p in PERSPECTIVES)]
        cols += ["answer", "letter", "found_by", "extractor", "correct"]
        if frame.empty:
            return pd.DataFrame(columns=cols)
        parts = frame["type_code"].str.split("-", expand=True).reindex(columns=range(5))
        for k, p in enumerate(PERSPECTIVES):
            frame[f"persp_{p}"] = parts[k]
        # a Z of the rules says why (two_options, hedge, refusal, nothing) instead of its step
        if "why" in frame:
            why = frame["why"].fillna("").astype(str)
            frame["step"] = frame["step"].where(why == "", why)
        frame = frame.rename(columns={"step": "found_by", "judge": "extractor"})
        return frame[cols]

    def target(self, item: Mapping[str, Any], probe: str, extra: Mapping[str, Any]) -> str | None:
        answer = extra.get("answer") or item.get("answer")
        return str(answer) if answer else None

    def run_formats(self) -> Mapping[str, RunWriter]:
        return {"vlmevalkit": write_vlmevalkit}


EXPORT = ForensicsExport()
