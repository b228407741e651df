"""Store schema 7: the replica statistics table is declared in the schema and migrated like every
other table. A store of every earlier schema (the fixture runs of schemas 1 to 4, and stores of
schema 6 as runs made before wrote them: without the table, or with the table a run that used
replicas created before its ``timeouts`` column existed) opens at the current version with the
declared table, its rows kept."""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from forgebench.run.store import ReplicaRow, Store, StoreError
from forgebench.run.store.schema import REPLICA_STATS, SCHEMA_VERSION

FIXTURES = Path(__file__).parents[1] / "fixtures"

OLD_TABLE = """CREATE TABLE replica_stats (
    model TEXT NOT NULL, url TEXT NOT NULL, sent INTEGER NOT NULL, answered INTEGER NOT NULL,
    errors INTEGER NOT NULL, rests INTEGER NOT NULL, latency_sum_s REAL NOT NULL,
    updated_at REAL NOT NULL, PRIMARY KEY (model, url))"""
"""The table as ``run/replica_stats.py`` created it before ``timeouts`` was added."""


def _sql(run: Path, sql: str, *args: object) -> list[tuple[object, ...]]:
    with closing(sqlite3.connect(run / "run.sqlite")) as con, con:
        return con.execute(sql, args).fetchall()


def _columns(run: Path) -> list[tuple[object, ...]]:
    """``replica_stats``' columns: name, type, not null, default, primary-key position."""
    return [r[1:] for r in _sql(run, "PRAGMA table_info(replica_stats)")]


@pytest.fixture(scope="module")
def declared(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[object, ...]]:
    """The columns of the table a new store gets from the schema."""
    run = tmp_path_factory.mktemp("new") / "run"
    Store.open(run).close()
    return _columns(run)


def _as_v6(run: Path, table: str | None) -> None:
    """Make ``run``'s store what schema 6 wrote: no ``replica_stats`` (``table`` None) or the
    one ``table`` creates, and schema version 6."""
    _sql(run, "DROP TABLE replica_stats")
    if table is not None:
        _sql(run, table)
    _sql(run, "UPDATE meta SET value='6' WHERE key='schema_version'")


def test_a_new_store_declares_the_table(declared: list[tuple[object, ...]]) -> None:
    assert "CREATE TABLE IF NOT EXISTS replica_stats" in REPLICA_STATS
    assert [c[0] for c in declared] == [
        "model", "url", "sent", "answered", "errors", "rests", "latency_sum_s", "updated_at",
        "timeouts",
    ]  # fmt: skip
    assert [c[4] for c in declared[:2]] == [1, 2]  # the key: model, url


@pytest.mark.parametrize("version", [1, 2, 3, 4])
def test_every_fixture_run_opens_with_the_table(
    version: int, tmp_path: Path, declared: list[tuple[object, ...]]
) -> None:
    shutil.copytree(FIXTURES / f"v{version}_run" / "run", tmp_path / "run")
    run = tmp_path / "run"
    before = _sql(run, "SELECT COUNT(*), COUNT(DISTINCT key) FROM tasks")
    with Store.open(run, create=False) as store:
        assert store.meta_get("schema_version") == SCHEMA_VERSION == 10
        assert store.replicas() == []
    assert _columns(run) == declared
    assert _sql(run, "SELECT COUNT(*), COUNT(DISTINCT key) FROM tasks") == before  # (5 relabels)


def test_a_v6_store_without_the_table_gets_it(
    tmp_path: Path, declared: list[tuple[object, ...]]
) -> None:
    run = tmp_path / "run"
    with Store.open(run) as store:
        store.meta_set("note", "kept")
    _as_v6(run, None)
    assert _sql(run, "SELECT name FROM sqlite_master WHERE name='replica_stats'") == []
    with Store.open(run, create=False) as store:
        assert store.meta_get("schema_version") == SCHEMA_VERSION
        assert store.meta_get("note") == "kept"
        assert store.replicas() == []
    assert _columns(run) == declared


def test_a_v6_table_without_timeouts_keeps_its_rows(
    tmp_path: Path, declared: list[tuple[object, ...]]
) -> None:
    run = tmp_path / "run"
    Store.open(run).close()
    _as_v6(run, OLD_TABLE)
    _sql(run, "INSERT INTO replica_stats VALUES ('q', 'http://a/v1', 5, 4, 1, 2, 2.0, 0.0)")
    with Store.open(run, create=False) as store:
        assert store.replicas() == [ReplicaRow("q", "http://a/v1", 5, 4, 1, 2, 2.0, 0)]
        # the next invocation's counters add to the kept totals
        store.add_replica_counts([ReplicaRow("q", "http://a/v1", 3, 2, 1, 0, 1.0, 1)])
        assert store.replicas() == [ReplicaRow("q", "http://a/v1", 8, 6, 2, 2, 3.0, 1)]
        assert store.replicas()[0].mean_latency_s == 0.5
    assert [c[:3] for c in _columns(run)] == [c[:3] for c in declared]  # names, types, not null


def test_a_failed_migration_leaves_the_v6_store_as_it_was(tmp_path: Path) -> None:
    """The step runs in the migration's one transaction: a store it cannot upgrade (here a
    ``replica_stats`` that is a view, so the column cannot be added) is left at schema 6."""
    run = tmp_path / "run"
    Store.open(run).close()
    _as_v6(run, "CREATE VIEW replica_stats AS SELECT 1 AS model")
    with pytest.raises(StoreError, match=r"run\.sqlite"):
        Store.open(run, create=False).close()
    assert _sql(run, "SELECT value FROM meta WHERE key='schema_version'") == [("6",)]
