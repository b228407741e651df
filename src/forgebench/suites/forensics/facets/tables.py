"""Forensics' tables facet: the console summary and the paper's tables (:mod:`..tables`, laid
out by :mod:`..report_section`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from forgebench.report.groups import model_groups
from forgebench.suites import facets
from forgebench.suites.forensics.report_section import (
    need_metrics,
    run_metrics,
    summary_table,
    write_tables,
)
from forgebench.suites.outputs import Output


class ForensicsTables(facets.Tables):
    def summary(self, run_dir: Path, judge: str | None) -> list[Any]:
        """Table 2 and the Z share (probe MCQ, condition full) as a console table."""
        m = run_metrics(run_dir, judge)
        table = summary_table(m) if m is not None else None
        return [table] if table is not None else []

    def tables(
        self, run_dir: Path, out_dir: Path | None, judge: str | None, reps: int = 2000
    ) -> Output:
        """Tables 2, 3, 4, 12-14 and the per-type tables as CSV, Markdown and LaTeX."""
        out = out_dir if out_dir is not None else run_dir / "report"
        metrics = need_metrics(run_dir, judge)
        groups = model_groups(run_dir / "config.json", sorted(set(metrics["model"])))
        files, notes, _shown, _downloads = write_tables(metrics, out, groups)
        written = ", ".join(p.name for p in files if p.suffix == ".csv") or "none"
        return Output(files=files, lines=[f"forensics tables written: {written}"], notes=notes)


TABLES = ForensicsTables()
