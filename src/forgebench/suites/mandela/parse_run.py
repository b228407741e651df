"""Parse a run's stored answers into the ``verdicts`` table (the verdict stage).

Every stored answer gets one verdict row, written with :data:`~forgebench.suites.mandela.verdict.PARSER_VERSION`;
rows of an older parser version are re-parsed, rows of the current one are left alone (so the stage
is idempotent and cheap to re-run). Errors and pending tasks have no answer and get no verdict row:
the metrics count them as misses under strict scoring (``frame.py``).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from forgebench.suites.mandela.verdict import PARSER_VERSION, NameTargets, parse_answer


@dataclass
class ParseStats:
    """What :func:`parse_run` did."""

    parsed: int = 0
    """Verdict rows written (new answers and answers parsed by an older parser version)."""
    up_to_date: int = 0
    """Answers whose verdict row already had the current parser version."""
    misses: int = 0
    """Of the rows written, how many were misses."""


def load_items(con: sqlite3.Connection) -> dict[str, dict[str, Any]]:
    """The run's items as JSON objects by id."""
    return {
        item_id: json.loads(data)
        for item_id, data in con.execute(
            "SELECT item_id, data FROM items WHERE benchmark = 'mandela'"
        )
    }


def parse_run(con: sqlite3.Connection, *, force: bool = False, batch: int = 2000) -> ParseStats:
    """Write a verdict for every answer lacking one of the current parser version (all with
    ``force``). Commits in batches of ``batch`` rows."""
    items = load_items(con)
    targets: dict[str, NameTargets] = {}
    stats = ParseStats()
    sql = (
        "SELECT t.key, t.item_id, t.probe, a.text, a.finish_reason, v.parser_version "
        "FROM answers a JOIN tasks t ON t.key = a.task_key "
        "LEFT JOIN verdicts v ON v.task_key = a.task_key WHERE t.benchmark = 'mandela'"
    )
    pending: list[tuple[str, str, str, str]] = []

    def flush() -> None:
        if not pending:
            return
        in_tx = con.in_transaction
        if not in_tx:
            con.execute("BEGIN IMMEDIATE")
        con.executemany(
            "INSERT INTO verdicts(task_key, verdict, detail, parser_version) VALUES(?,?,?,?) "
            "ON CONFLICT(task_key) DO UPDATE SET verdict=excluded.verdict, "
            "detail=excluded.detail, parser_version=excluded.parser_version",
            pending,
        )
        if not in_tx:
            con.execute("COMMIT")
        pending.clear()

    for key, item_id, probe, text, finish_reason, version in con.execute(sql).fetchall():
        if version == PARSER_VERSION and not force:
            stats.up_to_date += 1
            continue
        if item_id not in targets:
            targets[item_id] = NameTargets.from_item(items.get(item_id, {}))
        v = parse_answer(probe, text, targets[item_id], finish_reason)
        stats.parsed += 1
        stats.misses += v.verdict == "MISS"
        pending.append((key, v.verdict, json.dumps(v.detail, ensure_ascii=False), PARSER_VERSION))
        if len(pending) >= batch:
            flush()
    flush()
    return stats
