"""``metrics.csv`` of a merged run (``run/merge.py``).

Mandela rows are recomputed from the merged store for every judge that graded (and the rows that
use no grade), exactly as ``forgebench metrics`` would on one run that did everything. Rows of other
benchmarks are computed per model from stores this module does not rescore: they are copied when
all of a model's rows of that benchmark come from one source, and otherwise dropped with a note
telling which benchmark to rescore on the merged run.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from forgebench.results.metrics_csv import METRICS_FILE, Scope, read_rows, write_metrics

MANDELA = "mandela"


def merge_metrics(out: Path, sources: Sequence[Path], judges: list[str]) -> list[str]:
    """Write ``out/metrics.csv`` from the sources' and the merged store; returns notes."""
    per_source = [read_rows(Path(s) / METRICS_FILE) for s in sources]
    if not any(per_source):
        return []
    notes: list[str] = []
    owners: dict[tuple[str, str], set[int]] = defaultdict(set)
    for i, rows in enumerate(per_source):
        for r in rows:
            if r["benchmark"] != MANDELA:
                owners[(r["benchmark"], r["model"])].add(i)
    by_benchmark: dict[str, list[dict[str, str]]] = defaultdict(list)
    for i, rows in enumerate(per_source):
        for r in rows:
            key = (r["benchmark"], r["model"])
            if r["benchmark"] != MANDELA and owners[key] == {i}:
                by_benchmark[r["benchmark"]].append(r)
    for (bench, model), found_in in sorted(owners.items()):
        if len(found_in) > 1:
            notes.append(
                f"metrics.csv: {bench} rows of model {model} came from {len(found_in)} runs and "
                f"were left out; score {bench} again on the merged run"
            )
    for bench, rows in sorted(by_benchmark.items()):
        write_metrics(out, rows, Scope(bench))
    if any(r["benchmark"] == MANDELA for rows in per_source for r in rows):
        from forgebench.run.store import Store
        from forgebench.suites.mandela.metrics import write_metrics as write_mandela
        from forgebench.suites.mandela.parse_run import parse_run

        with Store.open(out, create=False) as store:
            parse_run(store.connection)  # verdicts for answers a source had not parsed yet
        chosen: list[str | None] = [*judges] or [None]
        for judge in chosen:
            write_mandela(out, judge)
    return notes
