"""PIXAR through the engine: ``forgebench run PAIRS`` asks the LOC probe through the shared runner
and store, and ``metrics``, ``report`` and ``merge`` handle the run like any benchmark's (a
loopback OpenAI-compatible server answers from the image bytes it receives)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from forgebench import api
from forgebench.cli import app
from forgebench.run.generate import GenerationSettings
from forgebench.run.source import Selection
from forgebench.suites import detect
from forgebench.suites.base import SuiteError
from forgebench.suites.pixar.suite import SUITE as PIXAR
from support.pixar_loc import BOXES, box_pairs, exact_or_prose, metrics_of, serve_loc

runner = CliRunner()


def _run(pairs: Path, run: Path, *models: str) -> Any:
    args = ["run", str(pairs), "--out", str(run)]
    for m in models:
        args += ["--model", m]
    return runner.invoke(app, args)


def test_run_stores_loc_tasks_resumes_free_and_metrics_report_score_them(
    fake_openai: Any, tmp_path: Path
) -> None:
    pairs = tmp_path / "pairs"
    server = serve_loc(fake_openai, box_pairs(pairs), exact_or_prose)
    run = tmp_path / "run"
    exact, mixed = f"exact=openai/exact@{server.url}", f"mixed=openai/mixed@{server.url}"
    assert detect(pairs).name == "pixar"
    res = _run(pairs, run, exact, mixed)
    assert res.exit_code == 0, res.output
    assert server.hits == 6
    con = sqlite3.connect(run / "run.sqlite")
    tasks = con.execute(
        "SELECT benchmark, item_id, probe, condition, model FROM tasks ORDER BY 5, 2"
    ).fetchall()
    assert tasks == [("pixar", s, "LOC", "full", m) for m in ("exact", "mixed") for s in "abc"]
    items = {i: json.loads(d) for i, d in con.execute("SELECT item_id, data FROM items")}
    assert items["a"]["image"] == "edited/a.png" and items["a"]["original"] == "original/a.png"
    assert (items["a"]["width"], items["a"]["height"], items["a"]["tau"]) == (96, 64, 0.05)
    # resume: every task has its answer, nothing is sent again
    again = _run(pairs, run, exact, mixed)
    assert again.exit_code == 0, again.output
    assert server.hits == 6
    assert not (run / "metrics.csv").exists()  # scoring is its own stage

    res = runner.invoke(app, ["metrics", str(run)])
    assert res.exit_code == 0, res.output
    m = metrics_of(run)
    assert m[("pixar", "exact", "all", "giou")] == (100.0, 3)
    assert m[("pixar", "exact", "all", "f1")][0] == 100.0
    assert m[("pixar", "mixed", "all", "miss")] == (pytest.approx(100 / 3), 3)
    assert m[("pixar", "mixed", "all", "giou")][0] == pytest.approx(200 / 3)
    assert {k[3] for k in m if k[2] == "small"} >= {"giou", "ciou", "f1"}
    verdicts = dict(
        con.execute(
            "SELECT t.model || '/' || t.item_id, v.verdict || ' ' || json_extract(v.detail, '$.iou')"
            " FROM verdicts v JOIN tasks t ON t.key = v.task_key"
        ).fetchall()
    )
    assert verdicts["exact/a"] == "LOCATED 100.0" and verdicts["mixed/b"] == "MISS 0.0"
    assert sorted(p.name for p in (run / "pixar" / "pred" / "mixed").iterdir()) == [
        "a.png",
        "c.png",
    ]
    res = runner.invoke(app, ["report", str(run)])
    assert res.exit_code == 0, res.output
    page = (run / "report" / "index.html").read_text()
    assert "PIXAR (seed 003)" in page and "pixar_table2" in page
    assert "| exact | — | — | 100.0 | 100.0 |" in (run / "report" / "pixar_table2.md").read_text()


def test_options_tau_and_classes_travel_from_run_and_metrics_overrides_tau(
    fake_openai: Any, tmp_path: Path
) -> None:
    pairs = tmp_path / "pairs"
    replies = {s: exact_or_prose("x", s).replace('["cat"]', '["dog", "cat"]') for s in BOXES}
    server = serve_loc(fake_openai, box_pairs(pairs), lambda _m, s: replies[s])
    classes = tmp_path / "classes.csv"
    classes.write_text("stem,class\na,cat\nb,dog\nc,\n")
    run = tmp_path / "run"
    sel = Selection(sample=2, options={"tau": "0.3", "classes": str(classes)})
    result = api.run(pairs, run, [f"m=openai/m@{server.url}"], GenerationSettings(selection=sel))
    assert result.remaining == 0 and server.hits == 2  # --sample 2: the first two pairs
    api.metrics(run)
    m = metrics_of(run)
    assert m[("pixar", "m", "all", "giou")] == (100.0, 2)
    assert m[("pixar", "m", "all", "top1")] == (50.0, 2)  # b: dog first; a: cat second
    assert m[("pixar", "m", "all", "top5")] == (100.0, 2)
    # a tau above the planted difference (128 / 255) leaves no changed pixel: the truth is empty
    PIXAR.score(run, None, {"tau": "0.6"})
    assert metrics_of(run)[("pixar", "m", "all", "giou")] == (0.0, 2)
    with pytest.raises(SuiteError, match="--tau"):
        PIXAR.score(run, None, {"tau": "2"})


def test_merge_of_two_pixar_runs_scores_the_union(fake_openai: Any, tmp_path: Path) -> None:
    pairs = tmp_path / "pairs"
    server = serve_loc(fake_openai, box_pairs(pairs), exact_or_prose)
    one, two, merged = tmp_path / "one", tmp_path / "two", tmp_path / "merged"
    assert _run(pairs, one, f"exact=openai/exact@{server.url}").exit_code == 0
    assert _run(pairs, two, f"mixed=openai/mixed@{server.url}").exit_code == 0
    for r in (one, two):
        assert runner.invoke(app, ["metrics", str(r)]).exit_code == 0
    # a detector's rows written by `pixar score --out` travel with their run
    with (one / "metrics.csv").open("a") as fh:
        fh.write("pixar,det,LOC,full,all,giou,12.5,3,\n")
    res = runner.invoke(app, ["merge", str(one), str(two), "--out", str(merged)])
    assert res.exit_code == 0, res.output
    m = metrics_of(merged)
    assert m[("pixar", "exact", "all", "giou")] == (100.0, 3)
    assert m[("pixar", "mixed", "all", "miss")] == (pytest.approx(100 / 3), 3)
    assert m[("pixar", "det", "all", "giou")] == (12.5, 3)
    again = _run(pairs, merged, f"exact=openai/exact@{server.url}")
    assert again.exit_code == 0 and server.hits == 6  # the merged run resumes with no request


def test_bad_pairs_and_options_are_one_line_exit_2_and_touch_no_run(
    fake_openai: Any, tmp_path: Path
) -> None:
    pairs = tmp_path / "pairs"
    box_pairs(pairs)
    run = tmp_path / "run"
    spec = "x=openai/x@http://127.0.0.1:9/v1"
    (pairs / "edited" / "b.png").write_bytes(b"not a png")
    res = _run(pairs, run, spec)
    assert res.exit_code == 2 and "b.png: not a decodable image" in res.output
    assert not run.exists()
    with pytest.raises(SuiteError, match="--tau"):
        api.run(pairs, run, [spec], GenerationSettings(selection=Selection(options={"tau": "x"})))
    # a CSV of pairs is a dataset folder too: no image may lie outside the CSV's folder
    listing = tmp_path / "sub" / "pairs.csv"
    listing.parent.mkdir()
    listing.write_text(
        f"original,edited\n{pairs / 'original' / 'a.png'},{pairs / 'edited' / 'a.png'}\n"
    )
    res = _run(listing, run, spec)
    assert res.exit_code == 2 and "lies outside the dataset folder" in res.output
    assert len(res.output.strip().splitlines()) == 1
    assert not run.exists()


def test_a_csv_of_pairs_runs_like_a_folder(fake_openai: Any, tmp_path: Path) -> None:
    pairs = tmp_path / "pairs"
    server = serve_loc(fake_openai, box_pairs(pairs), exact_or_prose)
    listing = tmp_path / "pairs.csv"
    listing.write_text(
        "original,edited\n"
        + "".join(f"pairs/original/{s}.png,pairs/edited/{s}.png\n" for s in "cb")
    )
    run = tmp_path / "run"
    assert detect(listing).name == "pixar"
    res = _run(listing, run, f"exact=openai/exact@{server.url}")
    assert res.exit_code == 0, res.output
    api.metrics(run)
    assert metrics_of(run)[("pixar", "exact", "all", "giou")] == (100.0, 2)
    items = json.loads(
        sqlite3.connect(run / "run.sqlite")
        .execute("SELECT data FROM items WHERE item_id = 'c'")
        .fetchone()[0]
    )
    assert items["image"] == "pairs/edited/c.png"


def test_metrics_names_a_pairs_folder_that_is_gone(fake_openai: Any, tmp_path: Path) -> None:
    pairs = tmp_path / "pairs"
    server = serve_loc(fake_openai, box_pairs(pairs), exact_or_prose)
    run = tmp_path / "run"
    assert _run(pairs, run, f"exact=openai/exact@{server.url}").exit_code == 0
    shutil.rmtree(pairs)
    with pytest.raises(SuiteError, match="pairs are gone"):
        PIXAR.score(run, None)
    assert not (run / "metrics.csv").exists()


def test_export_writes_pair_class_verdict_iou_and_f1_per_task(
    fake_openai: Any, tmp_path: Path
) -> None:
    import pandas as pd

    pairs = tmp_path / "pairs"
    server = serve_loc(fake_openai, box_pairs(pairs), exact_or_prose)
    classes = tmp_path / "classes.csv"
    classes.write_text("stem,class\na,cat\nb,dog;person\n")
    run = tmp_path / "run"
    args = ["--classes", str(classes)]
    for m in ("exact", "mixed"):
        res = runner.invoke(app, ["run", str(pairs), "--out", str(run), "--model",
                                  f"{m}=openai/{m}@{server.url}", *args])  # fmt: skip
        assert res.exit_code == 0, res.output
    assert runner.invoke(app, ["metrics", str(run)]).exit_code == 0
    out = tmp_path / "export"
    res = runner.invoke(app, ["export", str(run), "--format", "csv", "--out", str(out)])
    assert res.exit_code == 0, res.output
    df = pd.read_csv(out / "export-pixar.csv", keep_default_na=False)
    assert list(df.columns[:3]) == ["task_key", "benchmark", "item_id"]
    assert len(df) == 6 and set(df["benchmark"]) == {"pixar"} and set(df["probe"]) == {"LOC"}
    rows = {(r.model, r.pair): r for r in df.itertuples(index=False)}
    a, b = rows[("exact", "a")], rows[("mixed", "b")]
    assert (a.verdict, a.iou, a.f1, a.pred_classes, a.regions) == (
        "LOCATED",
        100.0,
        100.0,
        "cat",
        1,
    )
    assert df.loc[(df["model"] == "exact") & (df["pair"] == "a"), "class"].item() == "cat"
    assert df.loc[(df["model"] == "mixed") & (df["pair"] == "b"), "class"].item() == "dog;person"
    assert (b.verdict, b.iou, b.f1, b.regions) == ("MISS", 0.0, 0.0, 0)
    assert a.edited == "edited/a.png" and a.original == "original/a.png"


def test_tau_and_classes_are_flags_of_run_and_metrics(fake_openai: Any, tmp_path: Path) -> None:
    pairs = tmp_path / "pairs"
    server = serve_loc(fake_openai, box_pairs(pairs), exact_or_prose)
    run = tmp_path / "run"
    spec = f"exact=openai/exact@{server.url}"
    res = runner.invoke(
        app, ["run", str(pairs), "--out", str(run), "--model", spec, "--tau", "0.6"]
    )
    assert res.exit_code == 0, res.output
    assert runner.invoke(app, ["metrics", str(run)]).exit_code == 0
    assert metrics_of(run)[("pixar", "exact", "all", "giou")] == (0.0, 3)  # the stored tau
    classes = tmp_path / "classes.csv"
    classes.write_text("stem,class\na,cat\nb,dog\nc,cat\n")
    res = runner.invoke(app, ["metrics", str(run), "--tau", "0.05", "--classes", str(classes)])
    assert res.exit_code == 0, res.output
    m = metrics_of(run)
    assert m[("pixar", "exact", "all", "giou")] == (100.0, 3)
    assert m[("pixar", "exact", "all", "top1")] == (pytest.approx(200 / 3), 3)
    res = runner.invoke(app, ["metrics", str(run), "--tau", "1.5"])
    assert res.exit_code == 2 and "--tau" in res.output
