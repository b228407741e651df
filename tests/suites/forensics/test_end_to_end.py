"""A VLMEvalKit prediction file replayed through run, metrics, the extractor judge and report."""

from __future__ import annotations

import csv
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from forgebench import api
from forgebench.models.spec import ModelConfig
from forgebench.suites import detect
from forgebench.suites.forensics.predictions import write_replay
from forgebench.suites.forensics.tsv_import import import_release_tsv
from support.report_js import load_js
from support.report_links import broken_links

PREDICTIONS = [
    "A",
    "non AI-generated",
    "I'm sorry, I can't.",
    "The answer is D",
    "The lighting is unusual for this scene.",
    "B",
]
# truth:       A   A (text)            Z (refusal)            D (letter)         undecided       A


@pytest.fixture
def replayed(release_tsv: Path, tmp_path: Path) -> tuple[Path, Path]:
    ds = tmp_path / "ds"
    import_release_tsv(release_tsv, ds)
    xlsx = tmp_path / "vlm_ForensicsBench.xlsx"
    pd.DataFrame({"index": range(6), "prediction": PREDICTIONS}).to_excel(xlsx, index=False)
    write_replay(xlsx, tmp_path / "replay.jsonl")
    run = tmp_path / "run"
    api.run(ds, run, [f"vlm=replay/{tmp_path / 'replay.jsonl'}"])
    return ds, run


def _rows(run: Path) -> dict[tuple[str, str], float]:
    with (run / "metrics.csv").open() as fh:
        return {
            (r["subset"], r["metric"]): float(r["value"])
            for r in csv.DictReader(fh)
            if r["benchmark"] == "forensics" and r["model"] == "vlm" and r["condition"] == "full"
        }


def test_replay_run_metrics_judge_report(
    replayed: tuple[Path, Path], fake_openai: Callable[..., Any]
) -> None:
    ds, run = replayed
    assert detect(ds).name == "forensics"
    api.metrics(run)
    m = _rows(run)
    assert m[("all", "acc")] == pytest.approx(50.0)
    assert m[("all", "by_letter")] == pytest.approx(50.0) and m[
        ("all", "by_text")
    ] == pytest.approx(100 / 6)
    assert m[("all", "z")] == pytest.approx(200 / 6) and m[("all", "by_extractor")] == 0.0
    assert m[("semantic", "persp")] == pytest.approx(70.0)  # GS 100, HS mean of 5 codes = 40
    # the LLM extractor: only the undecided answer is asked; a 500 is retried, not stored
    server = fake_openai(reply_text="B")
    server.script.extend(["500", "ok"])
    spec = ModelConfig(spec=f"ext=openai/judge-model@{server.url}", max_attempts=3)
    lines = api.judge(run, spec)
    assert any("1 judged now (1 to a letter" in o.summary for o in lines), lines
    assert [o.judge for o in lines] == ["ext"] and lines[0].fatal is None
    hits = server.hits
    assert "lighting is unusual" in str(server.requests[-1])
    api.judge(run, spec)  # resumable: nothing asked again
    assert server.hits == hits
    api.metrics(run)  # the only extractor of the run is the default
    m = _rows(run)
    assert m[("all", "acc")] == pytest.approx(400 / 6) and m[
        ("all", "by_extractor")
    ] == pytest.approx(100 / 6)
    with (run / "metrics.csv").open() as fh:
        judges = {r["judge"] for r in csv.DictReader(fh) if r["benchmark"] == "forensics"}
    assert judges == {"ext"}
    con = sqlite3.connect(run / "run.sqlite")
    stored = con.execute(
        "SELECT t.item_id, j.value FROM judgements j JOIN tasks t ON t.key = j.task_key WHERE j.kind='letter'"
    ).fetchall()
    assert stored == [("4", "B")]
    result = api.report(run, dataset=ds)
    assert (run / "report" / "forensics_table_02.csv").is_file()
    html = result.index.read_text()
    assert "Forensics-Bench (seed 002)" in html and "How the option letters were found" in html
    # every item in the one viewer (the item page of its own is gone), linked from the section
    assert "<a href='#items'>Every item (6): image, options" in html and 'id="items"' in html
    assert not (run / "report" / "forensics_items.html").exists()
    assert broken_links(run / "report") == []  # every link of the page leads somewhere
    report = run / "report"
    rows = load_js(report / "data" / "index.js", "index")["rows"]
    assert [r[0] for r in rows] == [str(k) for k in range(6)] and rows[2][1] == "HS-VID-TL-FSS-ED"
    assert all((report / r[5]).is_file() for r in rows)  # each item's picture
    items = {it["id"]: it for it in load_js(report / "data" / "page-0000.js", "page")["items"]}
    answers = {k: [(a["m"], a["v"], a.get("s")) for a in it["answers"]] for k, it in items.items()}
    assert answers["4"] == [("vlm", "B", "extractor (ext)")]  # the extractor's letter
    assert answers["2"] == [("vlm", "Z", "refusal → Z")]
    assert ["right option", "B"] in items["4"]["facts"]
    # the video row's two frames are shown apart, numbered
    assert {"image 1 of 2", "image 2 of 2"} <= set(items["2"]["img"]["variants"])


