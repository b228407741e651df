"""The toy's report facet: one table of its accuracy rows in the report page."""

from __future__ import annotations

from pathlib import Path

from forgebench.report.table import Cell, Column, Table, num, text, to_html
from forgebench.results.metrics_csv import read_metrics
from forgebench.suites.base import Report, Section


class ToyReport(Report):
    def section(
        self, run_dir: Path, out_dir: Path, judge: str | None, dataset: Path | None = None
    ) -> Section | None:
        path = run_dir / "metrics.csv"
        if not path.is_file():
            return None
        df = read_metrics(path, benchmark="toy")
        rows: list[list[Cell]] = [
            [text(str(r.model)), text(str(r.condition)), num(float(r.value))]
            for r in df.itertuples()
        ]
        columns = [Column("Model"), Column("Condition"), Column("Acc")]
        table = Table(1, "Toy accuracy", columns, [(None, rows)])
        return Section(title="Toy multiple choice", html=to_html(table))


REPORT = ToyReport()
