"""Mandela's analysis gives the same results however fast it is made: metrics.csv, the row-level
frame, the statistics and every rendered table of a fixed synthetic run (the analysis
benchmark's store, three models), against a recording made before the analysis was optimised.

metrics.csv and the frame are compared byte for byte (SHA-256). The statistics and the tables
hold fitted values (logistic regressions, their standard errors and p-values) whose last bits
depend on the BLAS kernels the CPU selects (OpenBLAS's Haswell and Sandybridge kernels here
differ at about 1e-16 relative; the digest first recorded on an AVX-512 machine did not match an
AVX2 one): their text must match with every number masked, and each number within a relative
1e-9 of the recorded one (``analysis_reference.txt.gz``: the statistics' repr and each table as
Markdown, LaTeX and CSV, written by this code at 2fa404d, which matched the first digest on the
machine that recorded it)."""

from __future__ import annotations

import gzip
import hashlib
import math
import re
from pathlib import Path

from forgebench.report.table import Table, to_csv, to_latex, to_markdown
from forgebench.suites.mandela.frame import load_frame
from forgebench.suites.mandela.metrics import compute_metrics
from forgebench.suites.mandela.tables import build_tables
from forgebench.suites.mandela.tables.inputs import Metrics, TableData
from forgebench.suites.mandela.tables.stats import compute_statistics
from support.modules import file_module

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "analysis_speed.py"
REFERENCE = Path(__file__).with_name("analysis_reference.txt.gz")
EXACT = "7f89aeb209d451218c76e8d26fe811b1aed6f219e155488bfc9caef9fd0a247c"  # metrics, frame
SEPARATOR = "\n=====\n"
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def analysis_parts(run: Path, judge: str) -> tuple[str, str]:
    """(sha256 over metrics.csv and the frame as CSV, the statistics and every table rendered)."""
    frame = load_frame(run, judge)
    metrics = compute_metrics(frame, judge)
    stats = compute_statistics(frame, reps=200)
    exact = hashlib.sha256(
        SEPARATOR.join([metrics.to_csv(index=False), frame.to_csv(index=False)]).encode()
    ).hexdigest()
    parts = [repr(stats)]
    for t in build_tables(
        TableData(metrics=Metrics(metrics, judge), groups={}, frame=frame), stats
    ):
        parts += [to_markdown(t), to_latex(t), to_csv(t)] if isinstance(t, Table) else [repr(t)]
    return exact, SEPARATOR.join(parts)


def differences(got: str, want: str, rel: float = 1e-9) -> list[str]:
    """Where ``got`` differs from ``want``: the text with numbers masked, then each number
    beyond ``rel`` of the recorded one (first five)."""
    if NUMBER.sub("#", got) != NUMBER.sub("#", want):
        g, w = NUMBER.sub("#", got).splitlines(), NUMBER.sub("#", want).splitlines()
        line = next((i for i, (a, b) in enumerate(zip(g, w, strict=False)) if a != b), len(g))
        return [f"text differs at line {line + 1}: {g[line : line + 1]} vs {w[line : line + 1]}"]
    out = []
    for k, (a, b) in enumerate(zip(NUMBER.findall(got), NUMBER.findall(want), strict=True)):
        if not math.isclose(float(a), float(b), rel_tol=rel, abs_tol=1e-300):
            out.append(f"number {k}: {a} vs recorded {b}")
    return out[:5]


def test_analysis_of_a_fixed_run_gives_the_recorded_results(tmp_path: Path) -> None:
    bench = file_module("forgebench_tests_analysis_speed", BENCH)
    bench.build_store(tmp_path, 3)
    exact, fitted = analysis_parts(tmp_path, bench.JUDGE)
    assert exact == EXACT
    assert differences(fitted, gzip.decompress(REFERENCE.read_bytes()).decode()) == []


def test_the_comparison_catches_a_changed_number_or_word() -> None:
    want = "coef=-0.08107238603177529, se=0.2358 | Open weights,31.4\n"
    assert differences("coef=-0.08107238603177522, se=0.2358 | Open weights,31.4\n", want) == []
    assert differences("coef=-0.0810724, se=0.2358 | Open weights,31.4\n", want)
    assert differences("coef=-0.08107238603177529, se=0.2358 | Open weights,31.5\n", want)
    assert differences("coef=-0.08107238603177529, se=0.2358 | Closed weights,31.4\n", want)
    assert differences("coef=-0.08107238603177529, se=0.2358 | Open weights,31.4,1\n", want)
