"""Only the run package speaks SQL: every other module of forgebench reads and writes the run
store through the typed methods of ``run.store.Store``. A SQL statement in a string, a call of
``.execute``/``.executemany``/``.executescript``, a use of ``.connection``, ``sqlite3.connect``
or pandas' ``read_sql*`` anywhere outside ``src/forgebench/run/`` fails this test."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import forgebench

SRC = Path(forgebench.__file__).parent
RUN = SRC / "run"

_SQL = re.compile(
    r"\bSELECT\b[\s\S]+\bFROM\b|\bINSERT\s+(?:OR\s+\w+\s+)?INTO\b|\bUPDATE\s+\w+\s+SET\b"
    r"|\bDELETE\s+FROM\b|\bCREATE\s+(?:TEMP\s+|UNIQUE\s+)?(?:TABLE|INDEX|VIEW|TRIGGER)\b"
    r"|\bDROP\s+(?:TABLE|INDEX|VIEW)\b|\bALTER\s+TABLE\b|\bPRAGMA\s+\w+"
    r"|\bBEGIN\s+(?:IMMEDIATE|EXCLUSIVE|DEFERRED|TRANSACTION)\b"
)
"""A SQL statement (upper-case keywords, as the store writes them)."""
_CALLS = {"execute", "executemany", "executescript", "read_sql", "read_sql_query", "read_sql_table"}


def _strings(node: ast.AST) -> str | None:
    """The text of a string literal, or of an f-string's literal parts."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)
        )
    return None


def violations(source: str, name: str) -> list[str]:
    """Where ``source`` speaks SQL or touches a SQLite connection."""
    out: list[str] = []
    tree = ast.parse(source)
    parts = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    for node in ast.walk(tree):
        if id(node) in parts:  # read with its f-string
            continue
        where = f"{name}:{getattr(node, 'lineno', 0)}"
        text = _strings(node)
        if text is not None and _SQL.search(text):
            out.append(f"{where}: SQL in a string: {text.strip()[:60]!r}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            attr, owner = node.func.attr, node.func.value
            if attr in _CALLS:
                out.append(f"{where}: .{attr}(...)")
            if attr == "connect" and isinstance(owner, ast.Name) and owner.id == "sqlite3":
                out.append(f"{where}: sqlite3.connect(...)")
        if isinstance(node, ast.Attribute) and node.attr == "connection":
            out.append(f"{where}: .connection")
    return out


def test_no_module_outside_the_run_package_speaks_sql() -> None:
    found: list[str] = []
    for path in sorted(SRC.rglob("*.py")):
        if RUN in path.parents:
            continue
        rel = path.relative_to(SRC).as_posix()
        found += violations(path.read_text(encoding="utf-8"), rel)
    assert not found, "SQL outside src/forgebench/run/ (use a typed Store method):\n" + "\n".join(
        found
    )


def test_the_check_finds_each_kind_of_sql_use() -> None:
    planted = """
import sqlite3
import pandas as pd

def grades(store, run_dir, judge):
    con = sqlite3.connect(run_dir / "run.sqlite")
    rows = store.connection.execute("SELECT task_key FROM grades WHERE judge=?", (judge,))
    con.executemany(f"INSERT OR IGNORE INTO {TABLE}(a) VALUES (?)", [])
    frame = pd.read_sql_query("select 1", con)
    con.execute("CREATE TABLE IF NOT EXISTS steps (k TEXT)")
    return rows, frame
"""
    found = violations(planted, "planted.py")
    kinds = {f.split(": ", 1)[1].split(":")[0] for f in found}
    assert kinds == {
        "sqlite3.connect(...)", ".connection", ".execute(...)", ".executemany(...)",
        ".read_sql_query(...)", "SQL in a string",
    }, found  # fmt: skip
    assert sum("SQL in a string" in f for f in found) == 3  # SELECT, INSERT (f-string), CREATE
    # prose is not SQL, nor is handling sqlite3's errors
    clean = '"""Select the rows from the store; update the table."""\nexcept_ = sqlite3.Error\n'
    assert violations(clean, "clean.py") == []
