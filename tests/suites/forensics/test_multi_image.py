"""Table 11's study end to end: multi_image questions reach a loopback server as separate images
in order while full stays one tiled image; a run made before (store schema 2) resumes without a
request; a single-image model is refused in one line; Table 11 from a hand-made run."""

from __future__ import annotations

import asyncio
import base64
import csv
import io
import json
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from forgebench.cli import app
from forgebench.models.base import ImageRef, Request, Response
from forgebench.models.spec import ModelConfig
from forgebench.report.table import Skipped, Table
from forgebench.results.metrics_csv import read_metrics
from forgebench.run.store import Store
from forgebench.run.store.schema import SCHEMA_VERSION
from forgebench.run.tasks import Question, make_task
from forgebench.suites.forensics.artefact_model import ForensicsArtefactModel
from forgebench.suites.forensics.contract import load_items
from forgebench.suites.forensics.generate import segmentation
from forgebench.suites.forensics.multi import table11
from forgebench.suites.forensics.prompt import render_text
from forgebench.suites.forensics.run_score import score_run
from forgebench.suites.forensics.tsv_import import import_release_tsv

V2 = Path(__file__).parents[2] / "fixtures" / "v2_run"
ENV = {"OPENAI_API_KEY": "sk-test"}


def _run(dataset: Path, run: Path, url: str, cache: Path, conditions: str) -> Any:
    args = ["run", str(dataset), "--model", f"m1=openai/fake@{url}", "--out", str(run),
            "--cache-dir", str(cache), "--protocol", "studies", "--conditions", conditions]  # fmt: skip
    return CliRunner().invoke(app, args, env=ENV)


def _b64_len(path: Path) -> int:
    return len(base64.b64encode(path.read_bytes()))


def _image_parts(request: dict[str, Any]) -> list[str]:
    parts = request["messages"][0]["content"]
    assert parts[-1]["type"] == "text"  # the images first, then the text, as the release asks
    return [p["image_url"]["url"] for p in parts if p["type"] == "image_url"]


def test_multi_image_sends_the_frames_in_order_and_full_one_tiled_image(
    release_tsv: Path, tmp_path: Path, fake_openai: Callable[..., Any]
) -> None:
    ds, run = tmp_path / "ds", tmp_path / "run"
    import_release_tsv(release_tsv, ds)
    video = next(it for it in load_items(ds) if it.id == "2")
    assert len(video.images) == 2
    server = fake_openai(reply_text="B. [ 1 ]")
    res = _run(ds, run, server.url, tmp_path / "cache", "full,multi_image")
    assert res.exit_code == 0, res.output
    assert server.hits == 7  # six items under full, the video row under multi_image
    by_count: dict[int, list[list[str]]] = {}
    for body in server.requests:
        urls = _image_parts(body)
        by_count.setdefault(len(urls), []).append(urls)
    assert sorted((k, len(v)) for k, v in by_count.items()) == [(1, 6), (2, 1)]
    frames = [ds / p for p in video.images]
    assert by_count[2][0] == [
        f"<data:{'image/jpeg'};base64 {_b64_len(f)} chars>" for f in frames
    ]  # two JPEG frames of different sizes, in the release's order
    con = sqlite3.connect(run / "run.sqlite")
    tiled_path, images = con.execute(
        "SELECT image_path, images FROM tasks WHERE item_id='2' AND condition='full'"
    ).fetchone()
    assert images is None and Path(tiled_path).is_file()
    assert f"<data:image/png;base64 {_b64_len(Path(tiled_path))} chars>" in [
        u[0] for u in by_count[1]
    ]
    stored = con.execute(
        "SELECT images FROM tasks WHERE item_id='2' AND condition='multi_image'"
    ).fetchone()[0]
    assert [Path(p) for _v, p, _m in json.loads(stored)] == frames
    assert CliRunner().invoke(app, ["metrics", str(run)]).exit_code == 0
    res = CliRunner().invoke(app, ["report", str(run)])
    assert res.exit_code == 0, res.output
    with (run / "report" / "forensics_table_11.csv").open() as fh:
        rows = list(csv.reader(fh))
    assert rows[0][-1] == "m1" and [r[1] for r in rows[1:]] == [
        "Single-Image Prompt",
        "Multi-Images Prompt",
    ]
    # the viewer shows the video row as asked under full and each frame apart, in order
    data = "".join(p.read_text() for p in sorted((run / "report" / "data").glob("*.js")))
    assert data.count('"image 1 of 2"') == 1 and data.count('"image 2 of 2"') == 1
    assert data.count('"as asked"') == 1


