"""Candidate rows as the release sends them: ``full`` shows a segmentation or detection item and
its candidates as separate images, in order; ``tiled`` (one image) is what a model of one image
gets, and any model on request. A run made before (store schema 4, tiled answers under ``full``)
opens migrated to schema 5 with those answers relabelled ``tiled``: nothing is re-asked, the new
``full`` tasks are pending (``--dry-run`` counts them), and ``tiled`` scores as ``full`` did."""

from __future__ import annotations

import base64
import csv
import json
import shutil
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from forgebench.cli import app
from forgebench.run.store.schema import SCHEMA_VERSION
from forgebench.suites.forensics.contract import load_items

V4 = Path(__file__).parents[2] / "fixtures" / "v4_run"
ENV = {"OPENAI_API_KEY": "sk-test"}
CANDIDATES = {"sls3", "sld1"}


@pytest.fixture
def v4(tmp_path: Path) -> Path:
    shutil.copytree(V4, tmp_path / "v4")
    return tmp_path / "v4"


def _run(v4: Path, *args: str) -> Any:
    base = ["run", str(v4 / "forensics"), "--out", str(v4 / "run"), "--cache-dir",
            str(v4 / "cache"), *args]  # fmt: skip
    return CliRunner().invoke(app, base, env=ENV)


def _tasks(run: Path) -> dict[tuple[str, str, str], str]:
    with closing(sqlite3.connect(run / "run.sqlite")) as con:
        rows = con.execute("SELECT model, item_id, condition, key FROM tasks").fetchall()
    return {(m, i, c): k for m, i, c, k in rows}


def _table(run: Path, sql: str) -> list[tuple[Any, ...]]:
    with closing(sqlite3.connect(run / "run.sqlite")) as con:
        return con.execute(sql).fetchall()


def _metrics(path: Path) -> dict[tuple[str, str, str, str], tuple[str, str]]:
    with path.open(newline="") as fh:
        return {
            (r["model"], r["condition"], r["subset"], r["metric"]): (r["value"], r["n"])
            for r in csv.DictReader(fh)
        }


def _images(body: dict[str, Any]) -> list[str]:
    return [
        p["image_url"]["url"] for p in body["messages"][0]["content"] if p["type"] == "image_url"
    ]


def _data_url(path: Path, media: str) -> str:
    return f"<data:{media};base64 {len(base64.b64encode(path.read_bytes()))} chars>"


def test_a_run_made_before_keeps_its_tiled_answers_and_asks_the_new_full_tasks(
    v4: Path, fake_openai: Callable[..., Any]
) -> None:
    run = v4 / "run"
    assert _table(run, "SELECT value FROM meta WHERE key='schema_version'") == [("4",)]
    before_tasks = _tasks(run)
    answers = dict(
        _table(run, "SELECT t.item_id, a.text FROM answers a JOIN tasks t ON t.key = a.task_key")
    )
    judged = _table(
        run,
        "SELECT t.item_id, j.judge, j.value FROM judgements j JOIN tasks t ON t.key = j.task_key ORDER BY 1",
    )
    assert {i for i, _j, _v in judged} == CANDIDATES
    before = _metrics(run / "metrics.csv")
    server = fake_openai(reply_text="A")

    # the tiled answers are kept under tiled: asking tiled sends nothing
    res = _run(v4, "--model", f"m1=openai/fake@{server.url}", "--conditions", "tiled")
    assert res.exit_code == 0, res.output
    assert server.hits == 0
    assert _table(run, "SELECT value FROM meta WHERE key='schema_version'") == [
        (str(SCHEMA_VERSION),)
    ]
    tasks = _tasks(run)
    assert {k for k in tasks if k[2] == "tiled"} == {("m1", i, "tiled") for i in CANDIDATES}
    assert {k for k in tasks if k[2] == "full"} == {("m1", "bc1", "full"), ("m1", "vid1", "full")}
    for item in CANDIDATES:  # re-keyed: the key the tiled question makes today
        assert tasks[("m1", item, "tiled")] != before_tasks[("m1", item, "full")]
    for item in ("bc1", "vid1"):  # the single-image and the video rows keep theirs
        assert tasks[("m1", item, "full")] == before_tasks[("m1", item, "full")]
    assert (
        dict(
            _table(
                run, "SELECT t.item_id, a.text FROM answers a JOIN tasks t ON t.key = a.task_key"
            )
        )
        == answers
    )
    assert (
        _table(
            run,
            "SELECT t.item_id, j.judge, j.value FROM judgements j JOIN tasks t ON t.key = j.task_key ORDER BY 1",
        )
        == judged
    )
    assert _table(
        run,
        "SELECT t.condition, COUNT(*) FROM verdicts v JOIN tasks t ON t.key = v.task_key GROUP BY 1",
    ) == [("full", 2), ("tiled", 2)]
    assert _table(run, "PRAGMA foreign_key_check") == []

    # metrics on the migrated run: tiled gives the numbers full gave for those rows
    res = CliRunner().invoke(app, ["metrics", str(run)])
    assert res.exit_code == 0, res.output
    after = _metrics(run / "metrics.csv")
    for subset in ("HS-RGB-SLS-FE&FT-DF", "HS-RGB-SLD-FE&FT-DF", "task=SLS", "task=SLD"):
        assert after[("m1", "tiled", subset, "acc")] == before[("m1", "full", subset, "acc")]
    assert after[("m1", "tiled", "all", "acc")] == ("50.0", "2")  # sls3 right, sld1 wrong
    assert after[("m1", "tiled", "all", "by_extractor")] == ("100.0", "2")
    for subset in ("HS-RGB-BC-FE&FT-DF", "HS-VID-BC-FE&FT-DF"):
        assert after[("m1", "full", subset, "acc")] == before[("m1", "full", subset, "acc")]

    # the new full tasks are pending: the dry run counts them, a run sends them apart
    res = _run(v4, "--model", f"m1=openai/fake@{server.url}", "--dry-run")
    assert res.exit_code == 0, res.output
    assert "model m1: 4 tasks, 2 to send" in res.output
    assert server.hits == 0
    res = _run(v4, "--model", f"m1=openai/fake@{server.url}")
    assert res.exit_code == 0, res.output
    assert server.hits == 2
    items = {it.id: it for it in load_items(v4 / "forensics")}
    sent = sorted(_images(b) for b in server.requests)
    want = sorted(
        [_data_url(v4 / "forensics" / p, "image/png") for p in items[i].images] for i in CANDIDATES
    )
    assert sent == want and all(len(s) == 5 for s in sent)  # the item, then its four candidates
    full = _table(
        run, "SELECT item_id, images FROM tasks WHERE condition='full' AND images IS NOT NULL"
    )
    assert {i for i, _ in full} == CANDIDATES
    # and once more: nothing left to ask, under either condition
    res = _run(v4, "--model", f"m1=openai/fake@{server.url}", "--conditions", "full,tiled")
    assert res.exit_code == 0, res.output
    assert server.hits == 2


