"""Offline batch recipes: ``export-batch --max-lines`` shards, run the way vLLM's ``run_batch`` runs
them (tests/support/run_batch_consumer.py, against a loopback server) and through Ray Data's
LLM processor, then ``import-batch``: the answers equal those of a live run."""

from __future__ import annotations

import json
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from forgebench.cli import app
from support.modules import file_module

FLAGS = ["--probes", "L0,L1", "--conditions", "full", "--retry-base-delay", "0.01"]


def _consumer() -> Any:
    path = Path(__file__).parents[1] / "support" / "run_batch_consumer.py"
    return file_module("forgebench_tests_run_batch_consumer", path)


def _ok(args: list[str]) -> Any:
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.stderr + res.stdout
    return res


def _run(ds: Path, run_dir: Path, spec: str, *extra: str) -> Any:
    return CliRunner().invoke(
        app,
        ["run", str(ds), "--model", spec, "--out", str(run_dir),
         "--cache-dir", str(run_dir.parent / "cache"), *FLAGS, *extra],
    )  # fmt: skip


def _answers(run_dir: Path) -> dict[str, str]:
    with sqlite3.connect(run_dir / "run.sqlite") as con:
        return dict(con.execute("SELECT task_key, text FROM answers"))


def _errors(run_dir: Path) -> dict[str, str]:
    with sqlite3.connect(run_dir / "run.sqlite") as con:
        return dict(con.execute("SELECT task_key, reason FROM errors"))


def _export(run_dir: Path, first: Path, max_lines: int) -> list[Path]:
    _ok(["export-batch", str(run_dir), str(first), "--model", "m", "--max-lines", str(max_lines)])
    return [first, *sorted(first.parent.glob(f"{first.stem}.part*{first.suffix}"))]


def test_run_batch_shards_round_trip_to_the_answers_of_a_live_run(
    fake_openai: Any, make_dataset: Callable[[int], Path], tmp_path: Path
) -> None:
    server = fake_openai()
    spec = f"m=openai/fake@{server.url}"
    ds, run_dir, live = make_dataset(4), tmp_path / "RUN", tmp_path / "LIVE"
    assert _run(ds, live, spec).exit_code == 0
    assert _run(ds, run_dir, spec, "--prepare").exit_code == 0
    shards = _export(run_dir, tmp_path / "batch.jsonl", 5)
    sizes = [len(p.read_text().splitlines()) for p in shards]
    assert sizes == [5, 5, 5, 1]
    server.script.append("500")  # the engine fails one request
    outs = []
    for shard in shards:
        out = shard.with_name(shard.stem + ".out.jsonl")
        assert _consumer().run_batch(shard, out, server.url, ["fake"]) == len(
            shard.read_text().splitlines()
        )
        outs.append(out)
    res = _ok(["import-batch", str(run_dir), *map(str, outs)])
    assert "stored 15 answers and 1 errors; 0 already answered, 0 unknown" in res.stdout
    answers, live_answers = _answers(run_dir), _answers(live)
    assert all(live_answers[k] == v for k, v in answers.items())
    (reason,) = _errors(run_dir).values()
    assert reason.startswith("batch: 500: internal server error")
    again = _ok(["import-batch", str(run_dir), *map(str, outs)])
    assert "stored 0 answers and 1 errors; 15 already answered" in again.stdout
    assert len(_answers(run_dir)) == 15  # importing again changed nothing
    # the errored task is exported again with --retry-errors, and the round trip completes
    shards2 = _ok(["export-batch", str(run_dir), str(tmp_path / "r.jsonl"), "--model", "m",
                   "--retry-errors"])  # fmt: skip
    assert "wrote 1 requests" in shards2.stdout
    _consumer().run_batch(tmp_path / "r.jsonl", tmp_path / "r.out.jsonl", server.url, ["fake"])
    _ok(["import-batch", str(run_dir), str(tmp_path / "r.out.jsonl")])
    assert _answers(run_dir) == live_answers and not _errors(run_dir)


