"""Forensics' report facet: the item page, the tables and figures of the section
(:mod:`..report_section`) and the front page's intervals (items resampled, :mod:`..intervals`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from forgebench.report.groups import model_groups
from forgebench.results.metrics_csv import read_metrics
from forgebench.suites import facets
from forgebench.suites.forensics.intervals import headline_intervals
from forgebench.suites.forensics.item_view import write_item_view
from forgebench.suites.forensics.report_section import write_report
from forgebench.suites.outputs import Section

NAME = "forensics"
TITLE = "Forensics-Bench (seed 002)"


class ForensicsReport(facets.Report):
    interval_note = "items resampled"

    def section(
        self, run_dir: Path, out_dir: Path, judge: str | None, dataset: Path | None = None
    ) -> Section | None:
        path = run_dir / "metrics.csv"
        if not path.is_file():
            return Section(
                TITLE, "", notes=[f"warning: no metrics.csv yet (forgebench metrics {run_dir})"]
            )
        metrics = read_metrics(path, benchmark=NAME, judge=judge)
        if metrics.empty:
            return None
        # the item page first: it validates the stored items, so a damaged row is one line
        # before any table or figure is written
        page = write_item_view(run_dir, out_dir, dataset)
        groups = model_groups(run_dir / "config.json", set(metrics["model"]))
        body, files, notes = write_report(metrics, out_dir, groups)
        if page is not None:
            files.append(page)
            body += (
                f"<p><a href='{page.name}'>Every item: image, options, answers and letters</a></p>"
            )
        return Section(title=TITLE, html=body, files=files, notes=notes)

    def intervals(self, run_dir: Path, out_dir: Path, judge: str | None) -> Any:
        return headline_intervals(run_dir)


REPORT = ForensicsReport()
