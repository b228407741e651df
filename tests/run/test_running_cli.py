"""``forgebench run`` / ``status`` / ``cache clean`` / batch commands, end to end, in process."""

from __future__ import annotations

import json
import sqlite3
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from forgebench.cli import app

FLAGS = ["--probes", "L0,L1", "--conditions", "full", "--retry-base-delay", "0.01"]


def _run(dataset: Path, run_dir: Path, spec: str, *extra: str, cache: Path | None = None) -> Any:
    cache = cache or run_dir.parent / "cache"
    args = ["run", str(dataset), "--model", spec, "--out", str(run_dir), "--cache-dir", str(cache)]
    return CliRunner().invoke(app, [*args, *FLAGS, *extra])


def _answers(run_dir: Path) -> dict[str, str]:
    with sqlite3.connect(run_dir / "run.sqlite") as con:
        return dict(con.execute("SELECT task_key, text FROM answers"))


def _count(run_dir: Path, table: str) -> int:
    with sqlite3.connect(run_dir / "run.sqlite") as con:
        return int(con.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


def _error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("error:")]


def test_faulty_server_one_answer_per_task_then_resume_sends_nothing(
    fake_openai: Any, make_dataset: Callable[[int], Path], tmp_path: Path
) -> None:
    server = fake_openai(latency_ms=2, fault_rate=0.15, seed=5, slow_s=1.0)
    server.script.extend(["429", "500", "drop", "nonjson", "slow", "badschema"])
    ds, run_dir = make_dataset(6), tmp_path / "RUN"
    res = _run(ds, run_dir, f"m=openai/fake@{server.url}", "--timeout", "0.4")
    assert res.exit_code == 0, res.stderr
    answers = _answers(run_dir)
    assert len(answers) == _count(run_dir, "tasks") == 24 and _count(run_dir, "errors") == 0
    assert server.hits > 24  # faults were retried ...
    assert server.outcomes["ok"] + server.outcomes["slow"] >= 24
    with sqlite3.connect(run_dir / "run.sqlite") as con:
        reqs = [json.loads(r[0]) for r in con.execute("SELECT request FROM answers")]
        assert max(r[0] for r in con.execute("SELECT attempts FROM answers")) > 1
    url = reqs[0]["messages"][0]["content"][0]["image_url"]["url"]
    assert url.startswith("variant:") and reqs[0]["model"] == "fake"
    hits = server.hits
    again = _run(ds, run_dir, f"m=openai/fake@{server.url}")
    assert again.exit_code == 0 and server.hits == hits  # nothing re-sent
    assert _answers(run_dir) == answers


def test_api_key_appears_nowhere_under_run(
    fake_openai: Any, make_dataset: Callable[[int], Path], tmp_path: Path, monkeypatch: Any
) -> None:
    key = "sk-proj-SECRETKEY-4242-abcdef"
    monkeypatch.setenv("MY_KEY", key)
    server = fake_openai(fault_rate=0.2, seed=2)
    models = tmp_path / "models.toml"
    models.write_text(
        f'[[models]]\nspec = "m=openai/fake@{server.url}"\napi_key_env = "MY_KEY"\n'
        'extra_body = { api_key = "inline-secret-xyz" }\n',
        encoding="utf-8",
    )
    run_dir = tmp_path / "RUN"
    args = ["run", str(make_dataset(2)), "--models-file", str(models), "--out", str(run_dir)]
    res = CliRunner().invoke(app, [*args, "--cache-dir", str(tmp_path / "c"), *FLAGS])
    assert res.exit_code == 0, res.stderr
    assert set(server.auth_headers) == {f"Bearer {key}"}  # the key was really used
    files = [p for p in run_dir.rglob("*") if p.is_file()]
    assert {"run.sqlite", "config.json"} <= {p.name for p in files}
    for path in files:
        data = path.read_bytes()
        assert key.encode() not in data, path
        assert b"inline-secret-xyz" not in data, path
    assert json.loads((run_dir / "config.json").read_text())["models"][0]["api_key_env"] == "MY_KEY"