def test_answers_keyed_by_item_probe_condition(replayed: tuple[Path, Path]) -> None:
    _, run = replayed
    con = sqlite3.connect(run / "run.sqlite")
    rows = con.execute(
        "SELECT item_id, probe, condition, benchmark FROM tasks ORDER BY item_id"
    ).fetchall()
    assert rows == [(str(i), "MCQ", "full", "forensics") for i in range(6)]


def test_cli_import_validate_run_metrics_judge(
    release_tsv: Path, tmp_path: Path, rows: list[dict[str, str]], tsv_writer: Callable[..., Path],
    fake_openai: Callable[..., Any],
) -> None:  # fmt: skip
    from typer.testing import CliRunner

    from forgebench.cli import app

    cli = CliRunner()
    ds = tmp_path / "ds"
    res = cli.invoke(app, ["import", str(release_tsv), "--out", str(ds)])
    assert res.exit_code == 0 and "imported 6 Forensics items" in res.output
    res = cli.invoke(app, ["validate", str(ds)])
    assert res.exit_code == 0 and "6 items (BC 4, SLS 1, TL 1)" in res.output
    rows[2]["category"] = "human_faceswaponeface_encoderdecoder_hologram_temporal"
    bad = tsv_writer(tmp_path / "bad.tsv", rows)
    res = cli.invoke(app, ["import", str(bad), "--out", str(tmp_path / "nope")])
    assert (
        res.exit_code == 2
        and "bad.tsv:4: category: unknown forgery modality token 'hologram'" in res.output
    )
    assert not (tmp_path / "nope").exists()
    xlsx = tmp_path / "p.xlsx"
    pd.DataFrame({"index": range(6), "prediction": PREDICTIONS}).to_excel(xlsx, index=False)
    write_replay(xlsx, tmp_path / "replay.jsonl")
    run = tmp_path / "run"
    res = cli.invoke(
        app,
        ["run", str(ds), "--out", str(run), "--model", f"vlm=replay/{tmp_path / 'replay.jsonl'}"],
    )
    assert res.exit_code == 0, res.output
    res = cli.invoke(app, ["metrics", str(run)])
    assert res.exit_code == 0 and "Forensics results" in res.output and "50.0" in res.output
    server = fake_openai(reply_text="B")
    res = cli.invoke(app, ["judge", str(run), "--judge", f"ext=openai/j@{server.url}"])
    assert res.exit_code == 0 and "extractor ext: 1 undecided answers" in res.output, res.output
    res = cli.invoke(app, ["metrics", str(run), "--judge", "ext"])
    assert res.exit_code == 0 and "66.7" in res.output


def test_vlmevalkit_file_as_a_model(release_tsv: Path, tmp_path: Path) -> None:
    ds = tmp_path / "ds"
    import_release_tsv(release_tsv, ds)
    tsv = tmp_path / "GPT4o_ForensicsBench.tsv"
    pd.DataFrame({"index": range(5), "prediction": PREDICTIONS[:5]}).to_csv(
        tsv, sep="\t", index=False
    )
    run = tmp_path / "run"
    result = api.run(ds, run, [f"gpt4o=vlmevalkit/{tsv}"])
    assert [(m.sent, m.errors) for m in result.models] == [(6, 1)]  # item 5 has no prediction
    api.metrics(run)
    with (run / "metrics.csv").open() as fh:
        acc = next(r for r in csv.DictReader(fh) if r["subset"] == "all" and r["metric"] == "acc")
    # the unanswered item counts as Z (wrong): 3 right of 6
    assert acc["model"] == "gpt4o" and acc["n"] == "6"
    assert float(acc["value"]) == pytest.approx(50.0)
