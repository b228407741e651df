"""The run store: one answer per key ever, errors that answers replace, resume queries."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from forgebench.models.base import ImageRef, Response, Usage
from forgebench.run.store import Store, StoreError
from forgebench.run.store.schema import SCHEMA_VERSION
from forgebench.run.tasks import Question, make_task


def _tasks(model: str = "m", n: int = 3, tmp: Path | None = None) -> list:
    out = []
    for i in range(n):
        image = ImageRef(f"var{i}", (tmp or Path("/x")) / f"{i}.png", "image/png")
        q = Question(f"item{i}", "L0", "full", f"prompt {i}", "L0/v3", image, {"k": i}, "mandela")
        out.append(make_task(q, model, {"temperature": 0}))
    return out


def _resp(text: str = "REAL") -> Response:
    return Response(text=text, raw={"id": "x"}, usage=Usage(10, 2), finish_reason="stop")


def test_open_creates_wal_store_with_schema(tmp_path: Path) -> None:
    with Store.open(tmp_path / "RUN") as store:
        mode = store.connection.execute("PRAGMA journal_mode").fetchone()[0]
        assert mode == "wal"
        tables = {r[0] for r in store.connection.execute("SELECT name FROM sqlite_master")}
        assert {
            "meta",
            "items",
            "tasks",
            "answers",
            "errors",
            "verdicts",
            "grades",
            "judgements",
            "outputs",
            "construct_steps",
        } <= tables
        assert store.meta_get("schema_version") == SCHEMA_VERSION == 10


def test_open_without_create_refuses_a_non_run_dir(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="not a run directory"):
        Store.open(tmp_path / "nothing", create=False)
    assert not (tmp_path / "nothing").exists()


def test_put_tasks_is_idempotent_and_keeps_image_location(tmp_path: Path) -> None:
    tasks = _tasks(tmp=tmp_path)
    with Store.open(tmp_path / "RUN") as store:
        assert store.put_tasks(tasks) == 3
        assert store.put_tasks(tasks) == 0
        row = store.task_row(tasks[1].key)
        assert row is not None
        assert row["variant_id"] == "var1" and row["image_path"] == str(tmp_path / "1.png")
        assert row["extra"] == '{"k":1}'


def test_a_key_never_gets_a_second_answer(tmp_path: Path) -> None:
    t = _tasks(n=1)[0]
    with Store.open(tmp_path / "RUN") as store:
        store.put_tasks([t])
        assert store.put_answer(t.key, _resp("first"), 1, 0.1, {"model": "m"})
        assert not store.put_answer(t.key, _resp("second"), 2, 0.2, {"model": "m"})
        rows = store.connection.execute("SELECT text FROM answers").fetchall()
        assert rows == [("first",)]
        with pytest.raises(sqlite3.IntegrityError):
            store.connection.execute(
                "INSERT INTO answers(task_key, text, raw, attempts, request, created_at) "
                "VALUES(?, 'x', '{}', 1, '{}', 0)",
                (t.key,),
            )


def test_answer_replaces_error_and_error_never_touches_answer(tmp_path: Path) -> None:
    a, b = _tasks(n=2)
    with Store.open(tmp_path / "RUN") as store:
        store.put_tasks([a, b])
        store.put_error(a.key, "HTTP 500: boom", 500, 6)
        assert store.pending("m") == [b.key]
        assert store.pending("m", retry_errors=True) == [a.key, b.key]
        store.put_answer(a.key, _resp(), 2, 0.1, {})
        assert store.connection.execute("SELECT COUNT(*) FROM errors").fetchone()[0] == 0
        assert not store.put_error(a.key, "late failure", None, 1)
        assert store.connection.execute("SELECT COUNT(*) FROM errors").fetchone()[0] == 0
        assert store.pending("m", retry_errors=True) == [b.key]


def test_pending_is_per_model_and_narrowed_to_this_runs_keys(tmp_path: Path) -> None:
    mine, other = _tasks("m"), _tasks("other")
    with Store.open(tmp_path / "RUN") as store:
        store.put_tasks(mine + other)
        assert store.pending("m") == [t.key for t in mine]
        assert store.pending("m", among={mine[2].key}) == [mine[2].key]
        assert store.models() == ["m", "other"]


def test_answers_survive_reopen_and_counts_report_them(tmp_path: Path) -> None:
    tasks = _tasks(n=3)
    with Store.open(tmp_path / "RUN") as store:
        store.put_tasks(tasks)
        store.put_answer(tasks[0].key, _resp(), 1, 0.1, {})
        store.put_error(tasks[1].key, "timeout", None, 6)
        store.meta_set("note", {"a": [1, 2]})
    with Store.open(tmp_path / "RUN", create=False) as store:
        (row,) = store.counts()
        assert (row.model, row.probe, row.condition) == ("m", "L0", "full")
        assert (row.done, row.errors, row.pending, row.total) == (1, 1, 1, 3)
        (tok,) = store.token_totals()
        assert (tok.answers, tok.input_tokens, tok.output_tokens) == (1, 10, 2)
        assert store.meta_get("note") == {"a": [1, 2]}
        assert store.meta_get("missing", 7) == 7


def test_items_upsert_keeps_latest_data(tmp_path: Path) -> None:
    from forgebench.suites.mandela.contract import Item

    base = {
        "id": "a",
        "seed_id": "s",
        "image": "a.png",
        "label": "authentic",
        "domain": "A1",
        "noun": "photograph",
        "event": {"label": "Old label", "date": "1900"},
    }
    with Store.open(tmp_path / "RUN") as store:
        store.put_items("mandela", [Item.model_validate(base)])
        store.put_items(
            "mandela", [Item.model_validate({**base, "event": {"label": "Fixed", "date": "1900"}})]
        )
        (data,) = store.connection.execute("SELECT data FROM items").fetchone()
        assert '"Fixed"' in data and "Old label" not in data


def test_a_changed_question_supersedes_the_old_task_and_a_revert_reuses_its_answer(
    tmp_path: Path,
) -> None:
    def task(prompt: str, extra: dict | None = None):  # type: ignore[no-untyped-def]
        q = Question("item0", "L1", "full_caption", prompt, "L1/v2", None, extra or {}, "mandela")
        return make_task(q, "m", {"temperature": 0})

    old, new = task("Context: ... of Summt, from 1986."), task("Context: ... of Summit, from 1986.")
    other = task(
        "Context: ... of Summit, from 1986. Again.", {"face": "original"}
    )  # another identity
    with Store.open(tmp_path / "RUN") as store:
        store.put_tasks([old, other])
        store.put_answer(old.key, _resp("FAKE typo"), 1, 0.1, {})
        assert store.put_tasks([new]) == 1  # the typo is fixed: one new task ...
        assert sorted(store.pending("m")) == sorted([new.key, other.key])
        assert old.key not in store.pending("m")  # ... and the old one is not current any more
        rows = dict(store.connection.execute("SELECT key, superseded_by FROM tasks").fetchall())
        assert rows == {old.key: new.key, new.key: None, other.key: None}
        (count,) = [c for c in store.counts() if c.condition == "full_caption"]
        assert (count.total, count.done) == (2, 0)  # the old answer no longer counts

        assert store.put_tasks([old]) == 0  # reverting the fix: the old task is current again
        rows = dict(store.connection.execute("SELECT key, superseded_by FROM tasks").fetchall())
        assert rows == {old.key: None, new.key: old.key, other.key: None}
        assert store.pending("m") == [other.key]  # its stored answer is reused, not re-asked
