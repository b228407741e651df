"""PIXAR under the IMDL-BenCo convention (``--convention imdl``) and IMDL-BenCo manifests.

The reference figures are IMDL-BenCo's own evaluators on ``tests/fixtures/imdl_reference``
(written by ``benchmarks/imdlbenco_reference.py`` in an environment of its own; its
``reference.json`` names the imdlbenco version); AP, MCC, TPR and TNR, which IMDL-BenCo lacks,
are checked against scikit-learn.
"""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from forgebench.cli import app
from forgebench.suites.pixar.imdl import (
    METRICS,
    average_precision,
    image_values,
    pixel_values,
    roc_auc,
)
from forgebench.suites.pixar.imdl_score import score_imdl
from forgebench.suites.pixar.manifest import read_manifest, read_truth
from forgebench.suites.pixar.pairs import read_score_map
from support.pixar_loc import box_pairs, exact_or_prose, metrics_of, serve_loc

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "imdl_reference"
REFERENCE = json.loads((FIXTURE / "reference.json").read_text(encoding="utf-8"))
TOL = 1e-6  # IMDL-BenCo computes in float32
runner = CliRunner()


def test_reference_names_its_imdlbenco_version() -> None:
    assert REFERENCE["imdlbenco"] == "0.1.45" and REFERENCE["threshold"] == 0.5
    assert REFERENCE["n_tampered"] == 8 and REFERENCE["n_images"] == 12


def test_each_tampered_image_matches_imdlbenco_pixel_evaluators() -> None:
    seen = []
    for e in read_manifest(FIXTURE / "manifest.json"):
        truth, label = read_truth(e)
        if not label:
            assert e.stem not in REFERENCE["pixel_per_image"]
            continue
        ours = pixel_values(truth, read_score_map(FIXTURE / "pred" / f"{e.stem}.npy"))
        ref = REFERENCE["pixel_per_image"][e.stem]
        assert set(ref) == set(ours)
        for name, value in ref.items():
            assert ours[name] == pytest.approx(value, abs=TOL), (e.stem, name)
        seen.append(e.stem)
    assert len(seen) == 8
    # the cases the fixture plants: an inverted map (free > origin), a faint mask (label 1, no
    # pixel above 127.5: AUC 0.0 as PixelAUC returns), pixels exactly at 0.5 (t3)
    assert REFERENCE["pixel_per_image"]["t1"]["f1_free"] > REFERENCE["pixel_per_image"]["t1"]["f1"]
    assert REFERENCE["pixel_per_image"]["t6"]["auc"] == 0.0


def test_manifest_scoring_matches_imdlbenco_means_and_image_level() -> None:
    res = score_imdl(FIXTURE / "pred", dataset=FIXTURE / "manifest.json")
    assert res["n_tampered"] == 8 and res["n_images"] == 12
    assert res["missing"] == [] and res["extra"] == []
    for name, value in REFERENCE["pixel_mean"].items():
        assert res["pixel"][name] == pytest.approx(value, abs=TOL), name
        assert res["n_pixel"][name] == 8
    for name in ("f1", "auc", "acc"):
        assert res["image"][name] == pytest.approx(REFERENCE["image"][name], abs=TOL), name


