"""``forgebench merge``: runs made on different machines (split by model and by items) merge into
the run that did everything; conflicting answers are refused."""

from __future__ import annotations

import csv
import json
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from forgebench.cli import app

FLAGS = ["--probes", "L0,L1", "--conditions", "full", "--retry-base-delay", "0.01"]
JUDGE2_REPLY = '{"level": 2, "reason": "names the wristwatch as the anomaly"}'


def _ok(args: list[str]) -> Any:
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.stderr + res.stdout
    return res


def _run(ds: Path, out: Path, specs: list[str], judge2: str) -> None:
    models = [x for s in specs for x in ("--model", s)]
    cache = ["--cache-dir", str(out.parent / "cache")]
    _ok(["run", str(ds), *models, "--out", str(out), *cache, *FLAGS, "--judge", "builtin/rules"])
    _ok(["judge", str(out), "--judge", judge2])
    _ok(["metrics", str(out), "--judge", "j2"])


def _subset(ds: Path, dest: Path, seeds: set[str]) -> Path:
    """A copy of the dataset with only ``seeds`` (same images, so the same task keys)."""
    shutil.copytree(ds, dest)
    lines = (ds / "items.jsonl").read_text(encoding="utf-8").splitlines()
    kept = [ln for ln in lines if json.loads(ln)["seed_id"] in seeds]
    (dest / "items.jsonl").write_text("\n".join(kept) + "\n", encoding="utf-8")
    return dest


def _table(run: Path, sql: str) -> set[tuple[Any, ...]]:
    with sqlite3.connect(run / "run.sqlite") as con:
        return set(con.execute(sql))


def _metrics(run: Path) -> list[tuple[str, ...]]:
    with (run / "metrics.csv").open(newline="", encoding="utf-8") as fh:
        return sorted(tuple(r.values()) for r in csv.DictReader(fh))


def test_merged_runs_equal_one_run_that_did_everything(
    fake_openai: Any, make_dataset: Callable[[int], Path], tmp_path: Path
) -> None:
    real = fake_openai(reply_text="REAL. Nothing in the image contradicts the record.")
    fake = fake_openai(reply_text="FAKE. The wristwatch could not exist in 1969.")
    judge = fake_openai(reply_text=JUDGE2_REPLY)
    a, b, j2 = f"a=openai/fake@{real.url}", f"b=openai/fake@{fake.url}", f"j2=openai/x@{judge.url}"
    ds = make_dataset(6)
    full, p1, p2, p3 = (tmp_path / n for n in ("FULL", "P1", "P2", "P3"))
    _run(ds, full, [a, b], j2)
    _run(ds, p1, [a], j2)  # machine 1: model a
    _run(_subset(ds, tmp_path / "head", {"s0", "s1", "s2"}), p2, [b], j2)  # machine 2: b, 0-2
    _run(_subset(ds, tmp_path / "tail", {"s2", "s3", "s4", "s5"}), p3, [b], j2)  # 3: b, 2-5
    merged = tmp_path / "MERGED"
    res = _ok(["merge", str(p1), str(p2), str(p3), "--out", str(merged)])
    assert "judges: builtin/rules, j2" in res.stdout
    assert "8 identical duplicate rows collapsed" in res.stdout  # seed s2's b tasks + answers
    for sql in (
        "SELECT key, model, item_id, probe, condition FROM tasks",
        "SELECT task_key, text FROM answers",
        "SELECT task_key, verdict FROM verdicts",
        "SELECT task_key, judge, level, status FROM grades",
        "SELECT item_id, data FROM items",
    ):
        assert _table(merged, sql) == _table(full, sql), sql
    judges = _table(merged, "SELECT DISTINCT judge FROM grades")
    assert judges == {("builtin/rules",), ("j2",)}
    assert _metrics(merged) == _metrics(full)
    assert len(_metrics(full)) > 50
    kgr = [r for r in _metrics(merged) if r[5] == "kgr" and r[8] == "j2"]
    assert kgr  # graded metrics of the second judge are there
    config = json.loads((merged / "config.json").read_text())
    assert {m["spec"].split("@")[0] for m in config["models"]} == {"a=openai/fake", "b=openai/fake"}
    status = _ok(["status", str(merged)])
    assert "pending" in status.stdout


def test_conflicting_answers_are_refused_with_the_keys_and_nothing_written(
    fake_openai: Any, make_dataset: Callable[[int], Path], tmp_path: Path
) -> None:
    one = fake_openai(reply_text="FAKE. The wristwatch could not exist in 1969.")
    other = fake_openai(reply_text="REAL. Looks fine.")
    ds = make_dataset(2)
    r1, r2, out = tmp_path / "R1", tmp_path / "R2", tmp_path / "OUT"
    for run, server in ((r1, one), (r2, other)):
        _ok(["run", str(ds), "--model", f"m=openai/fake@{server.url}", "--out", str(run),
             "--cache-dir", str(tmp_path / "c"), *FLAGS])  # fmt: skip
    keys = sorted(k for (k,) in _table(r1, "SELECT task_key FROM answers"))
    res = CliRunner().invoke(app, ["merge", str(r1), str(r2), "--out", str(out)])
    assert res.exit_code == 2
    (line,) = res.stderr.strip().splitlines()
    assert line.startswith("error: answers: answers differ for the same key")
    assert keys[0] in line and "(8 in all)" in line
    assert not out.exists() and not list(tmp_path.glob(".OUT.merging-*"))


