"""PIXAR evaluation as VILA-Lab/PIXAR ``test_parallel.py`` computes it, and our default.

The oracle below re-implements the released script's arithmetic step by step (its variable
names in comments), independently of :mod:`forgebench.suites.pixar.release`.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from forgebench.cli import app
from forgebench.suites.pixar.evaluate import Item, evaluate
from forgebench.suites.pixar.localization import LocalizationAccumulator
from forgebench.suites.pixar.release import ReleaseSegmentation, release_truth
from forgebench.suites.pixar.taxonomy import CLASSES

runner = CliRunner()


def _oracle_truth(soft: np.ndarray) -> np.ndarray:
    # PIXAR_Set: ResizeLongestSide(1024).apply_image -> / 255.0 ; test_parallel: soft_mask.int()
    h, w = soft.shape
    s = 1024 / max(h, w)
    nh, nw = int(h * s + 0.5), int(w * s + 0.5)
    img = np.array(Image.fromarray(soft).resize((nw, nh), Image.Resampling.BILINEAR))
    return np.trunc(img / 255.0).astype(int)


def _oracle(samples: list[dict]) -> dict[str, float]:
    cm = np.zeros((3, 3))
    inter_s = union_s = acc_s = 0.0
    count = 0
    tp = fp = fn = 0
    pos = np.zeros(512)
    neg = np.zeros(512)
    otp = np.zeros(81)
    ofp = np.zeros(81)
    ofn = np.zeros(81)
    exact = rows = hit1 = hit5 = den = 0
    for s in samples:
        cm[s["cls"], s["pred_cls"]] += 1
        if s["cls"] != 2:
            continue
        gt = _oracle_truth(s["soft"])
        pm = s["logits"]
        out = (pm > 0).astype(int)
        i = float(((out == 1) & (gt == 1)).sum())
        u = float((out == 1).sum() + (gt == 1).sum()) - i
        inter_s += i
        union_s += u
        acc_s += i / (u + 1e-5) + (1.0 if u == 0 else 0.0)
        count += 1
        sc = 1 / (1 + np.exp(-pm)) if (pm.min() < 0 or pm.max() > 1) else np.clip(pm, 0, 1)
        b = sc >= 0.5
        m = gt == 1
        tp += int((b & m).sum())
        fp += int((b & ~m).sum())
        fn += int((~b & m).sum())
        idx = np.clip((np.clip(sc, 0, 1) * 511).astype(np.int64), 0, 511)
        np.add.at(pos, idx[m], 1)
        np.add.at(neg, idx[~m], 1)
        g = np.zeros(81)
        g[s["objects"]] = 1
        probs = s["probs"]
        pr = (probs >= 0.5).astype(float)
        if g.any():
            order = np.argsort(-probs, kind="stable")
            hit1 += int(g[order[:1]].any())
            hit5 += int(g[order[:5]].any())
            den += 1
        otp += pr * g
        ofp += pr * (1 - g)
        ofn += (1 - pr) * g
        exact += int((pr == g).all())
        rows += 1
    prec = tp / (tp + fp + 1e-12) if tp + fp > 0 else 0.0
    rec = tp / (tp + fn + 1e-12) if tp + fn > 0 else 0.0
    pos_cum, neg_cum = np.cumsum(pos[::-1]), np.cumsum(neg[::-1])
    tpr = pos_cum / (pos_cum[-1] + 1e-12)
    fpr = neg_cum / (neg_cum[-1] + 1e-12)
    auc = float(np.sum((tpr[1:] + tpr[:-1]) * 0.5 * (fpr[1:] - fpr[:-1])))
    t, f_, n_ = otp.sum(), ofp.sum(), ofn.sum()
    mp = t / (t + f_ + 1e-12) if t + f_ > 0 else 0.0
    mr = t / (t + n_ + 1e-12) if t + n_ > 0 else 0.0
    pc = otp / (otp + ofp + 1e-12)
    rc = otp / (otp + ofn + 1e-12)
    fc = 2 * pc * rc / (pc + rc + 1e-12)
    ciou = inter_s / (union_s + 1e-10)
    acc = np.trace(cm) / cm.sum()
    return {
        "giou": acc_s / count, "ciou": ciou, "precision": prec, "recall": rec,
        "f1": 2 * prec * rec / (prec + rec + 1e-12), "auc": auc, "accuracy": acc,
        "micro_f1": 2 * mp * mr / (mp + mr + 1e-12), "micro_precision": mp, "micro_recall": mr,
        "macro_precision": pc.mean(), "macro_recall": rc.mean(), "macro_f1": fc.mean(),
        "subset_accuracy": exact / rows, "top1": hit1 / den, "top5": hit5 / den,
        "combined_f1": 2 * ciou * acc / (ciou + acc + 1e-10),
        "tampered_recall": cm[2, 2] / cm[2].sum(),
    }  # fmt: skip


def _random_samples(seed: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    out = []
    for k in range(14):
        cls = int(rng.integers(0, 3)) if k > 2 else 2
        s: dict = {"stem": f"im{k}", "cls": cls, "pred_cls": int(rng.integers(0, 3))}
        if cls == 2:
            h, w = int(rng.integers(20, 60)), int(rng.integers(20, 60))
            soft = np.zeros((h, w), np.uint8)
            if k != 4:  # im4: an empty truth, still a tampered image
                y, x = int(rng.integers(0, h // 2)), int(rng.integers(0, w // 2))
                soft[y : y + h // 2, x : x + w // 3] = 255
                soft[y : y + 2, :] = rng.integers(0, 256, (min(2, h - y), w))  # soft edge
            s["soft"] = soft
            nh, nw = release_truth(soft).shape
            s["logits"] = (rng.normal(0, 2, (nh, nw)) + 3 * (_oracle_truth(soft) - 0.5)).astype(
                np.float32
            )
            n_obj = int(rng.integers(0, 3))
            s["objects"] = sorted({int(v) for v in rng.integers(0, 81, n_obj)})
            s["probs"] = rng.random(81) ** 3
        out.append(s)
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_release_convention_matches_the_released_script(seed: int) -> None:
    samples = _random_samples(seed)
    items = [
        Item(
            s["stem"], s["cls"], truth=s.get("soft"), pred=s.get("logits"),
            pred_cls=s["pred_cls"], objects=s.get("objects"), pred_objects=s.get("probs"),
        )
        for s in samples
    ]  # fmt: skip
    res = evaluate(items, convention="pixar-release")
    want = _oracle(samples)
    n_t = sum(s["cls"] == 2 for s in samples)
    assert res["n_images"] == n_t and res["n_not_tampered"] == len(samples) - n_t
    for k in ("giou", "ciou", "precision", "recall", "f1", "auc", "combined_f1"):
        assert res[k] == pytest.approx(100 * want[k], rel=1e-9, abs=1e-9), k
    assert res["image_level"]["accuracy"] == pytest.approx(100 * want["accuracy"])
    assert res["image_level"]["per_class"]["tampered"]["recall"] == pytest.approx(
        100 * want["tampered_recall"]
    )
    for k in ("micro_precision", "micro_recall", "micro_f1", "macro_precision", "macro_recall",
              "macro_f1", "subset_accuracy", "top1", "top5"):  # fmt: skip
        assert res["semantic"][k] == pytest.approx(100 * want[k], rel=1e-9, abs=1e-9), k


def test_release_auc_within_its_bound_of_exact_auc() -> None:
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(5)
    t = rng.random((64, 64)) < 0.3
    logits = rng.normal(0, 1, t.shape).astype(np.float32) + 1.5 * t
    logits[:4] = 40.0  # many pixels in the top bin (s = 1.0): the script's first segment
    seg = ReleaseSegmentation()
    seg.add(t, logits)
    m = seg.metrics()
    exact = roc_auc_score(t.ravel(), 1 / (1 + np.exp(-logits.astype(np.float64).ravel())))
    assert abs(m["auc"] - exact) <= m["auc_tie_bound"] + 1e-12
    assert m["auc_tie_bound"] > 0.001  # the top-bin pairs counted 0, as the script does


def test_release_truth_keeps_only_pixels_still_at_255() -> None:
    soft = np.zeros((4, 8), np.uint8)
    soft[:, 4:] = 255
    t = release_truth(soft)
    assert t.shape == (512, 1024)
    up = np.array(Image.fromarray(soft).resize((1024, 512), Image.Resampling.BILINEAR))
    assert np.array_equal(t, up == 255) and (up[:, 500:524] % 255 != 0).any()


def test_default_segments_tampered_images_only_and_keeps_empty_tampered_truths() -> None:
    t = np.zeros((4, 4), bool)
    t[:2] = True  # 8 px
    p = np.zeros((4, 4), bool)
    p[:1] = True  # 4 px inside: IoU 0.5
    empty = np.zeros((4, 4), bool)
    items = [
        Item("t1", 2, truth=t, pred=p, pred_cls=2),
        Item("t2", 2, truth=empty, pred=empty, pred_cls=0),  # tampered, empty truth: IoU 1
        Item("r1", 0, pred_cls=0),  # real: image level only (its empty map would score 1)
        Item("f1", 1, pred_cls=2),
    ]
    res = evaluate(items)
    assert res["n_images"] == 2 and res["n_not_tampered"] == 2
    assert res["giou"] == pytest.approx(75.0)  # (0.5 + 1) / 2, not (0.5 + 1 + 1) / 3
    assert res["ciou"] == pytest.approx(50.0)
    il = res["image_level"]
    assert il["accuracy"] == 50.0 and il["confusion"] == [[1, 0, 0], [0, 0, 1], [1, 0, 1]]
    assert il["per_class"]["tampered"]["precision"] == 50.0
    # combined F1: harmonic mean of cIoU 0.5 and accuracy 0.5
    assert res["combined_f1"] == pytest.approx(50.0)


def test_default_semantic_matches_sklearn_over_present_classes() -> None:
    from sklearn.metrics import precision_recall_fscore_support

    rng = np.random.default_rng(3)
    truths, probs, items = [], [], []
    for k in range(30):
        g = sorted({int(v) for v in rng.integers(0, 12, int(rng.integers(0, 3)))})
        pr = np.zeros(81)
        pr[:12] = rng.random(12)
        truths.append(g)
        probs.append(pr)
        items.append(
            Item(f"i{k}", 2, truth=np.ones((2, 2), bool), pred=np.ones((2, 2), bool),
                 objects=g, pred_objects=pr)
        )  # fmt: skip
    sem = evaluate(items)["semantic"]
    y = np.zeros((30, 81), int)
    for i, g in enumerate(truths):
        y[i, g] = 1
    yp = (np.array(probs) >= 0.5).astype(int)
    present = [c for c in range(81) if y[:, c].any() or yp[:, c].any()]
    p, r, f, _ = precision_recall_fscore_support(
        y, yp, labels=present, average="macro", zero_division=0
    )
    assert sem["macro_precision"] == pytest.approx(100 * p)
    assert sem["macro_recall"] == pytest.approx(100 * r)
    assert sem["macro_f1"] == pytest.approx(100 * f)
    mp, _, mf, _ = precision_recall_fscore_support(y, yp, average="micro", zero_division=0)
    assert sem["micro_f1"] == pytest.approx(100 * mf) and sem["micro_precision"] == pytest.approx(
        100 * mp
    )
    valid = y.any(axis=1)
    assert sem["subset_accuracy"] == pytest.approx(100 * (y == yp).all(axis=1)[valid].mean())
    assert sem["n"] == int(valid.sum()) and sem["n_tampered"] == 30


def test_default_size_blocks_carry_their_tie_bound() -> None:
    acc = LocalizationAccumulator(bins=4)
    t = np.zeros((10, 10), bool)
    t[:5] = True
    acc.add(t, np.where(t, 0.6, 0.55).astype(np.float32))  # both in bin 2: all pairs tie
    r = acc.result()
    assert r["by_size"]["small"]["auc_tie_bound"] == pytest.approx(0.5)
    assert r["by_size"]["small"]["auc"] == pytest.approx(0.5)
    assert r["by_size"]["large"]["auc_tie_bound"] is None


def _png(path: Path, arr: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    assert cv2.imwrite(str(path), arr)


def _release_tree(root: Path) -> None:
    img = np.full((8, 8, 3), 128, np.uint8)
    _png(root / "real" / "r1.jpg", img)
    _png(root / "full_synthetic" / "s1.png", img)
    for stem in ("t1", "t2", "t3"):
        _png(root / "tampered" / f"{stem}.png", img)
    m = np.zeros((8, 8), np.uint8)
    m[:4] = 255
    _png(root / "masks" / "t1_mask.png", m)
    soft = m.copy()
    soft[3] = 128  # the soft edge: a truth pixel by default, not under pixar-release
    _png(root / "soft_masks" / "t1_mask.png", soft)
    _png(root / "masks" / "t2_mask.png", np.zeros((8, 8), np.uint8))  # empty truth, kept
    # t3 has no mask: left out, as the released loader does
    (root / "metadata").mkdir()
    (root / "metadata" / "t1_cls.json").write_text(json.dumps({"cls": ["dog", 80]}))
    (root / "metadata" / "t2_cls.json").write_text("not json")


def test_cli_scores_a_release_split(tmp_path: Path) -> None:
    root = tmp_path / "pixar" / "validation"
    _release_tree(root)
    pred = tmp_path / "pred"
    pred.mkdir()
    p = np.zeros((8, 8), np.float32)
    p[:3] = 0.9  # rows 0-2
    np.save(pred / "t1.npy", p)
    np.save(pred / "t2.npy", np.zeros((8, 8), np.float32))
    labels = tmp_path / "labels.jsonl"
    labels.write_text(
        '{"image": "r1", "class": "real"}\n{"image": "s1", "class": "tampered"}\n'
        '{"image": "t1", "class": 2, "objects": {"dog": 0.9, "cat": 0.6}}\n'
        '{"image": "t2.png", "class": "tampered", "objects": ["cat"]}\n'
    )
    js = tmp_path / "out.json"
    args = ["pixar", "score", "--dataset", str(tmp_path / "pixar"), "--split", "validation",
            "--pred", str(pred), "--pred-labels", str(labels), "--json", str(js)]  # fmt: skip
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    d = json.loads(js.read_text())
    assert d["n_images"] == 2 and d["n_not_tampered"] == 2 and d["no_mask"] == ["t3"]
    assert d["no_metadata"] == ["t2"]
    # default: truth t1 = rows 0-3 (32 px), prediction rows 0-2 (24 px): IoU 0.75; t2: 1
    assert d["giou"] == pytest.approx(87.5) and d["ciou"] == pytest.approx(75.0)
    assert d["image_level"]["accuracy"] == pytest.approx(75.0)
    sem = d["semantic"]  # t1: truth {dog, background}, predicted {dog, cat}; t2: no truth
    assert sem["top1"] == 100.0 and sem["n"] == 1 and sem["subset_accuracy"] == 0.0
    assert sem["micro_precision"] == pytest.approx(100 / 3) and sem["micro_recall"] == 50.0
    np.save(pred / "t2.npy", np.full((8, 8), -3.0, np.float32))  # logits
    res = runner.invoke(app, args)
    assert res.exit_code == 2 and "scores must lie in [0, 1]" in res.stderr  # default: [0, 1]
    res = runner.invoke(app, [*args, "--convention", "pixar-release"])
    assert res.exit_code == 0, res.output
    d = json.loads(js.read_text())
    # pixar-release: the soft truth (row 3 at 128) upsampled to 1024 x 1024, kept where 255;
    # the prediction (rows 0-2) resized nearest-neighbour to rows 0-383
    assert d["convention"] == "pixar-release" and d["resized"] == ["t1", "t2"]
    soft = np.zeros((8, 8), np.uint8)
    soft[:3], soft[3] = 255, 128
    truth = np.array(Image.fromarray(soft).resize((1024, 1024), Image.Resampling.BILINEAR)) == 255
    pred_up = np.zeros((1024, 1024), bool)
    pred_up[:384] = True
    iou = (truth & pred_up).sum() / (truth | pred_up).sum()
    assert 0.5 < iou < 1 and d["ciou"] == pytest.approx(100 * iou)
    assert d["giou"] == pytest.approx(100 * (iou * (1 - 1e-5 / (truth | pred_up).sum()) + 1) / 2)
    assert d["semantic"]["subset_accuracy"] == 0.0 and d["semantic"]["n_tampered"] == 2
    # per class: dog TP 1 (F1 1), cat FP 2 (t1 and t2), background FN 1: macro over 81 classes
    assert d["semantic"]["macro_f1"] == pytest.approx(100 / 81)


def test_cli_classes_keep_real_maps_out_of_segmentation(tmp_path: Path) -> None:
    truth, pred = tmp_path / "truth", tmp_path / "pred"
    t = np.zeros((4, 4), np.uint8)
    t[:2] = 255
    _png(truth / "a.png", t)
    _png(truth / "real.png", np.zeros((4, 4), np.uint8))
    _png(pred / "a.png", np.where(np.arange(16).reshape(4, 4) < 4, 255, 0).astype(np.uint8))
    js = tmp_path / "m.json"
    base = ["pixar", "score", "--truth", str(truth), "--pred", str(pred), "--json", str(js)]
    assert runner.invoke(app, base).exit_code == 0
    assert json.loads(js.read_text())["giou"] == pytest.approx(75.0)  # the old, inflated count
    csv = tmp_path / "classes.csv"
    csv.write_text("image,class\na.png,tampered\nreal,real\n")
    res = runner.invoke(app, [*base, "--classes", str(csv)])
    assert res.exit_code == 0, res.output
    d = json.loads(js.read_text())
    assert d["giou"] == pytest.approx(50.0) and d["n_images"] == 1 and d["n_not_tampered"] == 1


def test_cli_score_errors_are_one_line(tmp_path: Path) -> None:
    truth, pred = tmp_path / "truth", tmp_path / "pred"
    _png(truth / "a.png", np.zeros((4, 4), np.uint8))
    pred.mkdir()
    base = ["pixar", "score", "--pred", str(pred)]
    cases = [
        ([], "exactly one of --truth and --dataset"),
        (["--truth", str(truth), "--dataset", str(tmp_path)], "exactly one"),
        (["--truth", str(truth), "--convention", "sida"], "--convention"),
        (["--dataset", str(tmp_path)], "not a PIXAR release split"),
        (["--truth", str(truth), "--split", "validation"], "--split goes with --dataset"),
        (["--dataset", str(tmp_path), "--classes", str(tmp_path / "c.csv")], "--classes goes"),
    ]
    bad_csv = tmp_path / "c.csv"
    bad_csv.write_text("image,class\na,alien\n")
    cases.append((["--truth", str(truth), "--classes", str(bad_csv)], "c.csv:2"))
    missing = tmp_path / "m.csv"
    missing.write_text("image,class\nb,tampered\n")
    cases.append((["--truth", str(truth), "--classes", str(missing)], "no truth map"))
    bad_jsonl = tmp_path / "l.jsonl"
    bad_jsonl.write_text('{"image": "a", "objects": {"unicorn": 1}}\n')
    cases.append((["--truth", str(truth), "--pred-labels", str(bad_jsonl)], "l.jsonl:1"))
    for extra, msg in cases:
        res = runner.invoke(app, [*base, *extra])
        assert res.exit_code == 2, (extra, res.output)
        assert msg in res.stderr and len(res.stderr.strip().splitlines()) == 1, res.stderr


def test_class_list_has_81_entries_in_release_order() -> None:
    assert len(CLASSES) == 81 and CLASSES[0] == "person" and CLASSES[80] == "background"


def test_cli_scores_a_release_split_under_imdl(tmp_path: Path) -> None:
    """tampered/ images with a mask are tampered (t2's empty mask too), real and fully synthetic
    ones enter the image level only; an image without a map scores 0."""
    root = tmp_path / "pixar"
    _release_tree(root)
    pred = tmp_path / "pred"
    pred.mkdir()
    p = np.zeros((8, 8), np.float32)
    p[:3] = 0.9
    np.save(pred / "t1.npy", p)
    js = tmp_path / "out.json"
    res = runner.invoke(app, ["pixar", "score", "--dataset", str(root), "--pred", str(pred),
                              "--convention", "imdl", "--json", str(js)])  # fmt: skip
    assert res.exit_code == 0, res.output
    d = json.loads(js.read_text())
    assert d["n_images"] == 4 and d["n_tampered"] == 2 and d["missing"] == ["t2"]
    f1_t1 = 2 * 1.0 * 0.75 / 1.75  # rows 0-2 of rows 0-3: P 1, R 0.75; t2 (empty truth) 0
    assert d["pixel"]["f1"] == pytest.approx(f1_t1 / 2, abs=1e-6)
    # t1: 24 of 32 tampered pixels above every untampered one, 8 tied with them: 0.875;
    # t2 has no tampered pixel: 0.0, as PixelAUC returns
    assert d["pixel"]["auc"] == pytest.approx((0.875 + 0.0) / 2)
    assert d["image"]["tpr"] == 0.5 and d["image"]["tnr"] == 1.0 and d["image"]["acc"] == 0.75