def test_ap_mcc_tpr_tnr_and_auc_follow_scikit_learn() -> None:
    from sklearn import metrics

    stems = [e.stem for e in read_manifest(FIXTURE / "manifest.json")]
    scores = np.array([REFERENCE["image_scores"][s] for s in stems])
    labels = np.array([s.startswith("t") for s in stems])
    rng = np.random.default_rng(7)
    tied_scores = rng.integers(0, 5, 60) / 4.0  # ties across the classes, scores exactly 0.5
    tied_labels = rng.random(60) < 0.4
    for y, s in ((labels, scores), (tied_labels, tied_scores)):
        ours = image_values(y, s)
        hit = s > 0.5
        assert ours["ap"] == pytest.approx(metrics.average_precision_score(y, s), abs=1e-12)
        assert ours["mcc"] == pytest.approx(metrics.matthews_corrcoef(y, hit), abs=1e-12)
        assert ours["tpr"] == pytest.approx(metrics.recall_score(y, hit), abs=1e-12)
        assert ours["tnr"] == pytest.approx(metrics.recall_score(~y, ~hit), abs=1e-12)
        assert ours["auc"] == pytest.approx(metrics.roc_auc_score(y, s), abs=1e-12)
        assert ours["acc"] == pytest.approx(metrics.accuracy_score(y, hit), abs=1e-12)
    # one class: sklearn's MCC is 0, AUC and TNR are undefined (no row)
    one = image_values(np.ones(4, bool), np.array([0.9, 0.2, 0.7, 0.6]))
    assert one["mcc"] == 0.0 and one["auc"] is None and one["tnr"] is None
    assert roc_auc(np.array([True, False]), np.array([0.5, 0.5])) == 0.5
    assert average_precision(np.zeros(3, bool), np.ones(3)) is None


def test_binary_masks_count_ties_half_and_exact_threshold_is_negative() -> None:
    truth = np.zeros((4, 5), bool)
    truth[1:3, 1:4] = True
    pred = np.zeros((4, 5), bool)
    pred[1:3, 2:5] = True
    v = pixel_values(truth, pred)
    tp, fp, fn = 4, 2, 2
    assert v["f1"] == pytest.approx(2 * tp / (2 * tp + fp + fn), abs=1e-7)
    assert v["iou"] == pytest.approx(tp / (tp + fp + fn), abs=1e-7)
    assert v["auc"] == pytest.approx(0.5 * (tp / 6 + 12 / 14))  # (TPR + TNR) / 2 for a mask
    half = np.full((4, 5), 0.5, np.float32)
    h = pixel_values(truth, half)
    assert h["f1"] == pytest.approx(0.0, abs=1e-6) and h["iou"] == 0.0  # 0.5 is not > 0.5
    assert h["iou_free"] == 0.0  # IOU.py inverts the scores: 1 - 0.5 is not > 0.5 either
    assert h["f1_free"] == pytest.approx(2 * 6 / (6 + 20), abs=1e-6)  # F1.py inverts the mask


def test_binary_masks_auc_counts_ties_half_where_imdlbenco_follows_its_sort() -> None:
    """The documented difference: on a binary map IMDL-BenCo's PixelAUC walks the ties in the
    order torch's sort leaves them (0.04-0.06 below the tie-aware area on these four masks);
    ours is scikit-learn's ``roc_auc_score``."""
    from sklearn.metrics import roc_auc_score

    ref = REFERENCE["pixel_auc_binary_masks"]
    assert len(ref) == 4
    for case, theirs in ref.items():
        truth = np.asarray(Image.open(FIXTURE / "ties" / f"{case}_truth.png")) != 0
        pred = np.asarray(Image.open(FIXTURE / "ties" / f"{case}_pred.png")) != 0
        ours = pixel_values(truth, pred)["auc"]
        assert ours == pytest.approx(roc_auc_score(truth.ravel(), pred.ravel()), abs=1e-12)
        assert 0.03 < ours - theirs < 0.07, case


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _score(*args: str) -> Any:
    return runner.invoke(app, ["pixar", "score", *args])


