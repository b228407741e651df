"""``metrics.csv`` of a merged run (``run/merge.py``).

A benchmark whose suite can score a run (``Suite.score``; the caller passes ``rescore``, since the
engine never imports a suite) is scored again on the merged store, once per judge that judged
its tasks, exactly as ``forgebench metrics`` would on one run that did everything. Rows of a
benchmark nobody rescored, and rows of models the rescoring wrote none for (PIXAR's ``pixar score
--out`` rows of a detector that has no tasks), are copied when all of a model's rows come from one source, and
otherwise left out with a note telling which benchmark to score again on the merged run.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

from forgebench.results.metrics_csv import METRICS_FILE, Scope, read_rows, write_metrics
from forgebench.run.rundir import RunDir

Rescore = Callable[[str, Path, str | None], Path | None]
"""``rescore(benchmark, run_dir, judge)``: write that benchmark's rows of ``run_dir``'s
metrics.csv; None when the benchmark cannot be scored this way."""


def _judges(run_dir: Path, benchmark: str) -> list[str]:
    with sqlite3.connect(RunDir(run_dir).db) as con:
        sql = (
            "SELECT DISTINCT j.judge FROM judgements j JOIN tasks t ON t.key = j.task_key "
            "WHERE t.benchmark = ? ORDER BY 1"
        )
        return [r[0] for r in con.execute(sql, (benchmark,))]


def merge_metrics(out: Path, sources: Sequence[Path], rescore: Rescore | None) -> list[str]:
    """Write ``out/metrics.csv`` from the sources' rows and the merged store; returns notes."""
    per_source = [read_rows(Path(s) / METRICS_FILE) for s in sources]
    benchmarks = sorted({r["benchmark"] for rows in per_source for r in rows})
    notes: list[str] = []
    for bench in benchmarks:
        rescored: set[str] = set()
        did = False
        if rescore is not None:
            judges: list[str | None] = [*_judges(out, bench)] or [None]
            written = [rescore(bench, out, judge) for judge in judges]
            did = any(w is not None for w in written)
            if did:
                rescored = {r["model"] for r in read_rows(out / METRICS_FILE)
                            if r["benchmark"] == bench}  # fmt: skip
        owners: dict[str, set[int]] = defaultdict(set)
        for i, rows in enumerate(per_source):
            for r in rows:
                if r["benchmark"] == bench and r["model"] not in rescored:
                    owners[r["model"]].add(i)
        kept = [
            r
            for i, rows in enumerate(per_source)
            for r in rows
            if r["benchmark"] == bench and owners.get(r["model"]) == {i}
        ]
        for model, found_in in sorted(owners.items()):
            if len(found_in) > 1:
                notes.append(
                    f"metrics.csv: {bench} rows of model {model} came from {len(found_in)} runs "
                    f"and were left out; score {bench} again on the merged run"
                )
        if kept:
            write_metrics(out, kept, Scope.of(bench, models=owners) if did else Scope(bench))
    return notes
