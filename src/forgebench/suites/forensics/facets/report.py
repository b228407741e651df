"""Forensics' report facet: the tables and figures of the section (:mod:`..report_section`),
a link to its items in the report's one item viewer (every item, through the viewer facet) and
the front page's intervals (items resampled, :mod:`..intervals`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from forgebench.report.groups import model_groups
from forgebench.results.metrics_csv import read_metrics
from forgebench.run.store import DB_NAME, Store
from forgebench.suites import facets
from forgebench.suites.forensics.contract import ForensicsItem
from forgebench.suites.forensics.intervals import headline_intervals
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
        # the stored items validated first: a damaged row is one line before any table or
        # figure is written
        n_items = _validated_items(run_dir)
        groups = model_groups(run_dir / "config.json", set(metrics["model"]))
        body, files, notes = write_report(metrics, out_dir, groups)
        if n_items:
            body += (
                f"<p><a href='#items'>Every item ({n_items}): image, options, answers and "
                "letters, in the item viewer</a></p>"
            )
        return Section(title=TITLE, html=body, files=files, notes=notes)

    def intervals(self, run_dir: Path, out_dir: Path, judge: str | None) -> Any:
        return headline_intervals(run_dir)


def _validated_items(run_dir: Path) -> int:
    """How many Forensics items the run stores, each validated (:class:`BadStoredRow`, one
    line, for a damaged one); 0 without a store."""
    if not (run_dir / DB_NAME).is_file():
        return 0
    with Store.open(run_dir, create=False) as store:
        return len(store.typed_items(NAME, ForensicsItem))


REPORT = ForensicsReport()