def test_pixar_score_on_a_manifest_keeps_each_conventions_rows(tmp_path: Path) -> None:
    run = tmp_path / "run"
    base = ["--dataset", str(FIXTURE / "manifest.json"), "--pred", str(FIXTURE / "pred"),
            "--out", str(run), "--name", "det"]  # fmt: skip
    res = _score(*base, "--convention", "imdl")
    assert res.exit_code == 0, res.output
    assert "IMDL-BenCo convention (8 tampered of 12 images" in res.output
    rows = _rows(run / "metrics.csv")
    assert [r["metric"] for r in rows] == list(METRICS)
    got = {r["metric"]: float(r["value"]) for r in rows}
    # metrics.csv holds rates as percentages (IMDL-BenCo's fractions x 100), MCC as it is
    assert got["imdl_pixel_f1"] == pytest.approx(100 * REFERENCE["pixel_mean"]["f1"], abs=100 * TOL)
    assert got["imdl_image_auc"] == pytest.approx(100 * REFERENCE["image"]["auc"], abs=100 * TOL)
    assert -1 <= got["imdl_image_mcc"] <= 1
    imdl_bytes = (run / "metrics.csv").read_bytes()

    res = _score(*base)  # PIXAR's own convention on the same manifest: tampered images only
    assert res.exit_code == 0, res.output
    rows = _rows(run / "metrics.csv")
    pixar = [r for r in rows if not r["metric"].startswith("imdl_")]
    assert {"giou", "ciou", "f1", "auc"} <= {r["metric"] for r in pixar}
    assert all(r["n"] == "8" for r in pixar if r["subset"] == "all")
    from forgebench.run.store import Store

    with Store.open(run, create=False) as store:  # each tampered pair, for the report's viewer
        kept = store.pair_scores("pixar", "det")
    assert len(kept) == 8 and all(Path(k.truth).is_file() and k.image for k in kept)
    giou = next(float(r["value"]) for r in pixar if r["subset"] == "all" and r["metric"] == "giou")
    assert sum(k.iou for k in kept) / 8 == pytest.approx(giou)  # gIoU: the mean pair IoU
    assert (
        "".join(ln + "\n" for ln in imdl_bytes.decode().splitlines()[1:])
        in (run / "metrics.csv").read_text()
    )  # the imdl rows are kept, byte for byte
    both = (run / "metrics.csv").read_bytes()
    assert _score(*base, "--convention", "imdl").exit_code == 0
    assert (run / "metrics.csv").read_bytes() == both  # a re-score removes nothing of the other


def test_manifest_with_a_detector_score_and_a_missing_prediction(tmp_path: Path) -> None:
    pred = tmp_path / "pred"
    shutil.copytree(FIXTURE / "pred", pred)
    (pred / "t0.npy").unlink()
    labels = tmp_path / "scores.jsonl"
    labels.write_text('{"image": "Au/n0.png", "score": 0.99}\n{"image": "t1"}\n')
    res = score_imdl(
        pred, dataset=FIXTURE / "manifest.json",
        image_scores={"n0": 0.99},
    )  # fmt: skip
    assert res["missing"] == ["t0"]
    assert res["pixel"]["f1"] < REFERENCE["pixel_mean"]["f1"]
    out = _score("--dataset", str(FIXTURE / "manifest.json"), "--pred", str(pred),
                 "--pred-labels", str(labels), "--convention", "imdl")  # fmt: skip
    assert out.exit_code == 0, out.output
    assert "no prediction (scored as empty): 1: t0" in out.output
    assert f"acc {res['image']['acc']:.4f}" in out.output


def _copy_fixture(tmp_path: Path) -> Path:
    root = tmp_path / "ds"
    shutil.copytree(FIXTURE, root)
    return root


def test_bad_manifests_are_one_line_exit_2_and_write_nothing(tmp_path: Path) -> None:
    root = _copy_fixture(tmp_path)
    outside = tmp_path / "outside.png"
    Image.new("L", (32, 24)).save(outside)
    run = tmp_path / "run"
    manifest = root / "manifest.json"
    entries = json.loads(manifest.read_text())
    cases = {
        "outside": [*entries, ["Tp/t0.png", "../outside.png"]],
        "absolute": [[str(outside), "Negative"]],
        "missing": [["Tp/nope.png", "Negative"]],
        "not pairs": [["Tp/t0.png"]],
    }
    for what, data in cases.items():
        bad = root / f"{what}.json"
        bad.write_text(json.dumps(data))
        for conv in ("imdl", "default"):
            res = _score("--dataset", str(bad), "--pred", str(root / "pred"), "--out", str(run),
                         "--name", "det", "--convention", conv,
                         "--json", str(tmp_path / "o.json"))  # fmt: skip
            assert res.exit_code == 2, (what, res.output)
            assert len(res.output.strip().splitlines()) == 1, res.output
            assert not run.exists() and not (tmp_path / "o.json").exists()
    assert "outside the manifest's folder" in _score(
        "--dataset", str(root / "outside.json"), "--pred", str(root / "pred")
    ).output.replace("\n", "")
    # a mask of another size than its image, found while scoring: still nothing written
    Image.new("L", (10, 10), 255).save(root / "Gt" / "t5.png")
    res = _score("--dataset", str(manifest), "--pred", str(root / "pred"), "--out", str(run),
                 "--name", "det", "--convention", "imdl")  # fmt: skip
    assert res.exit_code == 2 and "mask is 10x10" in res.output.replace("\n", "")
    assert len(res.output.strip().splitlines()) <= 2  # one message (rich may wrap a long path)
    assert not run.exists()


