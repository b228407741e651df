"""Mandela's figures facet (:mod:`..figures`)."""

from __future__ import annotations

from pathlib import Path

from forgebench.suites import facets
from forgebench.suites.base import SuiteError
from forgebench.suites.mandela.figures import write_figures
from forgebench.suites.outputs import Output


class MandelaFigures(facets.Figures):
    def figures(self, run_dir: Path, out_dir: Path | None, judge: str | None) -> Output:
        """Figure 4 (a-c) and the per-family KGR charts as PNG and SVG."""
        try:
            written = write_figures(run_dir, out_dir, judge=judge)
        except ValueError as exc:
            raise SuiteError(str(exc)) from None
        notes = (
            [] if written else [f"mandela: {run_dir / 'metrics.csv'}: no numbers any figure needs"]
        )
        return Output(files=written, lines=[str(p) for p in written], notes=notes)


FIGURES = MandelaFigures()
