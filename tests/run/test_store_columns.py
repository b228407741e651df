"""The column-wise task read (``Store.task_columns``) holds exactly what the row-wise read
(``Store.records``) holds: the same current tasks in the same order, answers, errors, verdicts,
judgements and their flags, every REAL to the last bit, text with any character."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forgebench.models.base import ImageRef, Response, Usage
from forgebench.run.store import Judgement, Store
from forgebench.run.store.columns import JudgedColumns
from forgebench.run.tasks import Question, make_task

JUDGE = "judge/x"
TEXTS = [
    'FAKE. A "quoted" line\nand a second line\twith a tab, \\ a backslash',
    "REAL — ünïcødé, emoji 🎭, a NUL-free control \x01 character",
    '{"looks": "like json"}',
]


def _task(item: str, probe: str, benchmark: str = "mandela", prompt: str = "p", **extra):  # type: ignore[no-untyped-def]
    q = Question(item, probe, "full", prompt, "v1", None, extra, benchmark)
    return make_task(q, "m", {"temperature": 0})


def _fill(store: Store) -> list[str]:
    """Answered, errored, pending, superseded and other-benchmark tasks with verdicts and
    judgements; returns the current Mandela keys in stored order."""
    tasks = [_task(f"i{n}", "L1", name_source="caption" if n % 2 else None) for n in range(7)]
    old = _task("i9", "L0", prompt="typo")
    store.put_tasks([*tasks, old, _task("i0", "MCQ", "forensics")])
    fixed = _task("i9", "L0", prompt="fixed")
    store.put_tasks([fixed])  # supersedes ``old``
    latencies = [0.1 + 0.2, 1 / 3, 2.0**-30, 12345.678901234567]
    for n, t in enumerate(tasks[:4]):
        text = TEXTS[n % len(TEXTS)]
        usage = Usage(100 + n, None if n == 1 else 7)
        store.put_answer(t.key, Response(text, {}, usage, "stop"), 1, latencies[n], {})
    store.put_answer(old.key, Response("REAL", {}, Usage(1, 1), "stop"), 1, 0.5, {})
    store.put_error(tasks[4].key, "HTTP 500", 500, 3)
    store.put_verdicts(
        [(tasks[0].key, "FAKE", {"why": "x"}, "p1"), (tasks[1].key, "REAL", {}, "p0")]
    )
    grades = [
        Judgement(tasks[0].key, JUDGE, "evidence", "graded", "r1", JUDGE, "E3", 3, "ok"),
        Judgement(tasks[1].key, JUDGE, "evidence", "unscored", "r1", JUDGE),
        Judgement(tasks[0].key, JUDGE, "uptake", "graded", "u1", JUDGE, "adopt", None, None,
                  {"uptake": True, "dispute": False}),
        Judgement(tasks[2].key, JUDGE, "uptake", "graded", "u1", JUDGE, None, None, None,
                  {"dispute": True}),
        Judgement(tasks[3].key, "judge/other", "evidence", "graded", "r1", "o", "E4", 4),
    ]  # fmt: skip
    store.put_judgements(grades)
    return [t.key for t in [*tasks, fixed]]


@pytest.mark.parametrize("page", [2, 50000])
def test_columns_hold_what_the_records_hold(tmp_path: Path, page: int) -> None:
    with Store.open(tmp_path / "RUN") as store:
        keys = _fill(store)
        pairs = [(JUDGE, "evidence"), (JUDGE, "uptake")]
        specs = [JudgedColumns(*pair, flags=("uptake", "dispute")) for pair in pairs]
        table = store.task_columns("mandela", extra=["name_source"], judged=specs, page=page)
        cols = table.to_pydict()
        records = list(store.records("mandela", judged=pairs))
    assert cols["key"] == [r.key for r in records] == keys
    for name in (
        "item_id",
        "model",
        "probe",
        "condition",
        "text",
        "finish_reason",
        "input_tokens",
        "output_tokens",
        "latency_s",
        "verdict",
        "parser_version",
    ):
        assert cols[name] == [getattr(r, name) for r in records], name  # fmt: skip
    assert cols["verdict_json"] == [r.verdict_json for r in records]
    assert cols["answered"] == [int(r.text is not None) for r in records]
    assert cols["errored"] == [int(r.error is not None) for r in records] == [0] * 4 + [1, 0, 0, 0]
    assert cols["extra.name_source"] == [r.extra.get("name_source") for r in records]
    for n in range(2):
        got = [r.judged[n] for r in records]
        for field in ("value", "level", "status", "reason"):
            assert cols[f"j{n}.{field}"] == [None if g is None else getattr(g, field) for g in got]
    assert cols["j0.level"][:2] == [3, None] and cols["j0.status"][:4] == [
        "graded",
        "unscored",
        None,
        None,
    ]
    assert cols["j1.uptake"][:4] == [1, None, None, None]
    assert cols["j1.dispute"][:4] == [0, None, 1, None]
    assert cols["latency_s"][:4] == [0.1 + 0.2, 1 / 3, 2.0**-30, 12345.678901234567]  # exact
    assert cols["text"][:3] == TEXTS


def test_an_empty_or_foreign_benchmark_gives_empty_typed_columns(tmp_path: Path) -> None:
    with Store.open(tmp_path / "RUN") as store:
        empty = store.task_columns(
            "mandela", judged=[JudgedColumns(JUDGE, "evidence", ("level",), ("uptake",))]
        )
        _fill(store)
        none = store.task_columns("pixar")
        everything = store.task_columns()
    assert empty.num_rows == 0 == none.num_rows
    assert (
        "j0.uptake" in empty.column_names and str(empty.schema.field("latency_s").type) == "double"
    )
    assert everything.num_rows == 9  # 8 current Mandela tasks and the Forensics one


def test_an_unreadable_judgement_detail_reads_as_no_flag(tmp_path: Path) -> None:
    with Store.open(tmp_path / "RUN") as store:
        keys = _fill(store)
        store.connection.execute(
            "UPDATE judgements SET detail = 'not json' WHERE task_key = ? AND kind = 'uptake'",
            (keys[0],),
        )
        table = store.task_columns(
            "mandela", judged=[JudgedColumns(JUDGE, "uptake", flags=("uptake",))]
        )
        assert table.column("j0.uptake").to_pylist()[0] is None
        assert table.column("j0.value").to_pylist()[0] == "adopt"


def test_a_field_name_that_is_not_a_name_is_refused(tmp_path: Path) -> None:
    with Store.open(tmp_path / "RUN") as store:
        with pytest.raises(ValueError, match="field name"):
            store.task_columns("mandela", extra=["a') OR 1=1 --"])
        with pytest.raises(ValueError, match="judgement column"):
            store.task_columns("mandela", judged=[JudgedColumns(JUDGE, "x", ("raw",))])


def test_reading_inside_an_open_transaction_joins_it(tmp_path: Path) -> None:
    with Store.open(tmp_path / "RUN") as store:
        keys = _fill(store)
        with store._tx():
            table = store.task_columns("mandela")
            assert store.connection.in_transaction
        assert table.column("key").to_pylist() == keys
        assert json.loads(table.column("verdict_json").to_pylist()[0]) == {"why": "x"}


def test_asked_columns_hold_the_benchmark_error_and_images_the_records_hold(tmp_path: Path) -> None:
    one = ImageRef("v1", Path("/data/a.png"), "image/png")
    frames = (
        ImageRef("v2", Path("/cache/v2.png"), "image/png"),
        ImageRef("v3", Path("/data/b.jpg"), "image/jpeg"),
    )
    tasks = [
        make_task(Question("i1", "MCQ", "full", "p", "v1", one, {}, "forensics"), "m"),
        make_task(Question("i2", "MCQ", "full", "p", "v1", None, {}, "forensics", frames), "m"),
        make_task(Question("i3", "L0", "full", "p", "v1", None, {}, "mandela"), "m"),
    ]
    asked = ("benchmark", "error", "variant_id", "image_path", "media_type", "images_json")
    with Store.open(tmp_path / "RUN") as store:
        store.put_tasks(tasks)
        store.put_error(tasks[0].key, "HTTP 429: slow down", 429, 2)
        store.put_answer(tasks[1].key, Response("B", {}, Usage(1, 1), "stop"), 1, 0.1, {})
        cols = store.task_columns(columns=asked).to_pydict()
        records = list(store.records())
        with pytest.raises(ValueError, match="task column"):
            store.task_columns(columns=["prompt"])
    assert cols["benchmark"] == [r.benchmark for r in records] == ["forensics"] * 2 + ["mandela"]
    assert cols["error"] == [r.error for r in records] == ["HTTP 429: slow down", None, None]
    for name in ("variant_id", "image_path", "media_type", "images_json"):
        assert cols[name] == [getattr(r, name) for r in records], name
    assert records[1].images == frames and records[0].images == (one,) and not records[2].images


def test_records_of_some_items_and_models_are_found_through_the_index(tmp_path: Path) -> None:
    with Store.open(tmp_path / "RUN") as store:
        keys = _fill(store)
        store.put_tasks(
            [make_task(Question("i2", "L1", "full", "p", "v1", None, {}, "mandela"), "x")]
        )
        everything = list(store.records("mandela"))
        sql: list[str] = []
        store.connection.set_trace_callback(sql.append)
        some = list(store.records("mandela", items=["i2", "i5", "i9"], models=["m"], page=1))
        store.connection.set_trace_callback(None)
        plan = " ".join(
            str(row[-1]) for row in store.connection.execute("EXPLAIN QUERY PLAN " + sql[0])
        )
    want = [r for r in everything if r.item_id in ("i2", "i5", "i9") and r.model == "m"]
    assert len(want) == 3 and "x" in {r.model for r in everything}
    assert some == want  # the same rows, in stored order, paged one at a time
    assert [r.item_id for r in some] == ["i2", "i5", "i9"] and keys[-1] == some[-1].key
    assert "tasks_identity" in plan and "SCAN t" not in plan
