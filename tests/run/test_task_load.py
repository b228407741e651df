"""A new run's tasks loaded in one go (indexes built after the rows) store exactly what batch
after batch of ``put_tasks`` stores, survive a SIGKILL mid-load, and a schema-5 store migrates
to the key index with every row, rowid and reference kept."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from forgebench.run.store import Store
from forgebench.run.store.schema import SCHEMA_VERSION, TASK_INDEXES
from forgebench.run.tasks import Question, Task, make_task

COLUMNS = (
    "key, item_id, probe, condition, model, prompt, prompt_version, variant_id, params, extra, "
    "image_path, media_type, benchmark, images, superseded_by"
)


def _task(item: int, model: str = "m", prompt: str = "p", extra: dict | None = None) -> Task:
    q = Question(str(item), "MCQ", "full", f"{prompt} {item}", "v1", extra=extra or {})
    q = Question(**{**q.__dict__, "benchmark": "forensics"})
    return make_task(q, model, {"max_tokens": 8})


def _batches(*batches: list[Task]) -> Iterator[list[Task]]:
    yield from batches


def _rows(run: Path) -> list[tuple]:
    with sqlite3.connect(run / "run.sqlite") as con:
        return con.execute(f"SELECT {COLUMNS} FROM tasks ORDER BY rowid").fetchall()


def _indexes(run: Path) -> set[str]:
    with sqlite3.connect(run / "run.sqlite") as con:
        sql = "SELECT name FROM sqlite_master WHERE type='index' AND tbl_name='tasks'"
        return {r[0] for r in con.execute(sql)}


def _both(tmp_path: Path, *batches: list[Task]) -> tuple[int, int]:
    """Load ``batches`` into a new run and put them batch by batch into another; the stores
    must hold the same rows. Returns what each reported as new."""
    with Store.open(tmp_path / "loaded") as store:
        loaded = store.load_tasks(lambda: _batches(*batches))
    with Store.open(tmp_path / "put") as store:
        put = sum(store.put_tasks(b) for b in batches)
    assert _rows(tmp_path / "loaded") == _rows(tmp_path / "put")
    assert _indexes(tmp_path / "loaded") == set(TASK_INDEXES)
    return loaded, put


def test_a_new_run_loads_what_batches_store(tmp_path: Path) -> None:
    tasks = [_task(i, m) for i in range(50) for m in ("a", "b", "c")]
    assert _both(tmp_path, tasks[:70], tasks[70:]) == (150, 150)
    with Store.open(tmp_path / "loaded") as store:  # the key is unique again after the load
        assert store.put_tasks([tasks[3]]) == 0
        with pytest.raises(sqlite3.IntegrityError):
            store.connection.execute("INSERT INTO tasks SELECT * FROM tasks LIMIT 1")


def test_a_key_given_twice_keeps_its_first_row(tmp_path: Path) -> None:
    first = _task(1, extra={"box": 1})
    again = Task(first.key, first.model, _task(1, extra={"box": 2}).question, first.params)
    batch = [_task(0), first, _task(2)]
    assert _both(tmp_path, batch, [again, _task(3)]) == (4, 4)
    assert [r[9] for r in _rows(tmp_path / "loaded")].count('{"box":1}') == 1


def test_keys_sharing_an_identity_supersede_as_batch_after_batch(tmp_path: Path) -> None:
    """Another prompt for the same model, item, probe and condition in a later batch
    supersedes the first; the load must not store both as current."""
    old, new = _task(1, prompt="old"), _task(1, prompt="new")
    _both(tmp_path, [_task(0), old], [new, _task(2)])
    rows = {r[0]: r for r in _rows(tmp_path / "loaded")}
    assert rows[old.key][14] == new.key and rows[new.key][14] is None


def test_a_run_with_tasks_gets_them_batch_by_batch(tmp_path: Path) -> None:
    with Store.open(tmp_path / "run") as store:
        store.put_tasks([_task(0)])
        assert store.load_tasks(lambda: _batches([_task(0), _task(1)])) == 1
    assert [r[1] for r in _rows(tmp_path / "run")] == ["0", "1"]


LOADER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    sys.path[:0] = [{tests!r}]
    from forgebench.run.store import Store
    from run.test_task_load import _task

    def batches():
        for b in range(1000):
            yield [_task(b * 10 + i, m) for i in range(10) for m in ("a", "b")]
            if b == 3:
                Path({marker!r}).write_text("loading")
                time.sleep(60)

    with Store.open(Path({run!r})) as store:
        store.load_tasks(batches)
    """
)


def test_sigkill_mid_load_leaves_a_run_without_tasks_that_loads_again(tmp_path: Path) -> None:
    run, marker = tmp_path / "run", tmp_path / "marker"
    code = LOADER.format(tests=str(Path(__file__).parents[1]), marker=str(marker), run=str(run))
    proc = subprocess.Popen([sys.executable, "-c", code], env=dict(os.environ))
    deadline = time.monotonic() + 60
    while not marker.exists():
        assert proc.poll() is None, "the loader ended before it was killed"
        assert time.monotonic() < deadline
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    with sqlite3.connect(run / "run.sqlite") as con:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert _rows(run) == [] and _indexes(run) == set(TASK_INDEXES)
    tasks = [_task(i, m) for i in range(40) for m in ("a", "b")]
    with Store.open(run) as store:
        assert store.load_tasks(lambda: _batches(tasks)) == 80
    assert [r[0] for r in _rows(run)] == [t.key for t in tasks]