def test_same_model_with_other_settings_or_bad_arguments_are_refused(
    fake_openai: Any, make_dataset: Callable[[int], Path], tmp_path: Path
) -> None:
    server = fake_openai()
    ds = make_dataset(1)
    r1, r2 = tmp_path / "R1", tmp_path / "R2"
    base = ["--out", "X", "--cache-dir", str(tmp_path / "c"), *FLAGS]
    for run, extra in ((r1, []), (r2, ["--max-attempts", "2"])):
        args = ["run", str(ds), "--model", f"m=openai/fake@{server.url}", *base, *extra]
        args[args.index("X")] = str(run)
        _ok(args)
    with sqlite3.connect(r2 / "run.sqlite") as con:  # r2 asked at another temperature
        row = con.execute("SELECT value FROM meta WHERE key='model:m'").fetchone()
        info = json.loads(row[0])
        info["identity"]["params"]["temperature"] = 0.7
        con.execute("UPDATE meta SET value=? WHERE key='model:m'", (json.dumps(info),))
    res = CliRunner().invoke(app, ["merge", str(r1), str(r2), "--out", str(tmp_path / "O")])
    assert res.exit_code == 2 and "model 'm' ran with other settings" in res.stderr
    cases = [
        ([str(r1)], "at least two run directories"),
        ([str(r1), str(tmp_path / "nope")], "nope: not a run directory"),
        ([str(r1), str(r1)], "given twice"),
    ]
    for runs, message in cases:
        res = CliRunner().invoke(app, ["merge", *runs, "--out", str(tmp_path / "O")])
        assert res.exit_code == 2 and message in res.stderr, res.stderr
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    res = CliRunner().invoke(app, ["merge", str(r1), str(r2), "--out", str(tmp_path / "full")])
    assert res.exit_code == 2 and "already exists and is not empty" in res.stderr


def test_conflicting_grades_of_one_judge_are_refused(
    fake_openai: Any, make_dataset: Callable[[int], Path], tmp_path: Path
) -> None:
    answers = fake_openai(reply_text="FAKE. The wristwatch could not exist in 1969.")
    lenient = fake_openai(reply_text='{"level": 3, "reason": "names the wristwatch"}')
    strict = fake_openai(reply_text='{"level": 1, "reason": "vague"}')
    ds = make_dataset(1)
    runs = []
    for name, judge in (("R1", lenient), ("R2", strict)):
        run = tmp_path / name
        _ok(["run", str(ds), "--model", f"m=openai/fake@{answers.url}", "--out", str(run),
             "--cache-dir", str(tmp_path / "c"), *FLAGS])  # fmt: skip
        _ok(["judge", str(run), "--judge", f"j2=openai/x@{judge.url}"])
        runs.append(str(run))
    res = CliRunner().invoke(app, ["merge", *runs, "--out", str(tmp_path / "OUT")])
    assert res.exit_code == 2
    assert res.stderr.startswith("error: judgements: grades differ for the same key")
    assert not (tmp_path / "OUT").exists()


def test_merge_keeps_every_benchmarks_dataset_folder(
    fake_openai: Any, make_dataset: Callable[[int], Path], tmp_path: Path
) -> None:
    """A run records one dataset folder per benchmark (``meta.datasets``, the viewer finds each
    item's pictures there); the merged run knows the folders of every source, not the first's."""
    real = fake_openai(reply_text="REAL. Nothing in the image contradicts the record.")
    ds = make_dataset(1)
    p1, p2, merged = tmp_path / "P1", tmp_path / "P2", tmp_path / "MERGED"
    for out in (p1, p2):
        _ok(["run", str(ds), "--model", f"a=openai/fake@{real.url}", "--out", str(out), *FLAGS])
    with sqlite3.connect(p2 / "run.sqlite") as con:  # as if P2 had also run a second benchmark
        con.execute(
            "UPDATE meta SET value=? WHERE key='datasets'",
            (json.dumps({"mandela": "/elsewhere/mandela", "toy": "/data/toy"}),),
        )
    _ok(["merge", str(p1), str(p2), "--out", str(merged)])
    with sqlite3.connect(merged / "run.sqlite") as con:
        (value,) = con.execute("SELECT value FROM meta WHERE key='datasets'").fetchone()
    assert json.loads(value) == {"mandela": str(ds.resolve()), "toy": "/data/toy"}
