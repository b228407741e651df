"""``replay/FILE``: answers imported from JSONL/CSV, looked up by task key or (item, probe, condition)."""

from __future__ import annotations

import asyncio
import csv
import json
from pathlib import Path
from typing import Any

import pytest

from forgebench.models import replay
from forgebench.models.base import ModelError, Request, Response
from forgebench.models.spec import ModelConfig, SpecError


def write_jsonl(path: Path, rows: list[Any]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def model_for(path: Path, alias: str | None = None) -> replay.ReplayModel:
    spec = f"{alias + '=' if alias else ''}replay/{path}"
    m = replay.create(ModelConfig(spec=spec))
    assert isinstance(m, replay.ReplayModel)
    return m


def ask(model: replay.ReplayModel, **meta: Any) -> Response:
    return asyncio.run(model.generate(Request(prompt="ignored", meta=meta)))


def test_jsonl_lookup_by_task_key_first_then_triple(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "answers.jsonl",
        [
            {"task_key": "k-1", "text": "FAKE by key", "finish_reason": "stop", "output_tokens": 3},
            {"item_id": "m001", "probe": "L0", "condition": "full", "text": "REAL by triple"},
            {"item_id": "m002", "probe": "L1", "condition": "crop", "text": "", "extra": 1},
        ],
    )
    model = model_for(path)
    assert model.name == f"replay/{path}"
    assert len(model) == 3
    by_key = ask(model, task_key="k-1", item_id="m001", probe="L0", condition="full")
    assert by_key.text == "FAKE by key"
    assert by_key.finish_reason == "stop"
    assert by_key.usage.output_tokens == 3
    assert by_key.raw["line"] == 1
    by_triple = ask(model, task_key="unknown", item_id="m001", probe="L0", condition="full")
    assert by_triple.text == "REAL by triple"
    assert by_triple.raw["line"] == 2
    empty = ask(model, item_id="m002", probe="L1", condition="crop")
    assert empty.text == ""  # an empty answer is an answer


def test_missing_answer_is_a_non_retryable_error(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "a.jsonl", [{"item_id": "m001", "probe": "L0", "condition": "full", "text": "x"}]
    )
    with pytest.raises(ModelError) as err:
        ask(model_for(path), task_key="zz", item_id="m001", probe="L1", condition="full")
    assert not err.value.retryable
    assert err.value.task_only  # stored as this task's error; the replay goes on
    assert str(err.value) == f"replay {path} has no answer for item m001 probe L1 condition full"


def test_replay_with_gaps_answers_what_it_has_and_errs_the_rest(tmp_path: Path) -> None:
    from forgebench.run.send.runner import Call, CallOutcome, ExecSettings, execute

    rows = [
        {"item_id": f"m{i}", "probe": "L0", "condition": "full", "text": f"REAL {i}"}
        for i in range(6)
        if i != 2
    ]
    model = model_for(write_jsonl(tmp_path / "a.jsonl", rows))
    calls = [
        Call(
            f"k{i}",
            Request(prompt="p", meta={"item_id": f"m{i}", "probe": "L0", "condition": "full"}),
        )
        for i in range(6)
    ]
    outcomes: list[CallOutcome] = []
    stats = asyncio.run(
        execute(
            model,
            calls,
            ExecSettings(max_attempts=3, timeout_s=5),
            on_outcome=outcomes.append,
        )
    )
    assert stats.fatal is None and stats.answered == 5
    (err,) = [o for o in outcomes if o.response is None]
    assert err.key == "k2" and err.attempts == 1 and "no answer for item m2" in (err.error or "")


def test_csv_with_tokens_and_blank_cells(tmp_path: Path) -> None:
    path = tmp_path / "answers.csv"
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["item_id", "probe", "condition", "text", "input_tokens", "output_tokens"])
        w.writerow(["m001", "L0", "full", "FAKE, because\nthe logo is mirrored", "120", ""])
        w.writerow(["m002", "L0", "full", "REAL", "", "5"])
    model = model_for(path)
    first = ask(model, item_id="m001", probe="L0", condition="full")
    assert first.text == "FAKE, because\nthe logo is mirrored"
    assert (first.usage.input_tokens, first.usage.output_tokens) == (120, None)
    second = ask(model, item_id="m002", probe="L0", condition="full")
    assert (second.text, second.usage.output_tokens) == ("REAL", 5)
    assert second.raw["line"] == 4  # the quoted newline makes the first record two lines


def test_rows_of_several_models_are_chosen_by_name(tmp_path: Path) -> None:
    rows = [
        {"model": "gpt", "item_id": "m1", "probe": "L0", "condition": "full", "text": "gpt says"},
        {"model": "qwen", "item_id": "m1", "probe": "L0", "condition": "full", "text": "qwen says"},
    ]
    path = write_jsonl(tmp_path / "multi.jsonl", rows)
    assert ask(model_for(path, "qwen"), item_id="m1", probe="L0", condition="full").text == (
        "qwen says"
    )
    with pytest.raises(SpecError, match=r"several models \(gpt, qwen\)"):
        model_for(path)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"task_key": "a", "text": "x"}\n{"task_key": "b", text: 1}\n', "line 2: bad JSON"),
        ('{"task_key": "a"}\n', "line 1: no 'text'"),
        ('["a", "b"]\n', "line 1: expected a JSON object"),
        (
            '{"text": "x", "probe": "L0"}\n',
            "line 1: needs task_key or item_id, probe and condition",
        ),
        ('{"task_key": "a", "text": "x", "input_tokens": "many"}\n', "line 1: bad 'input_tokens'"),
        (
            '{"task_key": "a", "text": "x"}\n\n{"task_key": "a", "text": "y"}\n',
            "line 3: second answer for task_key a (first on line 1)",
        ),
    ],
)
def test_bad_jsonl_fails_at_create_naming_the_line(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(SpecError) as err:
        model_for(path)
    assert str(err.value).startswith(f"replay {path} {message}")
    assert "\n" not in str(err.value)


def test_bad_csv_and_missing_files(tmp_path: Path) -> None:
    no_text = tmp_path / "no_text.csv"
    no_text.write_text("item_id,probe,condition,answer\nm1,L0,full,REAL\n", encoding="utf-8")
    with pytest.raises(SpecError, match="no 'text' column"):
        model_for(no_text)
    dup = tmp_path / "dup.csv"
    dup.write_text("item_id,probe,condition,text\nm1,L0,full,A\nm1,L0,full,B\n", encoding="utf-8")
    with pytest.raises(
        SpecError, match=r"line 3: second answer for item m1 probe L0 condition full"
    ):
        model_for(dup)
    with pytest.raises(SpecError, match="file not found"):
        model_for(tmp_path / "nope.jsonl")
    with pytest.raises(SpecError, match=r"unknown format '\.txt'"):
        model_for(tmp_path / "answers.txt")
