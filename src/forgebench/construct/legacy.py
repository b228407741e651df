"""Import the JSONL ledgers of work folders written before the run store (``workstore.py``).

Earlier versions kept construction calls in two append-only files:

- ``WORK/candidates.jsonl``: one line per finished editor call (``key``, ``spec_id``,
  ``candidate``, ``editor``, ``status``, ``blob``, ``message``, ``cost``, ``attempts``), with the
  candidate image at ``WORK/blobs/<blob>.png``;
- ``answers.jsonl`` (``WORK/`` for a build's gates, the proposal folder for ``propose --model``):
  one line per answered model question (``key``, ``model``, ``version``, ``text``).

Their keys are the keys the store uses now, so each record becomes the answer of its key (an
image moves to the blob layout, ``WORK/blobs/<sha[:2]>/<sha>.png``); errors were never taken as
done and are left out (the next run retries them, as before). A file is treated as a ledger only
when every line but a last one cut by a kill is a record of that shape (a hand-written proposals
file called ``answers.jsonl`` is left alone); once imported it is renamed ``NAME.imported``.
Importing twice is harmless (an answer is stored once per key).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forgebench.construct.render import EDIT_PROBE, EDIT_VERSION
from forgebench.models.base import Response, Usage
from forgebench.run.tasks import Question, Task

if TYPE_CHECKING:
    from forgebench.construct.workstore import WorkStore

CANDIDATES = "candidates.jsonl"
ANSWERS = "answers.jsonl"
_ANSWER_FIELDS = {"key", "model", "version", "text"}
_CANDIDATE_FIELDS = {"key", "spec_id", "candidate", "editor", "status"}


def _records(path: Path, fields: set[str]) -> list[dict[str, Any]] | None:
    """The ledger's records, or None when the file is not such a ledger."""
    lines = [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    out: list[dict[str, Any]] = []
    for n, line in enumerate(lines):
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            row = None
        if not isinstance(row, dict) or not fields <= set(row):
            if n == len(lines) - 1 and out:
                break  # the last line, cut by a kill: that call is made again
            return None
        out.append(row)
    return out


def _candidate(work: WorkStore, row: dict[str, Any]) -> bool:
    if row["status"] == "error":
        return False
    sha = row.get("blob")
    if row["status"] == "ok":
        if not isinstance(sha, str):
            return False
        old, new = work.work / "blobs" / f"{sha}.png", work.blob_path(sha)
        if old.is_file() and not new.is_file():
            new.parent.mkdir(parents=True, exist_ok=True)
            os.replace(old, new)
        if not new.is_file():
            return False  # the image is gone: rendered again
    q = Question(
        item_id=str(row["spec_id"]), probe=EDIT_PROBE, condition=f"candidate {row['candidate']}",
        prompt=f"(imported from {CANDIDATES})", prompt_version=EDIT_VERSION,
        extra={"candidate": row["candidate"], "imported": True}, benchmark="construct",
    )  # fmt: skip
    work.store.put_tasks([Task(key=row["key"], model=str(row["editor"]), question=q, params={})])
    if row["status"] == "ok":
        assert isinstance(sha, str)
        work.store.put_output(
            row["key"], "image_0", sha, "image/png", work.blob_path(sha).stat().st_size
        )
    raw = {k: row.get(k) for k in ("status", "message", "cost")} | {"imported": CANDIDATES}
    response = Response(text=str(row["status"]), raw=raw, usage=Usage(0, 0))
    work.store.put_answer(row["key"], response, int(row.get("attempts") or 1), None, {})
    return True


def _answer(work: WorkStore, row: dict[str, Any]) -> bool:
    q = Question(
        item_id="(imported)", probe=str(row["version"]), condition=str(row["key"]),
        prompt=f"(imported from {ANSWERS})", prompt_version=str(row["version"]), benchmark="construct",
    )  # fmt: skip
    work.store.put_tasks([Task(key=row["key"], model=str(row["model"]), question=q, params={})])
    work.store.put_answer(row["key"], Response(text=str(row["text"])), 1, None, {})
    return True


def import_ledgers(work: WorkStore) -> int:
    """Import the ledgers found for this work folder; the number of records imported."""
    found = [
        (work.work / CANDIDATES, _CANDIDATE_FIELDS, _candidate),
        (work.work / ANSWERS, _ANSWER_FIELDS, _answer),
        (work.work.parent / ANSWERS, _ANSWER_FIELDS, _answer),
    ]
    n = 0
    for path, fields, put in found:
        if not path.is_file():
            continue
        rows = _records(path, fields)
        if rows is None:
            continue
        n += sum(put(work, r) for r in rows)
        os.replace(path, path.with_name(path.name + ".imported"))
    return n
