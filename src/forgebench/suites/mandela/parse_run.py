"""Parse a run's stored answers into verdicts (the verdict stage).

Every stored answer gets one verdict, written with :data:`~forgebench.suites.mandela.verdict.PARSER_VERSION`;
verdicts of an older parser version are re-parsed, those of the current one are left alone (so the
stage is idempotent and cheap to re-run). Errors and pending tasks have no answer and get no
verdict: the metrics count them as misses under strict scoring (``frame.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forgebench.run.store import GRADE_KIND, Store
from forgebench.suites.mandela.verdict import PARSER_VERSION, NameTargets, parse_answer

BENCHMARK = "mandela"
"""The benchmark id of Mandela's items and tasks in the store."""

__all__ = ["BENCHMARK", "GRADE_KIND", "ParseStats", "load_items", "parse_answers", "parse_run"]


@dataclass
class ParseStats:
    """What :func:`parse_run` did."""

    parsed: int = 0
    """Verdicts written (new answers and answers parsed by an older parser version)."""
    up_to_date: int = 0
    """Answers whose verdict already had the current parser version."""
    misses: int = 0
    """Of the verdicts written, how many were misses."""


def load_items(store: Store) -> dict[str, dict[str, Any]]:
    """The run's Mandela items as JSON objects by id."""
    return store.items(BENCHMARK)


def parse_run(store: Store, *, force: bool = False, batch: int = 2000) -> ParseStats:
    """Write a verdict for every answer lacking one of the current parser version (all with
    ``force``), superseded tasks' answers included. Commits in batches of ``batch``."""
    items = load_items(store)
    targets: dict[str, NameTargets] = {}
    stats = ParseStats()
    pending: list[tuple[str, str, dict[str, Any], str]] = []
    for r in store.records(BENCHMARK, answered=True, current=False):
        if r.parser_version == PARSER_VERSION and not force:
            stats.up_to_date += 1
            continue
        if r.item_id not in targets:
            targets[r.item_id] = NameTargets.from_item(items.get(r.item_id, {}))
        v = parse_answer(r.probe, r.text or "", targets[r.item_id], r.finish_reason)
        stats.parsed += 1
        stats.misses += v.verdict == "MISS"
        pending.append((r.key, v.verdict, v.detail, PARSER_VERSION))
        if len(pending) >= batch:
            store.put_verdicts(pending)
            pending.clear()
    if pending:
        store.put_verdicts(pending)
    return stats


def parse_answers(run_dir: Path) -> str | None:
    """The verdict stage of a run folder: a verdict stored for every Mandela answer lacking one
    (what the verdict facet, ``metrics``, ``judge``, ``export`` and ``outcome`` do first); a
    count line, None when there was nothing new."""
    with Store.open(run_dir, create=False) as store:
        stats = parse_run(store)
    if not stats.parsed:
        return None
    return f"verdicts: {stats.parsed} answers parsed ({stats.misses} misses)"