def test_unreachable_server_one_line_nonzero_and_answers_kept(
    fake_openai: Any, make_dataset: Callable[[int], Path], tmp_path: Path
) -> None:
    server = fake_openai()
    ds, run_dir = make_dataset(3), tmp_path / "RUN"
    first = _run(ds, run_dir, f"m=openai/fake@{server.url}", "--limit", "1")
    assert first.exit_code == 0 and len(_answers(run_dir)) == 4
    res = _run(ds, run_dir, "m=openai/fake@http://127.0.0.1:1/v1", "--max-attempts", "2")
    assert res.exit_code == 1
    (line,) = _error_lines(res.stderr)
    assert line.startswith("error: model m:") and "cannot connect to http://127.0.0.1:1/v1" in line
    assert len(_answers(run_dir)) == 4


def test_bad_request_is_not_retried_and_names_model_and_reason(
    fake_openai: Any, make_dataset: Callable[[int], Path], tmp_path: Path
) -> None:
    server = fake_openai()
    server.script.append("400")
    run_dir = tmp_path / "RUN"
    res = _run(make_dataset(3), run_dir, f"q=openai/fake@{server.url}", "--concurrency", "1")
    assert res.exit_code == 1 and server.hits == 1
    (line,) = _error_lines(res.stderr)
    assert (
        "model q" in line
        and "HTTP 400: Invalid 'temperature'" in line
        and "11 tasks not sent" in line
    )
    assert _count(run_dir, "answers") == 0 and _count(run_dir, "errors") == 1


def test_errors_are_retried_only_with_retry_errors(
    fake_openai: Any, make_dataset: Callable[[int], Path], tmp_path: Path
) -> None:
    server = fake_openai()
    server.script.extend(["500", "500"])
    ds, run_dir = make_dataset(1), tmp_path / "RUN"
    spec = f"m=openai/fake@{server.url}"
    res = _run(ds, run_dir, spec, "--concurrency", "1", "--max-attempts", "2")
    assert res.exit_code == 1 and "--retry-errors" in res.stderr
    assert len(_answers(run_dir)) == 3 and _count(run_dir, "errors") == 1
    hits = server.hits
    assert _run(ds, run_dir, spec).exit_code == 1 and server.hits == hits
    res = _run(ds, run_dir, spec, "--retry-errors")
    assert res.exit_code == 0 and server.hits == hits + 1
    assert len(_answers(run_dir)) == 4 and _count(run_dir, "errors") == 0


def test_dry_run_shows_a_shortened_request_and_writes_nothing(
    fake_openai: Any, make_dataset: Callable[[int], Path], tmp_path: Path
) -> None:
    server = fake_openai()
    models = tmp_path / "models.toml"
    models.write_text(
        f'[[models]]\nspec = "m=openai/fake@{server.url}"\nprice_in = 2.0\nprice_out = 8.0\n'
    )
    run_dir = tmp_path / "RUN"
    args = ["run", str(make_dataset(2)), "--models-file", str(models), "--out", str(run_dir)]
    res = CliRunner().invoke(app, [*args, "--dry-run", "--cache-dir", str(tmp_path / "c"), *FLAGS])
    assert res.exit_code == 0, res.stderr
    out = res.stdout
    assert "model m: 8 tasks, 8 to send" in out and "input tokens (estimate)" in out
    assert "data:image/png;base64,iVBORw0KGgo" in out and " chars)" in out
    assert "estimated cost: $" in out and '"temperature": 0.0' in out
    assert server.hits == 0 and not run_dir.exists()


def test_max_cost_stops_cleanly_before_spending_more(
    fake_openai: Any, make_dataset: Callable[[int], Path], tmp_path: Path
) -> None:
    server = fake_openai()  # every answer reports 100 input and 12 output tokens
    models = tmp_path / "models.toml"
    models.write_text(
        f'[[models]]\nspec = "m=openai/fake@{server.url}"\nprice_in = 1000.0\nprice_out = 0.0\n'
        "concurrency = 1\n"
    )
    run_dir = tmp_path / "RUN"
    args = ["run", str(make_dataset(5)), "--models-file", str(models), "--out", str(run_dir)]
    res = CliRunner().invoke(
        app, [*args, "--max-cost", "1.0", "--cache-dir", str(tmp_path / "c"), *FLAGS]
    )
    assert res.exit_code == 3, res.stderr
    n = len(_answers(run_dir))
    assert 1 <= n < 20 and n * 0.1 <= 1.0 and server.hits == n
    assert "stopped: --max-cost reached" in res.stderr and f"{20 - n} tasks remain" in res.stderr


