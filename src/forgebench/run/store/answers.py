"""The run store's answers, errors and output files, and the status counts over them.

- every answer is its own transaction, committed as it arrives;
- ``answers.task_key`` is the primary key and answers are written with ``INSERT OR IGNORE``, so a
  key can never get a second answer, whatever runs concurrently or again;
- storing an answer deletes the key's error row; storing an error never touches an answer;
- text from outside is made valid on its way in (:mod:`forgebench.util.text`): a lone surrogate
  in an answer or an error becomes U+FFFD; the raw reply keeps it as its JSON escape.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from forgebench.models.base import Response
from forgebench.run.store.base import StoreBase
from forgebench.run.store.rows import CountRow, StoredAnswer, StoredError, TokenRow, json_object
from forgebench.util.redact import redact_known, redact_known_json, redact_text
from forgebench.util.text import json_text, valid


class AnswersPart(StoreBase):
    """Answers, errors, outputs and counts."""

    def put_answer(
        self,
        key: str,
        response: Response,
        attempts: int,
        latency_s: float | None,
        request_params: dict[str, Any],
    ) -> bool:
        """Store one answer in its own transaction; False if the key already had one."""
        with self._tx():
            cur = self.connection.execute(
                "INSERT OR IGNORE INTO answers(task_key, text, raw, finish_reason, input_tokens, "
                "output_tokens, latency_s, attempts, request, created_at) "
                "VALUES(?,?,?,?,?,?,?,?,?,?)",
                (
                    key, redact_known(valid(response.text)) if response.text else response.text,
                    redact_known_json(json_text(response.raw)),
                    response.finish_reason, response.usage.input_tokens,
                    response.usage.output_tokens, latency_s, attempts,
                    json_text(request_params), time.time(),
                ),
            )  # fmt: skip
            inserted = cur.rowcount == 1
            self.connection.execute("DELETE FROM errors WHERE task_key=?", (key,))
        return inserted

    def put_error(self, key: str, reason: str, status: int | None, attempts: int) -> bool:
        """Store (or update) a task's error; ignored (False) when the key already has an answer."""
        with self._tx():
            if self.connection.execute("SELECT 1 FROM answers WHERE task_key=?", (key,)).fetchone():
                return False
            self.connection.execute(
                "INSERT INTO errors(task_key, reason, status, attempts, updated_at) "
                "VALUES(?,?,?,?,?) ON CONFLICT(task_key) DO UPDATE SET reason=excluded.reason, "
                "status=excluded.status, attempts=excluded.attempts, "
                "updated_at=excluded.updated_at",
                (key, redact_text(valid(reason)), status, attempts, time.time()),
            )
        return True

    def answered(self, keys: Iterable[str] | None = None) -> set[str]:
        """Keys that have an answer (all, or among ``keys``)."""
        got = {r[0] for r in self.connection.execute("SELECT task_key FROM answers")}
        return got if keys is None else got & set(keys)

    def answer(self, key: str) -> StoredAnswer | None:
        """A task's stored answer, or None."""
        row = self.connection.execute(
            "SELECT text, raw, attempts FROM answers WHERE task_key=?", (key,)
        ).fetchone()
        return None if row is None else StoredAnswer(row[0], json_object(row[1]), int(row[2]))

    def answer_text(self, key: str) -> str | None:
        """The text of a task's stored answer, or None when it has no answer."""
        row = self.connection.execute(
            "SELECT text FROM answers WHERE task_key=?", (key,)
        ).fetchone()
        return None if row is None else str(row[0])

    def error(self, key: str) -> StoredError | None:
        """A task's stored error, or None."""
        row = self.connection.execute(
            "SELECT reason, status, attempts FROM errors WHERE task_key=?", (key,)
        ).fetchone()
        return None if row is None else StoredError(str(row[0]), row[1], int(row[2]))

    def last_error(self, model: str) -> str | None:
        """The reason of ``model``'s most recently stored error, or None."""
        row = self.connection.execute(
            "SELECT e.reason FROM errors e JOIN tasks t ON t.key = e.task_key "
            "WHERE t.model=? ORDER BY e.updated_at DESC LIMIT 1",
            (model,),
        ).fetchone()
        return None if row is None else str(row[0])

    def answers_cost(self, probe: str, *, without_steps: bool = False) -> float:
        """The sum of the ``cost`` field of the raw answers of a probe's tasks (an editor's
        price of each candidate); with ``without_steps``, only of tasks that have no kept
        construction steps (those steps carry their own cost)."""
        sql = (
            "SELECT SUM(json_extract(a.raw, '$.cost')) FROM answers a JOIN tasks t "
            "ON t.key = a.task_key WHERE t.probe = ?"
        )
        if without_steps:
            sql += " AND NOT EXISTS (SELECT 1 FROM construct_steps s WHERE s.task_key = a.task_key)"
        row = self.connection.execute(sql, (probe,)).fetchone()
        return float(row[0] or 0.0)

    # -- outputs --------------------------------------------------------------------------------

    def put_output(self, key: str, name: str, sha256: str, media_type: str, size: int) -> None:
        """Record a file an answer carries (its bytes live in the blob cache by ``sha256``)."""
        with self._tx():
            self.connection.execute(
                "INSERT OR IGNORE INTO outputs(task_key, name, sha256, media_type, size) "
                "VALUES(?,?,?,?,?)",
                (key, name, sha256, media_type, size),
            )

    def outputs(self, key: str) -> list[tuple[str, str, str, int]]:
        """``(name, sha256, media_type, size)`` of a task's output files."""
        return [
            (n, h, m, int(z))
            for n, h, m, z in self.connection.execute(
                "SELECT name, sha256, media_type, size FROM outputs WHERE task_key=? ORDER BY name",
                (key,),
            )
        ]

    # -- status ---------------------------------------------------------------------------------

    def counts(self) -> list[CountRow]:
        """Done / error / total per model x probe x condition, sorted."""
        sql = """
            SELECT t.model, t.probe, t.condition, COUNT(*),
                   SUM(a.task_key IS NOT NULL),
                   SUM(a.task_key IS NULL AND e.task_key IS NOT NULL)
            FROM tasks t
            LEFT JOIN answers a ON a.task_key = t.key
            LEFT JOIN errors e ON e.task_key = t.key
            WHERE t.superseded_by IS NULL
            GROUP BY t.model, t.probe, t.condition
            ORDER BY t.model, t.probe, t.condition
        """
        return [
            CountRow(m, p, c, int(n), int(d or 0), int(e or 0))
            for m, p, c, n, d, e in self.connection.execute(sql)
        ]

    def token_totals(self) -> list[TokenRow]:
        """Answers and input/output token totals per model."""
        sql = """
            SELECT t.model, COUNT(*), COALESCE(SUM(a.input_tokens), 0),
                   COALESCE(SUM(a.output_tokens), 0)
            FROM answers a JOIN tasks t ON t.key = a.task_key
            WHERE t.superseded_by IS NULL
            GROUP BY t.model ORDER BY t.model
        """
        return [TokenRow(m, int(n), int(i), int(o)) for m, n, i, o in self.connection.execute(sql)]