def test_metrics_convention_imdl_adds_rows_and_keeps_pixar_rows_byte_identical(
    fake_openai: Any, tmp_path: Path
) -> None:
    pairs = tmp_path / "pairs"

    def answer(model: str, stem: str) -> str:  # "flag" says tampered but marks no region
        return (
            '{"tampered": true, "regions": []}' if model == "flag" else exact_or_prose(model, stem)
        )

    server = serve_loc(fake_openai, box_pairs(pairs), answer)
    run = tmp_path / "run"
    args = ["run", str(pairs), "--out", str(run)]
    for m in ("exact", "mixed", "flag"):
        args += ["--model", f"{m}=openai/{m}@{server.url}"]
    assert runner.invoke(app, args).exit_code == 0
    assert runner.invoke(app, ["metrics", str(run)]).exit_code == 0
    default = (run / "metrics.csv").read_bytes()
    res = runner.invoke(app, ["metrics", str(run), "--convention", "imdl"])
    assert res.exit_code == 0, res.output
    after = (run / "metrics.csv").read_bytes()
    assert after.startswith(default)  # PIXAR's rows untouched, the imdl rows after them
    m = metrics_of(run)
    assert m[("pixar", "exact", "all", "imdl_pixel_f1")][0] == pytest.approx(100.0, abs=1e-4)
    assert m[("pixar", "exact", "all", "imdl_pixel_auc")] == (100.0, 3)  # percentages
    mixed_f1 = m[("pixar", "mixed", "all", "imdl_pixel_f1")][0]
    assert mixed_f1 == pytest.approx(200 / 3, abs=1e-4)  # pair b a miss: an empty map scores 0
    assert m[("pixar", "mixed", "all", "imdl_image_tpr")] == (pytest.approx(200 / 3), 3)
    assert ("pixar", "mixed", "all", "imdl_image_auc") not in m  # every pair tampered: no ROC
    # the reply's own "tampered" is its image score; its empty map still scores 0 per pixel
    assert m[("pixar", "flag", "all", "imdl_image_tpr")] == (100.0, 3)
    assert m[("pixar", "flag", "all", "imdl_pixel_f1")] == (0.0, 3)
    assert runner.invoke(app, ["metrics", str(run)]).exit_code == 0
    assert (run / "metrics.csv").read_bytes() == after  # default again: imdl rows kept
    res = runner.invoke(app, ["report", str(run)])
    assert res.exit_code == 0, res.output
    table = (run / "report" / "pixar_imdl.md").read_text()
    assert "| exact | 100.0 |" in table and "| mixed | 66.7 |" in table
    assert "IMDL-BenCo convention" in (run / "report" / "index.html").read_text()
    assert "| exact | — | — | 100.0 | 100.0 |" in (run / "report" / "pixar_table2.md").read_text()
    res = runner.invoke(app, ["metrics", str(run), "--convention", "nope"])
    assert res.exit_code == 2 and (run / "metrics.csv").read_bytes() == after


