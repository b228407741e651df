"""Mandela's report facet: the tables and figures under ``report/``, the headline section
(:mod:`..headline`) and the cluster-bootstrap intervals of the front page (seeds resampled,
:mod:`forgebench.analysis.bootstrap`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from forgebench.suites import facets
from forgebench.suites.mandela.figures import write_figures
from forgebench.suites.mandela.headline import headline_html
from forgebench.suites.mandela.tables import ReportError, write_tables
from forgebench.suites.outputs import Section

TITLE = "Mandela-Bench (seed 000)"


class MandelaReport(facets.Report):
    interval_note = "seeds resampled"

    def section(
        self, run_dir: Path, out_dir: Path, judge: str | None, dataset: Path | None = None
    ) -> Section | None:
        notes: list[str] = []
        files: list[Path] = []
        if not (run_dir / "metrics.csv").is_file():
            notes.append(
                f"warning: no metrics.csv yet (forgebench metrics {run_dir}): "
                "tables and figures skipped"
            )
        else:
            try:
                tables = write_tables(run_dir, out_dir, judge=judge)
                notes += [f"  table {n} skipped: {why}" for n, why in tables.skipped]
                files += write_figures(run_dir, out_dir / "figures", judge=judge)
            except ReportError as exc:
                notes.append(f"warning: tables and figures skipped: {exc}")
        html = headline_html(run_dir, out_dir, judge)
        return Section(title=TITLE, html=html, files=files, notes=notes)

    def intervals(self, run_dir: Path, out_dir: Path, judge: str | None) -> Any:
        """The intervals its section wrote (``report/bootstrap_ci.csv``)."""
        path = out_dir / "bootstrap_ci.csv"
        if not path.is_file():
            return None
        ci = pd.read_csv(path, dtype={"model": "object"})
        return ci.assign(subset="all")


REPORT = MandelaReport()
