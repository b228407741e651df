"""Forensics' figures facet (:mod:`..figures`)."""

from __future__ import annotations

from pathlib import Path

from forgebench.suites import facets
from forgebench.suites.forensics.figures import write_figures
from forgebench.suites.forensics.report_section import need_metrics
from forgebench.suites.outputs import Output


class ForensicsFigures(facets.Figures):
    def figures(self, run_dir: Path, out_dir: Path | None, judge: str | None) -> Output:
        """Figures 4-8 (accuracy by each perspective) as PNG and SVG."""
        out = out_dir if out_dir is not None else run_dir / "report" / "figures"
        written = write_figures(need_metrics(run_dir, judge), out)
        none = f"forensics: {run_dir / 'metrics.csv'}: no numbers any figure needs"
        notes = [] if written else [none]
        return Output(files=written, lines=[str(p) for p in written], notes=notes)


FIGURES = ForensicsFigures()
