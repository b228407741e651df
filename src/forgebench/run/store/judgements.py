"""The run store's verdicts (a suite parser's reading of an answer) and judgements (a judge's:
E0-E4 grades, extracted letters, uptake, gate results), by (task, judge, kind)."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from forgebench.run.store.base import StoreBase
from forgebench.run.store.rows import Judgement, json_object
from forgebench.util.redact import redact_known, redact_known_json
from forgebench.util.text import json_text, valid


def _known(text: str | None) -> str | None:
    """``text`` without the configured keys' values (an answer or a judge's reply)."""
    return redact_known(valid(text)) if text else text


class JudgementsPart(StoreBase):
    """Verdicts and judgements."""

    def put_verdicts(self, rows: Iterable[tuple[str, str, dict[str, Any], str]]) -> int:
        """Store parsed verdicts ``(task_key, verdict, detail, parser_version)``, replacing a
        key's earlier verdict (a new parser version re-parses); one transaction; the count."""
        data = [(k, v, json_text(d), pv) for k, v, d, pv in rows]
        with self._tx():
            self.connection.executemany(
                "INSERT INTO verdicts(task_key, verdict, detail, parser_version) VALUES(?,?,?,?) "
                "ON CONFLICT(task_key) DO UPDATE SET verdict=excluded.verdict, "
                "detail=excluded.detail, parser_version=excluded.parser_version",
                data,
            )
        return len(data)

    def put_judgement(self, j: Judgement, *, replace: bool = False) -> bool:
        """Store one judgement in its own transaction; an existing (task, judge, kind) is kept
        unless ``replace``. True when written."""
        return self.put_judgements([j], replace=replace) == 1

    def put_judgements(self, rows: Iterable[Judgement], *, replace: bool = False) -> int:
        """Store judgements in one transaction (existing ones kept unless ``replace``); the
        number written."""
        verb = "OR REPLACE" if replace else "OR IGNORE"
        now = time.time()
        data = [
            (j.task_key, j.judge, j.kind, j.value, j.level, j.status, _known(j.reason),
             redact_known_json(json_text(j.detail)), j.version,
             j.judge_spec, _known(j.raw), j.attempts, now)
            for j in rows
        ]  # fmt: skip
        with self._tx():
            before = self.connection.total_changes
            self.connection.executemany(
                f"INSERT {verb} INTO judgements(task_key, judge, kind, value, level, status, "
                "reason, detail, version, judge_spec, raw, attempts, created_at) "
                "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)",
                data,
            )
            return self.connection.total_changes - before

    def judgements(self, judge: str, kind: str) -> dict[str, Judgement]:
        """One judge's judgements of one kind, by task key."""
        sql = (
            "SELECT task_key, judge, kind, status, version, judge_spec, value, level, reason, "
            "detail, raw, attempts FROM judgements WHERE judge=? AND kind=?"
        )
        return {r[0]: self._judgement(r) for r in self.connection.execute(sql, (judge, kind))}

    @staticmethod
    def _judgement(r: tuple[Any, ...]) -> Judgement:
        return Judgement(
            task_key=r[0], judge=r[1], kind=r[2], status=r[3], version=r[4],
            judge_spec=r[5], value=r[6], level=r[7], reason=r[8],
            detail=json_object(r[9]), raw=r[10], attempts=int(r[11]),
        )  # fmt: skip

    def judged_keys(self, judge: str, kind: str) -> dict[str, str]:
        """``{task_key: status}`` of one judge's judgements of one kind (what a judge stage
        leaves alone on resume)."""
        sql = "SELECT task_key, status FROM judgements WHERE judge=? AND kind=?"
        return {str(k): str(s) for k, s in self.connection.execute(sql, (judge, kind))}

    def judged_values(self, judge: str, kind: str) -> dict[str, str]:
        """``{task_key: value}`` of one judge's judgements of one kind that have a value."""
        sql = (
            "SELECT task_key, value FROM judgements WHERE judge=? AND kind=? AND value IS NOT NULL"
        )
        return {str(k): str(v) for k, v in self.connection.execute(sql, (judge, kind))}

    def judged_levels(self, judge: str, kind: str) -> dict[str, int]:
        """``{task_key: level}`` of one judge's judgements of one kind that have a level
        (unscored ones have none)."""
        sql = (
            "SELECT task_key, level FROM judgements WHERE judge=? AND kind=? AND level IS NOT NULL"
        )
        return {str(k): int(v) for k, v in self.connection.execute(sql, (judge, kind))}

    def judges(self, kind: str) -> list[str]:
        """Names of the judges with judgements of ``kind`` in this run, sorted."""
        sql = "SELECT DISTINCT judge FROM judgements WHERE kind=? ORDER BY 1"
        return [str(r[0]) for r in self.connection.execute(sql, (kind,))]

    def judge_sizes(self, kind: str) -> list[tuple[str, int]]:
        """``(judge, judgements)`` of ``kind`` per judge, most first (ties by name)."""
        sql = (
            "SELECT judge, COUNT(*) AS n FROM judgements WHERE kind=? "
            "GROUP BY judge ORDER BY n DESC, judge"
        )
        return [(str(j), int(n)) for j, n in self.connection.execute(sql, (kind,))]

    def judgement_counts(self, judge: str, kind: str) -> dict[str, int]:
        """``{status: count}`` of one judge's judgements of one kind."""
        sql = "SELECT status, COUNT(*) FROM judgements WHERE judge=? AND kind=? GROUP BY status"
        return {str(s): int(n) for s, n in self.connection.execute(sql, (judge, kind))}