def test_a_run_made_before_resumes_without_a_request(
    tmp_path: Path, fake_openai: Callable[..., Any]
) -> None:
    shutil.copytree(V2, tmp_path / "v2")
    ds, run = tmp_path / "v2" / "dataset", tmp_path / "v2" / "run"
    con = sqlite3.connect(run / "run.sqlite")
    assert con.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() == ("2",)
    answers = dict(con.execute("SELECT task_key, text FROM answers"))
    con.close()
    assert len(answers) == 12
    server = fake_openai(reply_text="this must never be asked")
    res = _run(ds, run, server.url, tmp_path / "cache", "full,prefix")
    assert res.exit_code == 0, res.output
    assert server.hits == 0
    con = sqlite3.connect(run / "run.sqlite")
    version = con.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
    assert version == (str(SCHEMA_VERSION),)
    assert dict(con.execute("SELECT task_key, text FROM answers")) == answers
    assert con.execute("SELECT COUNT(*) FROM tasks WHERE images IS NOT NULL").fetchone() == (0,)
    con.close()
    # asking the study now sends only the new question, its two frames apart
    res = _run(ds, run, server.url, tmp_path / "cache", "full,prefix,multi_image")
    assert res.exit_code == 0, res.output
    assert server.hits == 1 and len(_image_parts(server.requests[0])) == 2


def test_a_single_image_model_is_refused_before_anything_is_sent(
    release_tsv: Path, tmp_path: Path, fake_openai: Callable[..., Any]
) -> None:
    ds = tmp_path / "ds"
    import_release_tsv(release_tsv, ds)
    server = fake_openai()
    models = tmp_path / "models.toml"
    models.write_text(f'[[models]]\nspec = "solo=openai/fake@{server.url}"\nmax_images = 1\n')
    args = ["run", str(ds), "--models-file", str(models), "--out", str(tmp_path / "run"),
            "--cache-dir", str(tmp_path / "c"), "--protocol", "studies",
            "--conditions", "full,multi_image"]  # fmt: skip
    res = CliRunner().invoke(app, args, env=ENV)
    assert res.exit_code == 2, res.output
    line = "model solo takes at most 1 image per question (max_images) but item 2 (MCQ, multi_image) shows 2"
    assert line in res.output
    assert server.hits == 0


def _jpeg(rgb: np.ndarray, q: int) -> np.ndarray:
    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, format="JPEG", quality=q)
    return np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert("RGB"))


