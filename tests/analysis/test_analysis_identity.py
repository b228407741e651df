"""Mandela's analysis gives the same bytes however fast it is made: metrics.csv, the row-level
frame, the statistics and every rendered table of a fixed synthetic run (the analysis
benchmark's store, three models) match a digest recorded before the analysis was optimised."""

from __future__ import annotations

import hashlib
from pathlib import Path

from forgebench.report.table import Table, to_csv, to_latex, to_markdown
from forgebench.suites.mandela.frame import load_frame
from forgebench.suites.mandela.metrics import compute_metrics
from forgebench.suites.mandela.tables import build_tables
from forgebench.suites.mandela.tables.inputs import Metrics, TableData
from forgebench.suites.mandela.tables.stats import compute_statistics
from support.modules import file_module

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "analysis_speed.py"
DIGEST = "c52c13aa82c39dd297835b7a7569c63113aa67378cce4825067641df203598bf"


def analysis_digest(run: Path, judge: str) -> str:
    """sha256 over metrics.csv, the frame as CSV, the statistics and every table rendered."""
    frame = load_frame(run, judge)
    metrics = compute_metrics(frame, judge)
    stats = compute_statistics(frame, reps=200)
    parts = [metrics.to_csv(index=False), frame.to_csv(index=False), repr(stats)]
    for t in build_tables(
        TableData(metrics=Metrics(metrics, judge), groups={}, frame=frame), stats
    ):
        parts += [to_markdown(t), to_latex(t), to_csv(t)] if isinstance(t, Table) else [repr(t)]
    return hashlib.sha256("\n=====\n".join(parts).encode()).hexdigest()


def test_analysis_of_a_fixed_run_gives_the_recorded_bytes(tmp_path: Path) -> None:
    bench = file_module("forgebench_tests_analysis_speed", BENCH)
    bench.build_store(tmp_path, 3)
    assert analysis_digest(tmp_path, bench.JUDGE) == DIGEST