def test_max_cost_needs_prices(make_dataset: Callable[[int], Path], tmp_path: Path) -> None:
    res = _run(
        make_dataset(1), tmp_path / "RUN", "openai/x@http://127.0.0.1:1/v1", "--max-cost", "5"
    )
    assert res.exit_code == 2 and "--max-cost needs price_in and price_out" in res.stderr


def test_a_name_reused_with_other_settings_is_refused(
    fake_openai: Any, make_dataset: Callable[[int], Path], tmp_path: Path
) -> None:
    server = fake_openai()
    ds, run_dir = make_dataset(1), tmp_path / "RUN"
    assert _run(ds, run_dir, f"m=openai/fake@{server.url}").exit_code == 0
    res = _run(ds, run_dir, f"m=openai/other-model@{server.url}")
    assert res.exit_code == 2 and "already ran" in res.stderr and "another alias" in res.stderr


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--probes", "L9"], "unknown probe 'L9'"),
        (["--model", "nonsense"], "bad model spec"),
        (["--models-file", "/nonexistent.toml"], "models file not found"),
    ],
)
def test_bad_flags_are_one_line_usage_errors(
    make_dataset: Callable[[int], Path], tmp_path: Path, args: list[str], needle: str
) -> None:
    res = CliRunner().invoke(
        app, ["run", str(make_dataset(1)), "--out", str(tmp_path / "R"), *args]
    )
    assert res.exit_code == 2 and needle in res.stderr
    assert len(_error_lines(res.stderr)) == 1


def test_status_counts_and_tokens(
    fake_openai: Any, make_dataset: Callable[[int], Path], tmp_path: Path
) -> None:
    server = fake_openai()
    server.script.extend(["400"])
    run_dir = tmp_path / "RUN"
    _run(make_dataset(2), run_dir, f"m=openai/fake@{server.url}", "--concurrency", "1")
    _run(make_dataset(2), run_dir, f"m=openai/fake@{server.url}", "--retry-errors")
    res = CliRunner().invoke(app, ["status", str(run_dir)])
    assert res.exit_code == 0
    rows = [line.split() for line in res.stdout.splitlines() if line.strip().startswith("│ m ")]
    assert any(r[3:6] == ["L0", "│", "full"] for r in rows), res.stdout
    assert "800" in res.stdout  # 8 answers x 100 input tokens
    missing = CliRunner().invoke(app, ["status", str(tmp_path / "nope")])
    assert missing.exit_code == 2 and "not a run directory" in missing.stderr


def test_cache_clean_removes_rendered_variants(
    fake_openai: Any, make_dataset: Callable[[int], Path], tmp_path: Path
) -> None:
    server = fake_openai()
    cache = tmp_path / "cache"
    args = [
        str(make_dataset(1)),
        "--model",
        f"m=openai/f@{server.url}",
        "--out",
        str(tmp_path / "R"),
    ]
    res = CliRunner().invoke(app, ["run", *args, "--probes", "L1", "--cache-dir", str(cache)])
    assert res.exit_code == 0, res.stderr
    assert any(p.is_file() for p in cache.rglob("*.png"))  # the mirror variant
    written = sorted(p.name for p in cache.rglob("*") if p.is_file())
    assert written == sorted(
        [".forgebench", "sources.sqlite", *(p.name for p in cache.rglob("*.png"))]
    )
    res = CliRunner().invoke(app, ["cache", "clean", "--cache-dir", str(cache)])
    assert res.exit_code == 0 and "removed 2 files" in res.stdout  # the variant, the index
    assert not any(p.is_file() for p in cache.rglob("*"))


