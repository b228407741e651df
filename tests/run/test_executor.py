"""Executors for the image stages: Ray (a local Ray with 2 CPUs) writes byte for byte what the
local executor writes: PIXAR label maps, PIXAR scores, rendered image variants."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from forgebench.cli import app
from forgebench.run.executor import ExecutorError, LocalExecutor, make_executor
from forgebench.run.source_index import INDEX_FILE
from forgebench.suites.pixar.pairs import PairsError


def _files(root: Path) -> dict[str, bytes]:
    """The cached files (the variants; not the index of source files, which records what
    each process hashed itself)."""
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != INDEX_FILE
    }


def _pairs(root: Path, n: int) -> Path:
    """``n`` (original, edited) PNG pairs; each edit changes a different block by a different
    amount (so several taus give different maps)."""
    rng = np.random.default_rng(7)
    for i in range(n):
        base = rng.integers(0, 256, (12, 16, 3), dtype=np.uint8)
        orig = cv2.resize(base, (96, 72), interpolation=cv2.INTER_CUBIC)
        edit = orig.astype(np.int16)
        y, x = (i * 7) % 50, (i * 11) % 70
        edit[y : y + 20, x : x + 24] += 10 + 6 * i
        edit = np.clip(edit, 0, 255).astype(np.uint8)
        for sub, img in (("original", orig), ("edited", edit)):
            (root / sub).mkdir(parents=True, exist_ok=True)
            assert cv2.imwrite(str(root / sub / f"p{i:02d}.png"), img)
    return root


def _fails_on_three(job: int) -> int:
    if job == 3:
        raise PairsError(f"job {job}: not a decodable image")
    return job * job


def test_local_executor_and_bad_choices() -> None:
    assert list(LocalExecutor().map(lambda j: j + 1, [1, 2, 3])) == [2, 3, 4]
    with pytest.raises(ExecutorError, match="unknown executor 'dask'"):
        make_executor("dask")
    with pytest.raises(ExecutorError, match="--ray-address needs --executor ray"):
        make_executor("local", address="ray://h:10001")
    res = CliRunner().invoke(app, ["pixar", "label", "x", "--out", "y", "--executor", "dask"])
    assert res.exit_code == 2
    assert res.stderr.strip() == "error: unknown executor 'dask'; known: local, ray"


@pytest.mark.slow
def test_ray_keeps_job_order_and_reraises_a_job_error(local_ray: Any) -> None:
    ex = make_executor("ray", workers=2)
    assert list(ex.map(_fails_on_three, [0, 1, 2, 5, 6], batch_size=2)) == [0, 1, 4, 25, 36]
    with pytest.raises(PairsError, match=r"^job 3: not a decodable image$"):
        list(ex.map(_fails_on_three, list(range(10)), batch_size=2))


@pytest.mark.slow
def test_pixar_label_and_score_on_ray_equal_local(local_ray: Any, tmp_path: Path) -> None:
    pairs = _pairs(tmp_path / "pairs", 12)
    cli = CliRunner()
    outs = {}
    for name in ("local", "ray"):
        out = tmp_path / f"labels-{name}"
        args = ["pixar", "label", str(pairs), "--tau", "0.05", "--tau", "0.12", "--out", str(out)]
        res = cli.invoke(app, [*args, "--executor", name, "--workers", "2"])
        assert res.exit_code == 0, res.stderr
        outs[name] = _files(out)
    assert len(outs["local"]) == 24 and outs["ray"] == outs["local"]
    assert len(set(outs["local"].values())) > 12  # the maps really differ by pair and tau
    # predictions: score maps for most stems, one missing, one of another size
    truth = tmp_path / "labels-local" / "tau0.05"
    preds = tmp_path / "preds"
    preds.mkdir()
    rng = np.random.default_rng(3)
    for i in range(11):
        shape = (36, 48) if i == 4 else (72, 96)
        np.save(preds / f"p{i:02d}.npy", rng.random(shape).astype(np.float32))
    scores = {}
    for name in ("local", "ray"):
        js = tmp_path / f"score-{name}.json"
        res = cli.invoke(app, ["pixar", "score", "--truth", str(truth), "--pred", str(preds),
                               "--json", str(js), "--executor", name])  # fmt: skip
        assert res.exit_code == 0, res.stderr
        scores[name] = js.read_bytes()
    assert scores["ray"] == scores["local"]
    result = json.loads(scores["local"])
    assert result["missing"] == ["p11"] and result["resized"] == ["p04"] and "auc" in result


@pytest.mark.slow
def test_a_bad_image_on_ray_is_the_same_one_line_error_and_nothing_is_written(
    local_ray: Any, tmp_path: Path
) -> None:
    pairs = _pairs(tmp_path / "pairs", 4)
    (pairs / "edited" / "p02.png").write_bytes(b"not a png")
    errors = []
    for name in ("local", "ray"):
        out = tmp_path / f"out-{name}"
        res = CliRunner().invoke(
            app, ["pixar", "label", str(pairs), "--out", str(out), "--executor", name]
        )
        assert res.exit_code == 2 and not out.exists()
        errors.append(res.stderr.strip())
    assert errors[0] == errors[1] and errors[0].endswith("p02.png: not a decodable image")


@pytest.mark.slow
def test_variant_rendering_on_ray_equals_local(
    local_ray: Any, demo_dataset: Path, tmp_path: Path
) -> None:
    dataset = demo_dataset
    keys, caches = {}, {}
    for name in ("local", "ray"):
        run, cache = tmp_path / f"RUN-{name}", tmp_path / f"cache-{name}"
        res = CliRunner().invoke(
            app,
            ["run", str(dataset), "--model", "m=openai/x@http://127.0.0.1:9/v1", "--out", str(run),
             "--cache-dir", str(cache), "--prepare", "--executor", name],
        )  # fmt: skip
        assert res.exit_code == 0, res.stderr
        with sqlite3.connect(run / "run.sqlite") as con:
            keys[name] = sorted(con.execute("SELECT key, variant_id FROM tasks"))
        caches[name] = _files(cache)
    assert len(caches["local"]) > 50 and caches["ray"] == caches["local"]
    assert keys["ray"] == keys["local"]


@pytest.mark.slow
def test_pixar_run_truth_labels_on_ray_equal_local(local_ray: Any, tmp_path: Path) -> None:
    from forgebench.suites.pixar.pairs import load_pairs
    from forgebench.suites.pixar.vlm_inputs import prepare_pairs

    pairs = load_pairs(_pairs(tmp_path / "pairs", 6))
    images, files = {}, {}
    for name in ("local", "ray"):
        labels = tmp_path / name / "labels"
        images[name] = prepare_pairs(pairs, 0.05, labels, executor=make_executor(name))
        files[name] = _files(labels)
    assert images["ray"] == images["local"] and len(images["local"]) == 6
    assert files["ray"] == files["local"] and len(files["local"]) == 6


@pytest.mark.slow
def test_pixar_release_split_scores_on_ray_equal_local(local_ray: Any, tmp_path: Path) -> None:
    root = tmp_path / "pixar" / "validation"
    rng = np.random.default_rng(5)
    for sub in ("real", "full_synthetic", "tampered", "masks", "soft_masks", "metadata"):
        (root / sub).mkdir(parents=True)
    assert cv2.imwrite(str(root / "real" / "r1.jpg"), np.full((16, 16, 3), 128, np.uint8))
    assert cv2.imwrite(str(root / "full_synthetic" / "s1.png"), np.zeros((16, 16, 3), np.uint8))
    pred = tmp_path / "pred"
    pred.mkdir()
    for i in range(8):
        stem = f"t{i}"
        assert cv2.imwrite(str(root / "tampered" / f"{stem}.png"), np.zeros((16, 16, 3), np.uint8))
        mask = np.where(rng.random((16, 16)) < 0.3, 255, 0).astype(np.uint8)
        soft = np.where(mask == 255, 255, rng.integers(0, 255, (16, 16))).astype(np.uint8)
        assert cv2.imwrite(str(root / "masks" / f"{stem}_mask.png"), mask)
        assert cv2.imwrite(str(root / "soft_masks" / f"{stem}_mask.png"), soft)
        (root / "metadata" / f"{stem}_cls.json").write_text(json.dumps({"cls": ["dog", 80]}))
        if i != 3:  # one prediction missing
            np.save(pred / f"{stem}.npy", rng.random((16, 16)).astype(np.float32))
    out = {}
    for convention in ("default", "pixar-release"):
        for name in ("local", "ray"):
            js = tmp_path / f"{convention}-{name}.json"
            res = CliRunner().invoke(
                app,
                ["pixar", "score", "--dataset", str(tmp_path / "pixar"), "--split", "validation",
                 "--pred", str(pred), "--json", str(js), "--convention", convention,
                 "--executor", name],
            )  # fmt: skip
            assert res.exit_code == 0, res.output
            out[(convention, name)] = js.read_bytes()
        assert out[(convention, "ray")] == out[(convention, "local")]
    assert json.loads(out[("default", "local")])["n_images"] == 8


@pytest.mark.slow
def test_audit_on_ray_equals_local(local_ray: Any, demo_dataset: Path, tmp_path: Path) -> None:
    dataset = demo_dataset
    out = {}
    for name in ("local", "ray"):
        js = tmp_path / f"audit-{name}.json"
        res = CliRunner().invoke(
            app, ["audit", str(dataset), "--json", str(js), "--executor", name, "--workers", "2"]
        )
        assert res.exit_code == 0, res.output
        out[name] = js.read_bytes()
    assert out["ray"] == out["local"]
    audit = json.loads(out["local"])
    assert len(audit["scores"]["builtin/artefact"]) > 20 and audit["footprint_measured"]
