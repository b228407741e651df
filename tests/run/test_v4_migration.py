"""Store schema 4 -> 5: a Forensics candidate row's tiled ``full`` task becomes ``tiled`` under
the key today's ``tiled`` question makes, and every table that names the key follows it, in one
transaction (a failure leaves the store as it was)."""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from forgebench.models.spec import ModelConfig
from forgebench.run.generate import plan
from forgebench.run.source import Selection
from forgebench.run.store import Store, StoreError
from forgebench.run.store.schema import SCHEMA_VERSION
from forgebench.suites import get

V4 = Path(__file__).parents[1] / "fixtures" / "v4_run"


@pytest.fixture
def v4(tmp_path: Path) -> Path:
    shutil.copytree(V4, tmp_path / "v4")
    return tmp_path / "v4"


def _sql(run: Path, sql: str, *args: object) -> list[tuple[object, ...]]:
    with closing(sqlite3.connect(run / "run.sqlite")) as con, con:
        return con.execute(sql, args).fetchall()


def _keys_today(v4: Path, condition: str) -> dict[str, str]:
    """The keys today's questions make for model m1 (nothing is sent)."""
    config = ModelConfig(spec="m1=openai/fake@http://127.0.0.1:9/v1")
    p = plan(get("forensics"), v4 / "forensics", [config], Selection(conditions=[condition]),
             cache_dir=v4 / "cache")  # fmt: skip
    return {t.item_id: t.key for t in p.tasks["m1"]}


def test_every_reference_to_a_relabelled_key_moves_with_it(v4: Path) -> None:
    run = v4 / "run"
    old = dict(_sql(run, "SELECT item_id, key FROM tasks"))
    sls, bc = old["sls3"], old["bc1"]
    # what other stages may have left keyed by the task: an error, an output, a superseded
    # task, a construction step
    _sql(run, "INSERT INTO errors VALUES (?, 'HTTP 500', 500, 3, 0)", sls)
    _sql(run, "INSERT INTO outputs VALUES (?, 'image_0', ?, 'image/png', 10)", sls, "f" * 64)
    _sql(run, "INSERT INTO construct_steps VALUES (?, 0, 'in', ?, 0.5, 0)", sls, "e" * 64)
    _sql(
        run,
        "INSERT INTO tasks(key, item_id, probe, condition, model, prompt, prompt_version, "
        "variant_id, params, extra, created_at, superseded_by, benchmark) "
        "SELECT 'older', item_id, probe, condition, model, prompt || ' (older)', prompt_version, "
        "variant_id, params, extra, 0, key, benchmark FROM tasks WHERE key = ?",
        sls,
    )
    with Store.open(run, create=False) as store:
        assert store.meta_get("schema_version") == SCHEMA_VERSION
    tiled = _keys_today(v4, "tiled")
    assert set(tiled) == {"sls3", "sld1"}  # candidate rows only
    new = tiled["sls3"]
    assert _sql(run, "SELECT condition FROM tasks WHERE key = ?", new) == [("tiled",)]
    for table in ("answers", "errors", "outputs", "verdicts", "judgements", "construct_steps"):
        assert _sql(run, f"SELECT COUNT(*) FROM {table} WHERE task_key = ?", sls) == [(0,)]
        assert _sql(run, f"SELECT COUNT(*) FROM {table} WHERE task_key = ?", new) == [(1,)]
    assert _sql(run, "SELECT condition FROM tasks WHERE superseded_by = ?", new) != []
    assert _sql(run, "SELECT COUNT(*) FROM tasks WHERE superseded_by = ?", sls) == [(0,)]
    assert _sql(run, "PRAGMA foreign_key_check") == []
    # the rows that are not candidate rows keep their keys, which today's full questions make
    full = _keys_today(v4, "full")
    assert _sql(run, "SELECT condition FROM tasks WHERE key = ?", bc) == [("full",)]
    assert full["bc1"] == bc and full["vid1"] == old["vid1"]
    assert full["sls3"] not in (sls, new)  # the images apart: a new task


def test_a_failed_migration_leaves_the_store_as_it_was(v4: Path) -> None:
    run = v4 / "run"
    new = _keys_today(v4, "tiled")["sld1"]
    # a task already under the key the migration needs: the step fails on it
    _sql(
        run,
        "INSERT INTO tasks(key, item_id, probe, condition, model, prompt, prompt_version, "
        "params, created_at, benchmark) VALUES (?, 'x', 'MCQ', 'full', 'm9', 'p', 'v', '{}', 0, "
        "'forensics')",
        new,
    )
    before = _sql(run, "SELECT key, condition FROM tasks ORDER BY key")
    with pytest.raises(StoreError, match=r"run\.sqlite"):
        Store.open(run, create=False)
    assert _sql(run, "SELECT key, condition FROM tasks ORDER BY key") == before
    assert _sql(run, "SELECT value FROM meta WHERE key='schema_version'") == [("4",)]


def test_a_store_without_forensics_candidate_rows_migrates_unchanged(tmp_path: Path) -> None:
    shutil.copytree(Path(__file__).parents[1] / "fixtures" / "v3_run", tmp_path / "v3")
    run = tmp_path / "v3" / "run"
    before = _sql(run, "SELECT key, condition FROM tasks ORDER BY key")
    with Store.open(run, create=False) as store:
        assert store.meta_get("schema_version") == SCHEMA_VERSION
    assert _sql(run, "SELECT key, condition FROM tasks ORDER BY key") == before