def _process_batch(server: Any, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Send each batch request to the server, as a batch runner would, and collect results."""
    out = []
    for i, line in enumerate(lines):
        if i == 0:
            out.append({"custom_id": line["custom_id"], "response": None,
                        "error": {"code": "batch_expired", "message": "not run"}})  # fmt: skip
            continue
        req = urllib.request.Request(
            server.url + "/chat/completions",
            data=json.dumps(line["body"]).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req) as resp:
            body = json.loads(resp.read())
        out.append({"custom_id": line["custom_id"],
                    "response": {"status_code": 200, "body": body}, "error": None})  # fmt: skip
    out.append({"custom_id": "not-a-task", "response": {"status_code": 200, "body": {}}})
    return out


def test_export_and_import_batch_round_trip(
    fake_openai: Any, make_dataset: Callable[[int], Path], tmp_path: Path
) -> None:
    server = fake_openai()
    ds, run_dir = make_dataset(3), tmp_path / "RUN"
    spec = f"m=openai/fake@{server.url}"
    assert _run(ds, run_dir, spec, "--prepare").exit_code == 0 and server.hits == 0
    first = tmp_path / "batch.jsonl"
    cli = CliRunner()
    res = cli.invoke(
        app, ["export-batch", str(run_dir), str(first), "--model", "m", "--max-bytes", "20000"]
    )
    assert res.exit_code == 0, res.stderr
    parts = [first, *sorted(tmp_path.glob("batch.part*.jsonl"))]
    assert len(parts) >= 2 and all(p.stat().st_size <= 20000 for p in parts)
    lines = [json.loads(x) for p in parts for x in p.read_text().splitlines()]
    assert len(lines) == 12 and len({x["custom_id"] for x in lines}) == 12
    assert lines[0]["url"] == "/v1/chat/completions" and lines[0]["method"] == "POST"
    image_url = lines[0]["body"]["messages"][0]["content"][0]["image_url"]["url"]
    assert image_url.startswith("data:image/png;base64,")
    results = tmp_path / "out.jsonl"
    results.write_text("\n".join(json.dumps(r) for r in _process_batch(server, lines)) + "\n")
    res = cli.invoke(app, ["import-batch", str(run_dir), str(results)])
    assert res.exit_code == 0, res.stderr
    assert "stored 11 answers and 1 errors; 0 already answered, 1 unknown" in res.stdout
    res = cli.invoke(app, ["import-batch", str(run_dir), str(results)])
    assert "stored 0 answers" in res.stdout and len(_answers(run_dir)) == 11
    # a live run then sends only the errored task, and only with --retry-errors
    hits = server.hits
    assert _run(ds, run_dir, spec).exit_code == 1 and server.hits == hits
    assert _run(ds, run_dir, spec, "--retry-errors").exit_code == 0 and server.hits == hits + 1
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"custom_id": "x"}\nnot json\n')
    res = cli.invoke(app, ["import-batch", str(run_dir), str(bad)])
    assert res.exit_code == 2 and "bad.jsonl:2: invalid JSON" in res.stderr


def test_judge_flag_judges_and_writes_metrics(
    fake_openai: Any, make_dataset: Callable[[int], Path], tmp_path: Path
) -> None:
    server = fake_openai(reply_text="FAKE. The wristwatch could not exist in 1969.")
    run_dir = tmp_path / "RUN"
    res = _run(make_dataset(2), run_dir, f"m=openai/fake@{server.url}", "--judge", "builtin/rules")
    assert res.exit_code == 0, res.stderr
    assert (run_dir / "metrics.csv").is_file()
    assert _count(run_dir, "grades") > 0 and _count(run_dir, "verdicts") == 8
    assert "Mandela results (strict scoring; judge: builtin/rules)" in res.stdout
    bad = _run(make_dataset(2), run_dir, f"m=openai/fake@{server.url}", "--judge", "bogus")
    assert bad.exit_code == 2 and "--judge: bad model spec" in bad.stderr


def test_two_models_run_side_by_side_under_their_names(
    fake_openai: Any, make_dataset: Callable[[int], Path], tmp_path: Path
) -> None:
    server = fake_openai(latency_ms=2)
    run_dir, ds = tmp_path / "RUN", make_dataset(2)
    args = ["run", str(ds), "--model", f"a=openai/fake@{server.url}", "--model",
            f"openai/other@{server.url}", "--out", str(run_dir), "--cache-dir", str(tmp_path / "c")]  # fmt: skip
    res = CliRunner().invoke(app, [*args, *FLAGS])
    assert res.exit_code == 0, res.stderr
    with sqlite3.connect(run_dir / "run.sqlite") as con:
        per_model = dict(
            con.execute(
                "SELECT t.model, COUNT(*) FROM answers a JOIN tasks t ON t.key = a.task_key "
                "GROUP BY t.model"
            )
        )
    assert per_model == {"a": 8, "openai/other": 8} and server.hits == 16
    dup = CliRunner().invoke(app, [*args, "--model", f"a=openai/x@{server.url}", *FLAGS])
    assert dup.exit_code == 2 and "two models are named 'a'" in dup.stderr
