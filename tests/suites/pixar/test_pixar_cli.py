"""``forgebench pixar label`` and ``forgebench pixar score``: outputs and error paths."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from forgebench.cli import app
from forgebench.construct.pixels import pixel_label
from forgebench.suites.pixar.pairs import read_mask, read_rgb

runner = CliRunner()


def _write_mask(path: Path, m: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    assert cv2.imwrite(str(path), np.where(m, 255, 0).astype(np.uint8))


def test_label_folder_writes_255_0_maps_named_by_edited_stem(
    pairs_dir: Path, tmp_path: Path
) -> None:
    out = tmp_path / "labels"
    res = runner.invoke(app, ["pixar", "label", str(pairs_dir), "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in out.iterdir()) == ["alpha.png", "beta.png"]
    raw = cv2.imread(str(out / "alpha.png"), cv2.IMREAD_UNCHANGED)
    assert raw.dtype == np.uint8 and set(np.unique(raw)) == {0, 255}
    o = read_rgb(pairs_dir / "original" / "alpha.png")
    e = read_rgb(pairs_dir / "edited" / "alpha.png")
    assert np.array_equal(raw == 255, pixel_label(o, e, 0.05))
    assert "wrote 2 label maps" in res.stdout


def test_label_several_taus_and_csv_input(pairs_dir: Path, tmp_path: Path) -> None:
    listing = tmp_path / "pairs.csv"
    listing.write_text(
        "original,edited\npairs/original/alpha.png,pairs/edited/alpha.png\n"
        f"{pairs_dir / 'original' / 'beta.png'},{pairs_dir / 'edited' / 'beta.png'}\n"
    )
    out = tmp_path / "multi"
    res = runner.invoke(
        app, ["pixar", "label", str(listing), "--tau", "0.05", "--tau", "0.1", "--out", str(out)]
    )
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in out.iterdir()) == ["tau0.05", "tau0.1"]
    lo = read_mask(out / "tau0.05" / "beta.png")
    hi = read_mask(out / "tau0.1" / "beta.png")
    assert lo.sum() >= hi.sum() > 0 and not (hi & ~lo).any()  # larger tau, subset of pixels


def test_label_errors_are_one_line_exit_2_and_write_nothing(
    pairs_dir: Path, tmp_path: Path
) -> None:
    out = tmp_path / "never"

    def check(src: Path, message: str) -> None:
        res = runner.invoke(app, ["pixar", "label", str(src), "--out", str(out)])
        assert res.exit_code == 2, res.output
        assert message in res.stderr and len(res.stderr.strip().splitlines()) == 1
        assert not out.exists()

    check(tmp_path / "nope", "no such folder")
    (pairs_dir / "edited" / "gamma.png").write_bytes(b"not an image")
    check(pairs_dir, "unmatched names (edited without original: gamma)")
    (pairs_dir / "original" / "gamma.png").write_bytes(b"still not an image")
    check(pairs_dir, "not a decodable image")
    res = runner.invoke(app, ["pixar", "label", str(pairs_dir), "--tau", "1.5", "--out", str(out)])
    assert res.exit_code == 2 and "--tau" in res.stderr


def test_label_decode_failure_keeps_existing_output_untouched(
    pairs_dir: Path, tmp_path: Path
) -> None:
    out = tmp_path / "existing"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    (pairs_dir / "edited" / "zeta.png").write_bytes(b"junk")
    (pairs_dir / "original" / "zeta.png").write_bytes(b"junk")
    res = runner.invoke(app, ["pixar", "label", str(pairs_dir), "--out", str(out)])
    assert res.exit_code == 2
    assert [p.name for p in out.iterdir()] == ["keep.txt"]  # no alpha.png/beta.png, no temp dir


def test_score_masks_json_missing_resized(tmp_path: Path) -> None:
    truth, pred = tmp_path / "truth", tmp_path / "pred"
    t1 = np.zeros((10, 10), bool)
    t1[0:4, 0:5] = True  # 20 px
    _write_mask(truth / "one.png", t1)
    _write_mask(truth / "two.png", np.zeros((10, 10), bool))  # empty truth, no prediction
    p1 = np.zeros((20, 20), bool)  # twice the size: resized nearest-neighbour
    p1[0:8, 0:6] = True  # -> rows 0..3, cols 0..2: 12 px, all inside the truth
    _write_mask(pred / "one.png", p1)
    _write_mask(pred / "stray.png", p1)
    js = tmp_path / "out" / "m.json"
    res = runner.invoke(
        app, ["pixar", "score", "--truth", str(truth), "--pred", str(pred), "--json", str(js)]
    )
    assert res.exit_code == 0, res.output
    data = json.loads(js.read_text())
    assert data["n_images"] == 2 and data["resized"] == ["one"] and data["missing"] == ["two"]
    assert data["extra"] == ["stray"] and "auc" not in data
    # one: IoU 12/20; two: empty/empty = 1 -> gIoU (0.6 + 1) / 2 = 80 %
    assert data["giou"] == 80.0
    assert data["ciou"] == 60.0 and data["precision"] == 100.0 and data["recall"] == 60.0
    assert set(data["by_size"]) == {"small", "medium", "large"}
    assert data["by_size"]["small"]["n_images"] == 2 and data["by_size"]["large"]["giou"] is None
    assert "80.0" in res.stdout and "no prediction" in res.stdout and "resized" in res.stdout


def test_score_npy_score_maps_give_auc(tmp_path: Path) -> None:
    truth, pred = tmp_path / "truth", tmp_path / "pred"
    t = np.zeros((4, 4), bool)
    t[:2] = True
    _write_mask(truth / "a.png", t)
    pred.mkdir()
    np.save(pred / "a.npy", np.where(t, 0.9, 0.2).astype(np.float32))
    js = tmp_path / "m.json"
    res = runner.invoke(
        app, ["pixar", "score", "--truth", str(truth), "--pred", str(pred), "--json", str(js)]
    )
    assert res.exit_code == 0, res.output
    data = json.loads(js.read_text())
    assert data["auc"] == 100.0 and data["giou"] == 100.0


def test_score_errors(tmp_path: Path) -> None:
    truth, pred = tmp_path / "truth", tmp_path / "pred"
    _write_mask(truth / "a.png", np.ones((4, 4), bool))
    pred.mkdir()
    np.save(pred / "a.npy", np.full((4, 4), 1.5, np.float32))
    args = ["pixar", "score", "--truth", str(truth), "--pred", str(pred)]
    res = runner.invoke(app, args)
    assert res.exit_code == 2 and "scores must lie in [0, 1]" in res.stderr
    (pred / "a.npy").write_bytes(b"garbage")
    res = runner.invoke(app, args)
    assert res.exit_code == 2 and "a.npy" in res.stderr
    res = runner.invoke(
        app, ["pixar", "score", "--truth", str(tmp_path / "x"), "--pred", str(pred)]
    )
    assert res.exit_code == 2 and "no such truth folder" in res.stderr
    res = runner.invoke(app, [*args, "--threshold", "0"])
    assert res.exit_code == 2 and "--threshold" in res.stderr
    (pred / "a.npy").unlink()
    _write_mask(pred / "a.png", np.ones((4, 4), bool))
    np.save(pred / "a.npy", np.ones((4, 4), np.float32))
    res = runner.invoke(app, args)
    assert res.exit_code == 2 and "two prediction files" in res.stderr


@pytest.mark.parametrize("shape", [(4, 4), (4, 4, 1), (1, 4, 4)])
def test_score_npy_maps_of_every_accepted_shape_score_alike(
    tmp_path: Path, shape: tuple[int, ...]
) -> None:
    truth, pred = tmp_path / "truth", tmp_path / "pred"
    t = np.zeros((4, 4), bool)
    t[:2] = True
    _write_mask(truth / "a.png", t)
    pred.mkdir()
    np.save(pred / "a.npy", np.where(t, 0.9, 0.2).astype(np.float32).reshape(shape))
    js = tmp_path / "m.json"
    res = runner.invoke(
        app, ["pixar", "score", "--truth", str(truth), "--pred", str(pred), "--json", str(js)]
    )
    assert res.exit_code == 0, res.output
    data = json.loads(js.read_text())
    assert data["auc"] == 100.0 and data["giou"] == 100.0 and data["resized"] == []


@pytest.mark.parametrize("shape", [(2, 4, 4), (4, 4, 3), (16,), (1, 1, 4, 4)])
def test_score_npy_map_of_a_wrong_shape_is_one_error_line(
    tmp_path: Path, shape: tuple[int, ...]
) -> None:
    truth, pred = tmp_path / "truth", tmp_path / "pred"
    _write_mask(truth / "a.png", np.ones((4, 4), bool))
    pred.mkdir()
    np.save(pred / "a.npy", np.full(shape, 0.5, np.float32))
    res = runner.invoke(app, ["pixar", "score", "--truth", str(truth), "--pred", str(pred)])
    assert res.exit_code == 2
    assert len(res.stderr.strip().splitlines()) == 1
    assert (
        f"a.npy: expected a score map of shape (H, W), (H, W, 1) or (1, H, W), got shape {shape}"
        in res.stderr
    )


def test_score_out_writes_pixar_rows_into_the_run_and_keeps_other_rows(tmp_path: Path) -> None:
    truth, pred, run = tmp_path / "truth", tmp_path / "pred", tmp_path / "run"
    t = np.zeros((4, 4), bool)
    t[:2] = True
    _write_mask(truth / "a.png", t)
    _write_mask(truth / "b.png", t)
    pred.mkdir()
    np.save(pred / "a.npy", np.where(t, 0.9, 0.2).astype(np.float32))
    np.save(pred / "b.npy", np.zeros((4, 4), np.float32))
    classes = tmp_path / "classes.csv"
    classes.write_text("image,class\na,tampered\nb,tampered\nr,real\n")
    labels = tmp_path / "labels.jsonl"
    labels.write_text(
        '{"image": "a", "class": "tampered", "objects": ["cat"]}\n'
        '{"image": "b", "class": "real"}\n{"image": "r", "class": "real"}\n'
    )
    run.mkdir()
    (run / "metrics.csv").write_text(
        "benchmark,model,probe,condition,subset,metric,value,n,judge\n"
        "mandela,m1,L0,full,all,kgr,12.5,8,builtin/rules\n"
        "pixar,other,LOC,full,all,giou,40.0,3,\n"
        "pixar,det,LOC,full,all,giou,1.0,1,\n"
    )
    args = ["pixar", "score", "--truth", str(truth), "--pred", str(pred), "--classes",
            str(classes), "--pred-labels", str(labels), "--out", str(run), "--name", "det"]  # fmt: skip
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    with (run / "metrics.csv").open() as fh:
        rows = {
            (r["benchmark"], r["model"], r["subset"], r["metric"]): r for r in csv.DictReader(fh)
        }
    assert rows[("mandela", "m1", "all", "kgr")]["value"] == "12.5"
    assert rows[("pixar", "other", "all", "giou")]["value"] == "40.0"
    det = {k[2:]: r for k, r in rows.items() if k[1] == "det"}
    assert all(r["probe"] == "LOC" and r["condition"] == "full" for r in det.values())
    assert float(det[("all", "giou")]["value"]) == 50.0 and det[("all", "giou")]["n"] == "2"
    assert float(det[("all", "auc")]["value"]) < 100.0
    assert float(det[("all", "image_accuracy")]["value"]) == pytest.approx(200 / 3)
    assert det[("all", "image_accuracy")]["n"] == "3"
    assert float(det[("real", "image_recall")]["value"]) == 100.0
    assert float(det[("tampered", "image_recall")]["value"]) == 50.0
    assert ("all", "combined_f1") in det and ("all", "semantic_micro_f1") in det
    assert ("all", "top1") in det
    # once more: the model's rows are replaced, not repeated
    assert runner.invoke(app, args).exit_code == 0
    with (run / "metrics.csv").open() as fh:
        again = [r for r in csv.DictReader(fh) if r["model"] == "det"]
    assert len(again) == len(det)


def test_score_out_needs_name(tmp_path: Path) -> None:
    truth, pred = tmp_path / "truth", tmp_path / "pred"
    _write_mask(truth / "a.png", np.ones((4, 4), bool))
    _write_mask(pred / "a.png", np.ones((4, 4), bool))
    res = runner.invoke(
        app,
        [
            "pixar",
            "score",
            "--truth",
            str(truth),
            "--pred",
            str(pred),
            "--out",
            str(tmp_path / "r"),
        ],
    )
    assert res.exit_code == 2 and "--out and --name go together" in res.stderr
    assert not (tmp_path / "r").exists()