SPILLING_LOADER = textwrap.dedent(
    """
    import os, sys, time
    from pathlib import Path
    sys.path[:0] = [{tests!r}]
    from forgebench.run.store import Store
    from run.test_task_load import _task

    def batches():
        for b in range(1000):
            yield [_task(b * 100 + i, m, prompt="p" * 400) for i in range(100) for m in "ab"]
            if b == 30:
                Path({marker!r}).write_text(str(os.path.getsize({db!r})))
                time.sleep(60)

    with Store.open(Path({run!r})) as store:
        store.connection.execute("PRAGMA cache_size=20")  # pages go to the file before commit
        store.load_tasks(batches)
    """
)


def test_sigkill_after_pages_reached_the_file_rolls_the_load_back(tmp_path: Path) -> None:
    """The load writes through a rollback journal: killed once its pages are in the file, the
    store is rolled back to no tasks when next opened, and loads again."""
    run, marker = tmp_path / "run", tmp_path / "marker"
    with Store.open(run):
        pass
    before = (run / "run.sqlite").stat().st_size
    code = SPILLING_LOADER.format(
        tests=str(Path(__file__).parents[1]), marker=str(marker), run=str(run),
        db=str(run / "run.sqlite"),
    )  # fmt: skip
    proc = subprocess.Popen([sys.executable, "-c", code], env=dict(os.environ))
    deadline = time.monotonic() + 60
    while not marker.exists() or not marker.read_text():
        assert proc.poll() is None, "the loader ended before it was killed"
        assert time.monotonic() < deadline
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    assert int(marker.read_text()) > before + 1_000_000  # 6,200 tasks' pages were in the file
    assert (run / "run.sqlite-journal").is_file()  # a hot journal, not a write-ahead log
    with Store.open(run) as store:
        assert store.connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert store.connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert _rows(run) == [] and _indexes(run) == set(TASK_INDEXES)
    assert not (run / "run.sqlite-journal").exists()
    tasks = [_task(i, m) for i in range(40) for m in ("a", "b")]
    with Store.open(run) as store:
        assert store.load_tasks(lambda: _batches(tasks)) == 80
    assert [r[0] for r in _rows(run)] == [t.key for t in tasks]


V5_TASKS = """CREATE TABLE tasks (
    key TEXT PRIMARY KEY, item_id TEXT NOT NULL, probe TEXT NOT NULL, condition TEXT NOT NULL,
    model TEXT NOT NULL, prompt TEXT NOT NULL, prompt_version TEXT NOT NULL, variant_id TEXT,
    params TEXT NOT NULL, extra TEXT NOT NULL DEFAULT '{}', created_at REAL NOT NULL,
    superseded_by TEXT, image_path TEXT, media_type TEXT,
    benchmark TEXT NOT NULL DEFAULT 'mandela', images TEXT)"""


def test_a_schema_5_store_moves_its_key_to_the_index(tmp_path: Path) -> None:
    """Rows, rowids and answers stay; the answered task is not pending; the key stays unique
    and foreign keys are enforced again after the migration."""
    run = tmp_path / "run"
    tasks = [_task(i) for i in range(6)]
    with Store.open(run) as store:
        store.put_tasks(tasks)
    with sqlite3.connect(run / "run.sqlite", isolation_level=None) as con:  # as schema 5 made it
        con.execute("BEGIN")  # foreign keys off: the table rebuild SQLite documents
        con.execute(V5_TASKS.replace("TABLE tasks", "TABLE tasks_v5"))
        con.execute("INSERT INTO tasks_v5(rowid, key, item_id, probe, condition, model, prompt, "
                    "prompt_version, variant_id, params, extra, created_at, superseded_by, "
                    "image_path, media_type, benchmark, images) SELECT rowid * 3, key, item_id, "
                    "probe, condition, model, prompt, prompt_version, variant_id, params, extra, "
                    "created_at, superseded_by, image_path, media_type, benchmark, images "
                    "FROM tasks")  # fmt: skip
        con.execute("DROP TABLE tasks")
        con.execute("ALTER TABLE tasks_v5 RENAME TO tasks")
        con.execute(
            "INSERT INTO answers(task_key, text, raw, attempts, request, created_at) "
            "VALUES(?, 'A', '{}', 1, '{}', 0)",
            (tasks[2].key,),
        )
        con.execute("UPDATE meta SET value='5' WHERE key='schema_version'")
        con.execute("COMMIT")
        before = con.execute(f"SELECT rowid, {COLUMNS} FROM tasks ORDER BY rowid").fetchall()
    with Store.open(run) as store:
        assert store.meta_get("schema_version") == SCHEMA_VERSION
        con = store.connection
        assert (
            con.execute(f"SELECT rowid, {COLUMNS} FROM tasks ORDER BY rowid").fetchall() == before
        )
        assert con.execute("PRAGMA foreign_keys").fetchone() == (1,)
        assert con.execute("PRAGMA foreign_key_check").fetchall() == []
        assert tasks[2].key not in store.pending("m") and len(store.pending("m")) == 5
        assert store.put_tasks(tasks) == 0
        with pytest.raises(sqlite3.IntegrityError):  # an answer needs its task
            store.connection.execute(
                "INSERT INTO answers(task_key, text, raw, attempts, request, created_at) "
                "VALUES('nope', 'A', '{}', 1, '{}', 0)"
            )
    assert _indexes(run) == set(TASK_INDEXES)