def test_a_model_of_one_image_gets_tiled_for_candidate_rows(
    v4: Path, fake_openai: Callable[..., Any]
) -> None:
    server = fake_openai(reply_text="B")
    models = v4 / "models.toml"
    models.write_text(
        f'[[models]]\nspec = "solo=openai/fake@{server.url}"\nmax_images = 1\n'
        f'[[models]]\nspec = "many=openai/fake@{server.url}"\n'
    )
    res = _run(v4, "--models-file", str(models), "--dry-run")
    assert res.exit_code == 0, res.output
    assert "model solo: 4 tasks, 4 to send" in res.output
    assert "model many: 4 tasks, 4 to send" in res.output
    res = _run(v4, "--models-file", str(models))
    assert res.exit_code == 0, res.output
    tasks = _tasks(v4 / "run")
    conditions = {(m, i): c for (m, i, c) in tasks if m in ("solo", "many")}
    assert conditions == {
        ("solo", "bc1"): "full", ("solo", "vid1"): "full",
        ("solo", "sls3"): "tiled", ("solo", "sld1"): "tiled",
        ("many", "bc1"): "full", ("many", "vid1"): "full",
        ("many", "sls3"): "full", ("many", "sld1"): "full",
    }  # fmt: skip
    counts = sorted(len(_images(b)) for b in server.requests)
    assert counts == [1, 1, 1, 1, 1, 1, 5, 5]  # solo: one image every time
    # solo's tiled question is the one the migration keyed from m1's: m1's tiled answers
    # were kept, and a model asked tiled on request gets the same task as a fallback would
    solo_tiled = {i: k for (m, i, c), k in tasks.items() if m == "solo" and c == "tiled"}
    res = _run(v4, "--models-file", str(models), "--conditions", "full,tiled")
    assert res.exit_code == 0, res.output
    assert server.hits == 8 + 2  # many's tiled questions; solo's are answered already
    assert {
        i: k for (m, i, c), k in _tasks(v4 / "run").items() if m == "solo" and c == "tiled"
    } == solo_tiled


def test_multi_image_still_refuses_a_model_of_one_image(
    v4: Path, fake_openai: Callable[..., Any]
) -> None:
    server = fake_openai()
    models = v4 / "models.toml"
    models.write_text(f'[[models]]\nspec = "solo=openai/fake@{server.url}"\nmax_images = 1\n')
    res = _run(
        v4, "--models-file", str(models), "--protocol", "studies", "--conditions", "multi_image"
    )
    assert res.exit_code == 2, res.output
    assert "model solo takes at most 1 image per question (max_images)" in res.output
    assert server.hits == 0


def test_an_unknown_condition_names_tiled_among_the_known(v4: Path) -> None:
    res = _run(v4, "--model", "builtin/artefact", "--conditions", "tile")
    assert res.exit_code == 2
    assert "tiled" in res.output


