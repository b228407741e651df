"""PIXAR's tables facet: the console summary of ``metrics`` and Table 2, Table 3 and the size
table from the PIXAR rows of ``metrics.csv`` (:mod:`..results`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from forgebench.report.table import to_markdown
from forgebench.results.metrics_csv import read_rows
from forgebench.suites import facets
from forgebench.suites.outputs import Output
from forgebench.suites.pixar.results import BENCHMARK, tables_from_rows, write_tables


def _rows(run_dir: Path) -> list[dict[str, str]]:
    """The PIXAR rows of ``RUN/metrics.csv``."""
    return [r for r in read_rows(run_dir / "metrics.csv") if r["benchmark"] == BENCHMARK]


class PixarTables(facets.Tables):
    def summary(self, run_dir: Path, judge: str | None) -> list[Any]:
        """Table 2's layout for the console: every model's localization numbers on all images."""
        rows = _rows(run_dir)
        return [to_markdown(tables_from_rows(rows)["pixar_table2"])] if rows else []

    def tables(
        self, run_dir: Path, out_dir: Path | None, judge: str | None, reps: int = 2000
    ) -> Output:
        """PIXAR's tables as Markdown, LaTeX and CSV under ``out_dir`` (default ``RUN/report``)."""
        rows = _rows(run_dir)
        if not rows:
            return Output(notes=[f"pixar: {run_dir / 'metrics.csv'}: no pixar rows (run metrics)"])
        files = write_tables(tables_from_rows(rows), out_dir or run_dir / "report")
        written = ", ".join(p.name for p in files if p.suffix == ".csv")
        return Output(files=files, lines=[f"pixar tables written: {written}"])


TABLES = PixarTables()
