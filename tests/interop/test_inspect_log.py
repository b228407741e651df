"""`export RUN --format inspect`: Inspect logs that Inspect itself reads back."""

from __future__ import annotations

import csv
import re
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from forgebench.cli import app
from support.interop_runs import forensics_run, mandela_run


def read_eval_log(path: str) -> Any:
    """Inspect's own reader, imported when a test first reads a log (inspect_ai takes seconds to
    import)."""
    from inspect_ai.log import read_eval_log as read

    return read(path)


NAME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}[^_]*_forgebench-(\w+)_[0-9a-f]{22}\.eval$")


def _export(run: Path, out: Path, *extra: str) -> list[Path]:
    res = CliRunner().invoke(
        app, ["export", str(run), "--format", "inspect", "--out", str(out), *extra]
    )
    assert res.exit_code == 0, res.output
    return sorted(out.glob("*.eval"))


def _stored(run: Path) -> dict[str, dict[str, Any]]:
    con = sqlite3.connect(run / "run.sqlite")
    con.row_factory = sqlite3.Row
    rows = con.execute(
        "SELECT t.key, t.item_id, t.probe, t.condition, a.text, v.verdict FROM tasks t "
        "LEFT JOIN answers a ON a.task_key = t.key LEFT JOIN verdicts v ON v.task_key = t.key"
    )
    return {f"{r['item_id']}/{r['probe']}/{r['condition']}": dict(r) for r in rows}


def _metrics(run: Path) -> list[dict[str, str]]:
    with (run / "metrics.csv").open(newline="") as fh:
        return list(csv.DictReader(fh))


def test_forensics_logs_read_back_with_samples_scores_and_headline(tmp_path: Path) -> None:
    _dataset, run = forensics_run(tmp_path)
    logs = _export(run, tmp_path / "out")
    assert len(logs) == 1 and NAME.match(logs[0].name), logs
    log = read_eval_log(str(logs[0]))
    stored = _stored(run)
    assert log.status == "success" and log.eval.model == "vlm"
    assert log.samples is not None and len(log.samples) == len(stored) == 4
    answers = {"0": "A", "1": "A", "2": "B", "3": "A"}  # the right letters of the release rows
    for sample in log.samples:
        row = stored[str(sample.id)]
        assert sample.output.completion == row["text"]
        assert sample.target == answers[row["item_id"]]
        assert sample.scores is not None
        assert sample.scores["verdict"].value == row["verdict"]
        assert sample.scores["correct"].value == ("C" if row["verdict"] == sample.target else "I")
        assert sample.metadata["task_key"] == row["key"]
        text, image = sample.input[0].content  # type: ignore[index,union-attr]
        assert "authenticity" in text.text  # type: ignore[union-attr]
        assert image.image.startswith("images/")  # type: ignore[union-attr]
        assert (tmp_path / "out" / image.image).is_file()  # type: ignore[union-attr]
    # the refusal's verdict says how it was found
    refusal = next(s for s in log.samples if str(s.id).startswith("2/"))
    assert refusal.scores is not None and '"step": "refusal"' in str(
        refusal.scores["verdict"].explanation
    )
    # headline: accuracy and the five perspective scores, values as in metrics.csv
    want = {
        (r["metric"], r["subset"]): float(r["value"])
        for r in _metrics(run)
        if r["model"] == "vlm" and r["condition"] == "full"
        and (r["metric"], r["subset"]) in {("acc", "all"), *(("persp", p) for p in
            ("semantic", "modality", "task", "type", "model"))}
    }  # fmt: skip
    assert log.results is not None
    got = {
        (s.metadata["subset"], next(iter(s.metrics))): next(iter(s.metrics.values())).value
        for s in log.results.scores
        if s.metadata
    }
    assert {(m, s): v for (s, m), v in got.items()} == want and len(want) == 6
    others = log.eval.metadata["metrics"]
    assert any(r["metric"] == "by_letter" for r in others)
    prov = log.eval.metadata["forgebench"]
    assert prov["forgebench_version"] and prov["dataset_sha256"] and prov["run_id"]
    parsers = sqlite3.connect(run / "run.sqlite").execute(
        "SELECT DISTINCT parser_version FROM verdicts"
    )
    assert prov["prompt_versions"] and prov["parser_versions"] == [p for (p,) in parsers]


