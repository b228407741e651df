"""``forgebench redact RUN``: remove the configured keys' values from a run written before they
were redacted on the way in.

Every text cell of every table of ``run.sqlite`` (answers, errors, judgements, meta, ...) and
every text file under the run directory (``config.json``, ``report/``, ``metrics.csv``, ...) has
each known value (:func:`forgebench.util.redact.known_secrets`, plus the keys the run's models
name by ``api_key_env``) replaced by ``***``, also in its JSON-escaped form. Exact values only,
as answers are stored: a real answer is never rewritten by a pattern. The store is then vacuumed
and its write-ahead log truncated, so the old text does not survive in freed pages.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from forgebench.run.store import DB_NAME, Store
from forgebench.util.atomic import write_bytes
from forgebench.util.redact import REDACTED, known_secrets, register_env

_SKIP_SUFFIXES = ("", "-wal", "-shm", "-journal")


@dataclass
class Redacted:
    """What :func:`redact_run` changed."""

    keys: int
    """Known key values looked for."""
    cells: int
    """Store cells rewritten."""
    files: int
    """Files rewritten."""


def register_run_keys(store: Store) -> None:
    """Make the keys this run's models name (``api_key_env``) known to redaction."""
    rows = store.connection.execute("SELECT value FROM meta WHERE key LIKE 'model:%'")
    for (value,) in rows:
        try:
            config = json.loads(value).get("config") or {}
        except (ValueError, AttributeError):
            continue
        env = config.get("api_key_env") if isinstance(config, dict) else None
        register_env([env] if isinstance(env, str) else [])


def _forms(values: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for v in values:
        for form in (v, json.dumps(v)[1:-1], json.dumps(v, ensure_ascii=False)[1:-1]):
            if form not in out:
                out.append(form)
    return out


def _redact_store(con: sqlite3.Connection, forms: list[str]) -> int:
    changed = 0
    tables = [
        r[0]
        for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'"
        )
    ]
    con.execute("PRAGMA secure_delete=ON")
    with con:
        for table in tables:
            cols = [r[1] for r in con.execute(f'PRAGMA table_info("{table}")')]
            for col in cols:
                for form in forms:
                    cur = con.execute(
                        f'UPDATE "{table}" SET "{col}" = replace("{col}", ?, ?) '
                        f'WHERE typeof("{col}") = \'text\' AND instr("{col}", ?) > 0',
                        (form, REDACTED, form),
                    )
                    changed += max(cur.rowcount, 0)
    if changed:
        con.execute("VACUUM")
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return changed


def _redact_files(run_dir: Path, forms: list[str]) -> int:
    changed = 0
    needles = [f.encode("utf-8") for f in forms]
    for path in sorted(run_dir.rglob("*")):
        if path.is_symlink() or not path.is_file():
            continue
        if path.parent == run_dir and path.name in {DB_NAME + s for s in _SKIP_SUFFIXES}:
            continue
        data = path.read_bytes()
        if not any(n in data for n in needles):
            continue
        for needle in needles:
            data = data.replace(needle, REDACTED.encode("ascii"))
        write_bytes(path, data)
        changed += 1
    return changed


def redact_run(run_dir: Path) -> Redacted:
    """Replace the known key values in ``run_dir``'s store and files (module docstring)."""
    with Store.open(run_dir, create=False) as store:
        register_run_keys(store)
        forms = _forms(known_secrets())
        cells = _redact_store(store.connection, forms) if forms else 0
    files = _redact_files(run_dir, forms) if forms else 0
    return Redacted(keys=len(known_secrets()), cells=cells, files=files)