def test_a_truth_folder_with_classes_scores_under_imdl(tmp_path: Path) -> None:
    """``--truth`` + ``--classes``: tampered images segmented, the real one image level only."""
    truth, pred = tmp_path / "truth", tmp_path / "pred"
    truth.mkdir()
    pred.mkdir()
    entries = {e.stem: e for e in read_manifest(FIXTURE / "manifest.json")}
    for stem in ("t0", "t1"):
        mask, _ = read_truth(entries[stem])
        Image.fromarray(np.where(mask, 255, 0).astype(np.uint8)).save(truth / f"{stem}.png")
    for stem in ("t0", "t1", "n1"):
        shutil.copy(FIXTURE / "pred" / f"{stem}.npy", pred / f"{stem}.npy")
    classes = tmp_path / "classes.csv"
    classes.write_text("image,class\nt0,tampered\nt1,tampered\nn1,real\n")
    js = tmp_path / "out.json"
    res = _score("--truth", str(truth), "--classes", str(classes), "--pred", str(pred),
                 "--convention", "imdl", "--json", str(js))  # fmt: skip
    assert res.exit_code == 0, res.output
    got = json.loads(js.read_text())
    ref = REFERENCE["pixel_per_image"]
    assert got["pixel"]["f1"] == pytest.approx((ref["t0"]["f1"] + ref["t1"]["f1"]) / 2, abs=TOL)
    assert got["n_images"] == 3 and got["n_tampered"] == 2
    scores = [REFERENCE["image_scores"][s] for s in ("t0", "t1", "n1")]
    right = (scores[0] > 0.5) + (scores[1] > 0.5) + (scores[2] <= 0.5)
    assert got["image"]["acc"] == pytest.approx(right / 3)


def test_a_run_scored_from_files_ranks_with_its_pairs_as_items(tmp_path: Path) -> None:
    """``pixar score --out`` keeps pair scores, not tasks: the leaderboard counts those pairs
    as the run's items (not 0 items beside a number computed on 8)."""
    from forgebench import api

    run = tmp_path / "run"
    args = ["--dataset", str(FIXTURE / "manifest.json"), "--pred", str(FIXTURE / "pred"),
            "--out", str(run), "--name", "det"]  # fmt: skip
    assert _score(*args).exit_code == 0
    board = api.leaderboard([run], tmp_path / "site", intervals=False)
    (row,) = [r for r in board.rows if r.benchmark == "pixar"]
    assert row.items == 8 == int(row.n or 0)


def test_two_runs_scored_from_files_are_compared_pair_by_pair(tmp_path: Path) -> None:
    """Two detectors scored from files (``pixar score --out``) pair up on their pairs in
    ``forgebench compare``: detector A predicts three pairs' truth masks exactly, detector B
    the first of them only, so the other two are right -> wrong flips (before, the runs "shared
    no item": only asked tasks counted)."""
    from forgebench import api

    pred_a, pred_b = tmp_path / "pred_a", tmp_path / "pred_b"
    shutil.copytree(FIXTURE / "pred", pred_a)
    shutil.copytree(FIXTURE / "pred", pred_b)
    tampered = [(e.stem, t) for e in read_manifest(FIXTURE / "manifest.json")
                for t, label in [read_truth(e)] if label][:3]  # fmt: skip
    for k, (stem, truth) in enumerate(tampered):
        exact = (np.asarray(truth) > 0).astype(np.float32)
        np.save(pred_a / f"{stem}.npy", exact)
        np.save(pred_b / f"{stem}.npy", exact if k == 0 else np.zeros_like(exact))
    run_a, run_b = tmp_path / "a", tmp_path / "b"
    base = ["--dataset", str(FIXTURE / "manifest.json"), "--name", "det"]
    assert _score(*base, "--pred", str(pred_a), "--out", str(run_a)).exit_code == 0
    assert _score(*base, "--pred", str(pred_b), "--out", str(run_b)).exit_code == 0

    result = api.compare(run_a, run_b, tmp_path / "cmp")
    (bm,) = [c for c in result.benchmarks if c.benchmark == "pixar"]
    (pair,) = bm.pairs
    (test,) = pair.tests  # LOC x full, the one cell
    assert (test.probe, test.n, test.b, test.c) == ("LOC", 8, 2, 0)
    assert sorted(f.item_id for f in pair.flips) == sorted(s for s, _ in tampered[1:])
