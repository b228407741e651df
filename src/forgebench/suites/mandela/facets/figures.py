"""Mandela's figures facet (:mod:`..figures`)."""

from __future__ import annotations

from pathlib import Path

from forgebench.suites import facets
from forgebench.suites.mandela import verbs_run
from forgebench.suites.outputs import Output


class MandelaFigures(facets.Figures):
    def figures(self, run_dir: Path, out_dir: Path | None, judge: str | None) -> Output:
        return verbs_run.figures(run_dir, out_dir, judge)


FIGURES = MandelaFigures()