def test_tiled_on_request_and_in_the_studies_part() -> None:
    from forgebench.run.source import Selection
    from forgebench.suites.forensics.protocol import protocol

    assert protocol(Selection(conditions=["tiled"])) == (["MCQ"], ["tiled"])
    assert protocol(Selection(conditions=["full", "tiled"]))[1] == ["full", "tiled"]
    studies = protocol(Selection(parts=("studies",)))[1]
    assert studies.count("tiled") == 1 and "multi_image" in studies  # Table 11's other block
    assert protocol(Selection(parts=("studies",), conditions=["tiled", "full"]))[1] == [
        "full",
        "tiled",
    ]


def test_prompts_show_a_candidate_row_apart_and_its_tiled_stand_in(v4: Path) -> None:
    res = CliRunner().invoke(app, ["prompts", "--dataset", str(v4 / "forensics"), "--item", "sls3"])
    assert res.exit_code == 0, res.output
    assert "MCQ / full\n" in res.output and "images: 5" in res.output
    assert "MCQ / tiled (in its place for max_images = 1)" in res.output
    assert "images: 1" in res.output


def test_table11_keeps_its_numbers_on_a_migrated_run(
    v4: Path, fake_openai: Callable[..., Any]
) -> None:
    # the run made before also asks the study: multi_image on the candidate rows, apart
    server = fake_openai(reply_text="C")
    res = _run(v4, "--model", f"m1=openai/fake@{server.url}", "--protocol", "studies",
               "--conditions", "tiled,multi_image")  # fmt: skip
    assert res.exit_code == 0, res.output
    assert server.hits == 3  # multi_image: sls3, sld1 and the video; tiled: answered already
    assert CliRunner().invoke(app, ["metrics", str(v4 / "run")]).exit_code == 0
    got = {
        k: v for k, v in _metrics(v4 / "run" / "metrics.csv").items()
        if k[2].startswith("multi_image_pair=")
    }  # fmt: skip
    assert got == {
        ("m1", "tiled", "multi_image_pair=other", "acc"): ("50.0", "2"),  # as full scored them
        ("m1", "multi_image", "multi_image_pair=other", "acc"): ("50.0", "2"),  # C: sld1 right
        ("m1", "full", "multi_image_pair=video", "acc"): ("100.0", "1"),
        ("m1", "multi_image", "multi_image_pair=video", "acc"): ("0.0", "1"),
    }


def test_the_item_view_shows_the_migrated_tiled_answers(v4: Path) -> None:
    run = v4 / "run"
    # The run recorded its dataset where it was made (/tmp/tiled/v4_run/forensics): the store's
    # record of it now names this copy, while config.json still names the old folder, as the
    # config of a run holding several benchmarks (the demo's) names another benchmark's.
    with closing(sqlite3.connect(run / "run.sqlite")) as con, con:
        datasets = json.dumps({"forensics": str(v4 / "forensics")})
        con.execute("UPDATE meta SET value = ? WHERE key = 'datasets'", (datasets,))
    assert CliRunner().invoke(app, ["metrics", str(run)]).exit_code == 0
    res = CliRunner().invoke(app, ["report", str(run)])
    assert res.exit_code == 0, res.output
    items = _viewer_items(run)
    tiled = [k for k, it in items.items() if "tiled" in it["img"].get("variants", {})]
    assert sorted(tiled) == ["sld1", "sls3"]  # each candidate row, as models of one image see it
    assert "as asked" in items["vid1"]["img"]["variants"]  # the video, tiled into one by full
    assert all(it["img"].get("view") for it in items.values())  # no picture missing
    shown = [(k, a["m"], a["c"]) for k, it in items.items() for a in it["answers"]]
    assert sorted(x for x in shown if x[2] == "tiled") == [
        ("sld1", "m1", "tiled"),
        ("sls3", "m1", "tiled"),
    ]
    data = "".join(p.read_text() for p in sorted((run / "report" / "data").glob("*.js")))
    assert data.count('"tiled"') >= 2  # the viewer's stand-in picture of each candidate row


def _viewer_items(run: Path) -> dict[str, Any]:
    """The report viewer's items (its data pages) by id."""
    from support.report_js import load_js

    report = run / "report"
    n = load_js(report / "data" / "index.js", "index")["meta"]["n_pages"]
    pages = [load_js(report / "data" / f"page-{k:04d}.js", "page") for k in range(n)]
    return {it["id"]: it for page in pages for it in page["items"]}


def test_a_moved_run_shows_its_items_pictures_from_the_dataset_given(v4: Path) -> None:
    run = v4 / "run"  # its recorded dataset folder (/tmp/tiled/v4_run/forensics) is gone
    assert CliRunner().invoke(app, ["metrics", str(run)]).exit_code == 0
    res = CliRunner().invoke(app, ["report", str(run)])
    assert res.exit_code == 0, res.output
    assert not any(it["img"] for it in _viewer_items(run).values())  # shown without pictures
    res = CliRunner().invoke(app, ["report", str(run), "--dataset", str(v4 / "forensics")])
    assert res.exit_code == 0, res.output
    items = _viewer_items(run)
    assert all(it["img"].get("view") for it in items.values())
    frames = [v for it in items.values() for v in it["img"].get("variants", {}) if " of " in v]
    assert len(frames) == 5 + 5 + 2  # each image of the multi-image rows, numbered