def test_run_batch_with_another_served_name_stores_errors_not_answers(
    fake_openai: Any, make_dataset: Callable[[int], Path], tmp_path: Path
) -> None:
    server = fake_openai()
    ds, run_dir = make_dataset(1), tmp_path / "RUN"
    assert _run(ds, run_dir, f"m=openai/fake@{server.url}", "--prepare").exit_code == 0
    (shard,) = _export(run_dir, tmp_path / "b.jsonl", 100)
    out = tmp_path / "b.out.jsonl"
    _consumer().run_batch(shard, out, server.url, ["Qwen/Qwen3-VL-8B-Instruct"])
    first = json.loads(out.read_text().splitlines()[0])
    assert first["response"]["status_code"] == 404 and first["response"]["body"] is None
    res = _ok(["import-batch", str(run_dir), str(out)])
    assert "stored 0 answers and 4 errors" in res.stdout and server.hits == 0
    assert all("404: The model `fake` does not exist" in r for r in _errors(run_dir).values())


def test_bad_batch_flags_are_one_line_errors(tmp_path: Path) -> None:
    res = CliRunner().invoke(
        app, ["export-batch", str(tmp_path), str(tmp_path / "b.jsonl"), "--model", "m",
              "--max-lines", "0"],
    )  # fmt: skip
    assert res.exit_code == 2 and "--max-lines" in res.stderr
    shard = tmp_path / "b.jsonl"
    res = CliRunner().invoke(app, ["ray-batch", str(shard), "--url", "http://h/v1", "--out", "o"])
    assert res.exit_code == 2 and res.stderr.strip() == f"error: {shard}: no such file"
    shard.write_text("")
    res = CliRunner().invoke(app, ["ray-batch", str(shard), "--url", "h:8000", "--out", "o"])
    assert res.exit_code == 2 and "does not start with http://" in res.stderr


@pytest.mark.slow
def test_ray_data_llm_processor_round_trip(
    local_ray: Any, fake_openai: Any, make_dataset: Callable[[int], Path], tmp_path: Path
) -> None:
    pytest.importorskip("ray.data.llm")
    server = fake_openai()
    spec = f"m=openai/fake@{server.url}"
    ds, run_dir, live = make_dataset(3), tmp_path / "RUN", tmp_path / "LIVE"
    assert _run(ds, live, spec).exit_code == 0
    assert _run(ds, run_dir, spec, "--prepare").exit_code == 0
    shards = _export(run_dir, tmp_path / "batch.jsonl", 5)
    exported = {
        json.loads(line)["custom_id"]: json.loads(line)["body"]
        for p in shards
        for line in p.read_text().splitlines()
    }
    hits = server.hits
    out = tmp_path / "ray.out.jsonl"
    res = _ok(["ray-batch", *map(str, shards), "--url", f"{server.url}/chat/completions",
               "--out", str(out), "--batch-size", "4"])  # fmt: skip
    assert "wrote 12 results" in res.stdout and server.hits == hits + 12
    sent = server.requests[-12:]
    assert all("null" not in json.dumps(body) for body in sent)  # Arrow's nulls were dropped
    redacted = {json.dumps(b, sort_keys=True) for b in sent}
    module = sys.modules["forgebench_tests_fake_openai"]
    assert redacted == {json.dumps(module._redact(b), sort_keys=True) for b in exported.values()}
    res = _ok(["import-batch", str(run_dir), str(out)])
    assert "stored 12 answers and 0 errors" in res.stdout
    assert _answers(run_dir) == _answers(live)


@pytest.mark.parametrize(
    "error",
    [
        {"error": {"message": "The model `x` does not exist.", "type": "NotFoundError",
                   "param": None, "code": 404}},  # vLLM >= 0.8 ErrorResponse
        {"object": "error", "message": "The model `x` does not exist.", "type": "NotFoundError",
         "param": None, "code": 404},  # older vLLM ErrorResponse
    ],
)  # fmt: skip
def test_both_vllm_error_response_shapes_are_read(error: dict[str, Any]) -> None:
    from forgebench.run.batch import _outcome

    line = {"id": "vllm-1", "custom_id": "k", "error": error,
            "response": {"status_code": 404, "request_id": "r", "body": None}}  # fmt: skip
    response, reason, status = _outcome(line)
    assert response is None and status == 404
    assert reason == "batch: 404: The model `x` does not exist."