def test_mandela_grades_are_scores_with_the_judge_reason_and_shards(tmp_path: Path) -> None:
    _dataset, run = mandela_run(tmp_path, seeds=3)
    logs = _export(run, tmp_path / "out", "--judge", "builtin/rules")
    assert len(logs) == 1
    log = read_eval_log(str(logs[0]))
    assert log.samples is not None and len(log.samples) == 6
    forged = [s for s in log.samples if s.target == "FAKE"]
    assert len(forged) == 3 and all(s.scores is not None for s in forged)
    grade = forged[0].scores["evidence/builtin/rules"]  # type: ignore[index]
    assert grade.value == 0 and "E0" in str(grade.explanation)
    kgr = [s for s in log.results.scores if s.name.startswith("kgr/")]  # type: ignore[union-attr]
    assert kgr and kgr[0].name.endswith("@builtin/rules")
    # shards of at most N samples: the same export with a small shard size gives several logs
    from forgebench.exports import export_facet
    from forgebench.interop.inspect_log import write_inspect_logs
    from forgebench.interop.run_formats import Benchmark, RunExport
    from forgebench.suites import get

    suite = get("mandela")
    request = RunExport(
        run, tmp_path / "sharded", {"mandela": Benchmark("mandela", suite.title, suite.headline,
                                                          export_facet(suite).target)},
        shard_size=4,
    )  # fmt: skip
    paths = write_inspect_logs(request, "mandela")
    sizes = [len(read_eval_log(str(p)).samples or []) for p in paths]
    assert sizes == [4, 2] and len({p.name for p in paths}) == 2
    # exporting again replaces the same files (names come from the run, not the clock)
    assert write_inspect_logs(request, "mandela") == paths
    assert sorted((tmp_path / "sharded").glob("*.eval")) == sorted(paths)
    assert not list((tmp_path / "sharded").glob(".*.tmp"))


def test_missing_inspect_extra_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _dataset, run = forensics_run(tmp_path)
    monkeypatch.setitem(sys.modules, "inspect_ai", None)  # as if not installed
    res = CliRunner().invoke(
        app, ["export", str(run), "--format", "inspect", "--out", str(tmp_path / "o")]
    )
    assert res.exit_code == 2
    assert "pip install 'forgebench[inspect]'" in res.output
    assert "Traceback" not in res.output and not (tmp_path / "o").exists()


def test_export_of_a_folder_that_is_no_run_fails_cleanly(tmp_path: Path) -> None:
    res = CliRunner().invoke(
        app, ["export", str(tmp_path), "--format", "inspect", "--out", str(tmp_path / "o")]
    )
    assert res.exit_code == 2 and "not a run directory" in res.output


def test_interrupted_inspect_export_leaves_no_partial_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _dataset, run = mandela_run(tmp_path, seeds=3)
    import inspect_ai.log

    real = inspect_ai.log.write_eval_log
    calls = []

    def dies_on_second(log: Any, location: str, **kwargs: Any) -> Any:
        calls.append(location)
        if len(calls) == 2:
            Path(location).write_bytes(b"PK\x03\x04 half a zip")  # a writer killed midway
            raise KeyboardInterrupt
        return real(log, location, **kwargs)

    monkeypatch.setattr(inspect_ai.log, "write_eval_log", dies_on_second)
    from forgebench.interop.inspect_log import write_inspect_logs
    from forgebench.interop.run_formats import Benchmark, RunExport

    out = tmp_path / "out"
    request = RunExport(run, out, {"mandela": Benchmark("mandela")}, shard_size=4)
    with pytest.raises(KeyboardInterrupt):
        write_inspect_logs(request, "mandela")
    logs = sorted(out.glob("*.eval"))
    assert len(logs) == 1 and len(read_eval_log(str(logs[0])).samples or []) == 4
    assert not [p for p in out.iterdir() if p.name.startswith(".")]


def test_pixar_iou_and_f1_are_scores(tmp_path: Path) -> None:
    import json

    from forgebench import api
    from forgebench.run.generate import GenerationSettings
    from support.pixar_loc import BOXES, box_pairs, loc_reply

    box_pairs(tmp_path / "pairs")
    shifted = {s: (x0 + 5, y0, x1 + 5, y1) for s, (x0, y0, x1, y1) in BOXES.items()}
    (tmp_path / "r.jsonl").write_text(
        "".join(
            json.dumps({"item_id": s, "probe": "LOC", "condition": "full", "text": loc_reply(b)})
            + "\n"
            for s, b in shifted.items()
        )
    )
    run = tmp_path / "run"
    api.run(tmp_path / "pairs", run, [f"vlm=replay/{tmp_path / 'r.jsonl'}"],
            GenerationSettings(cache_dir=tmp_path / "c"))  # fmt: skip
    api.metrics(run)
    logs = _export(run, tmp_path / "out")
    log = read_eval_log(str(logs[0]))
    assert log.samples is not None and len(log.samples) == 3
    for sample in log.samples:
        x0, y0, x1, y1 = BOXES[str(sample.id).split("/")[0]]
        area = (x1 - x0) * (y1 - y0)
        inter = (x1 - x0 - 5) * (y1 - y0)
        assert sample.scores is not None
        assert sample.scores["iou"].value == pytest.approx(100 * inter / (2 * area - inter))
        assert 0 < sample.scores["f1"].value < 100
    names = [s.name for s in log.results.scores]  # type: ignore[union-attr]
    assert names[:2] == ["giou/LOC/full/all", "f1/LOC/full/all"]