def test_the_offline_baseline_reads_candidates_sent_apart(tmp_path: Path) -> None:
    # a twice-compressed image with a never-compressed patch pasted in (as test_baseline.py)
    rng = np.random.default_rng(0)
    yy, xx = np.mgrid[0:192, 0:256]
    base = np.stack([xx, yy, (xx + yy) // 2], axis=-1).astype(np.float32)
    base += rng.normal(0, 6, base.shape)
    img = _jpeg(_jpeg(np.clip(base, 0, 255).astype(np.uint8), 70), 90).copy()
    mask = np.zeros((192, 256), bool)
    mask[64:128, 96:176] = True
    img[mask] = rng.integers(0, 256, (int(mask.sum()), 3), dtype=np.uint8)
    (tmp_path / "images").mkdir()
    Image.fromarray(img).save(tmp_path / "images/x.png")
    p = {"semantic": "GS", "modality": "RGB", "task": "SLS", "type": "SPL", "model": "GR"}
    item = segmentation("1", tmp_path, "images/x.png", mask, p, seed=0)
    refs = tuple(ImageRef(f"v{k}", tmp_path / f, "image/png") for k, f in enumerate(item.images))
    model = ForensicsArtefactModel("art")
    req = Request(render_text(item.question, item.options), images=refs, meta={"probe": "MCQ"})
    reply = asyncio.run(model.generate(req)).text
    assert reply.startswith(f"{item.answer}. ")


def _hand_made_run(run: Path) -> None:
    """Two models; video items v1, v2 and a segmentation item s1 (several images each) and a
    single-image item r1. Answers are letters; the right one is always A."""
    code = {"v1": "HS-VID-BC-FSS-ED", "v2": "HS-VID-BC-FSS-ED", "s1": "HS-RGB-SLS-FSS-ED",
            "r1": "HS-RGB-BC-ES-DF"}  # fmt: skip
    said = {  # (model, item, condition) -> letter
        ("a", "v1", "full"): "A", ("a", "v2", "full"): "B", ("a", "s1", "tiled"): "B",
        ("a", "s1", "full"): "C",  # s1 apart under full: not part of Table 11
        ("a", "r1", "full"): "A",
        ("a", "v1", "multi_image"): "A", ("a", "v2", "multi_image"): "A",
        ("a", "s1", "multi_image"): "A",
        ("b", "v1", "full"): "A", ("b", "v2", "full"): "A", ("b", "s1", "full"): "A",
        ("b", "v1", "multi_image"): "C",  # b was asked v1 only under multi_image
    }  # fmt: skip
    ref = ImageRef("x", run / "x.png", "image/png")
    with Store.open(run) as store:
        store.begin_invocation()
        for (model, item, cond), letter in said.items():
            extra = {"options": {"A": "yes", "B": "no", "C": "maybe"}, "answer": "A",
                     "type_code": code[item]}  # fmt: skip
            apart = cond == "multi_image" or (item == "s1" and cond == "full")
            images = (ref, ref) if item != "r1" and apart else (ref,)
            q = Question(item, "MCQ", cond, f"{item} {cond}", "MCQ/v1", extra=extra,
                         benchmark="forensics", images=images)  # fmt: skip
            task = make_task(q, model)
            store.put_tasks([task])
            store.put_answer(task.key, Response(text=f"{letter}."), 1, None, {})


def test_table11_from_a_hand_made_run(tmp_path: Path) -> None:
    run = tmp_path / "run"
    _hand_made_run(run)
    path = score_run(run)
    assert path is not None
    with path.open() as fh:
        got = {
            (r["model"], r["condition"], r["subset"]): (float(r["value"]), int(r["n"]))
            for r in csv.DictReader(fh)
            if r["subset"].startswith("multi_image_pair=")
        }
    assert got == {
        ("a", "full", "multi_image_pair=video"): (50.0, 2),
        ("a", "multi_image", "multi_image_pair=video"): (100.0, 2),
        ("a", "tiled", "multi_image_pair=other"): (0.0, 1),
        ("a", "multi_image", "multi_image_pair=other"): (100.0, 1),
        ("b", "full", "multi_image_pair=video"): (100.0, 1),  # v1 only: the pair b has
        ("b", "multi_image", "multi_image_pair=video"): (0.0, 1),
    }
    table = table11(read_metrics(path, benchmark="forensics"))
    assert isinstance(table, Table)
    assert [c.label for c in table.columns] == ["Model", "a", "b"]
    (video_head, video), (other_head, other) = table.sections
    assert video_head is not None and video_head.startswith("Video items")
    assert [[c.text for c in r] for r in video] == [
        ["Single-Image Prompt", "50.0", "100.0"],
        ["Multi-Images Prompt", "100.0", "0.0"],
    ]
    assert other_head is not None and other_head.startswith("Other multi-image items")
    assert [[c.text for c in r] for r in other] == [
        ["Single-Image Prompt", "0.0", "—"],
        ["Multi-Images Prompt", "100.0", "—"],
    ]


def test_table11_is_skipped_without_multi_image_answers(tmp_path: Path) -> None:
    import pandas as pd

    empty = pd.DataFrame(
        columns=["benchmark", "model", "probe", "condition", "subset", "metric", "value", "n"]
    )
    skipped = table11(empty)
    assert isinstance(skipped, Skipped) and skipped.number == 11
    assert skipped.reason == "no multi_image answers (--protocol studies)"


def test_max_images_is_a_positive_count_and_unset_by_default() -> None:
    assert ModelConfig(spec="openai/x").max_images is None
    with pytest.raises(ValueError, match="max_images"):
        ModelConfig(spec="openai/x", max_images=0)
