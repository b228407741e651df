"""Localization, image-level and semantic metrics against hand-computed cases."""

from __future__ import annotations

import numpy as np
import pytest

from forgebench.suites.pixar import localization
from forgebench.suites.pixar.localization import (
    AucHistogram,
    LocalizationAccumulator,
    exact_auc,
    iou,
    size_class,
)
from forgebench.suites.pixar.tamper_class import ImageClassAccumulator, SemanticAccumulator


def _m(rows: list[str]) -> np.ndarray:
    return np.array([[c == "1" for c in r] for r in rows])


def test_hand_computed_two_images() -> None:
    # image A: truth 4 px, pred 4 px, overlap 2 -> IoU 2/6
    ta, pa = _m(["1100", "1100", "0000"]), _m(["0110", "0110", "0000"])
    # image B: truth 2 px, pred 1 px inside -> IoU 1/2
    tb, pb = _m(["0000", "0011", "0000"]), _m(["0000", "0001", "0000"])
    acc = LocalizationAccumulator()
    assert acc.add(ta, pa) == pytest.approx(2 / 6)
    assert acc.add(tb, pb) == pytest.approx(1 / 2)
    r = acc.result()
    assert r["giou"] == pytest.approx((2 / 6 + 1 / 2) / 2)
    assert r["ciou"] == pytest.approx(3 / 8)  # (2 + 1) / (6 + 2)
    assert r["precision"] == pytest.approx(3 / 5)  # TP 3, FP 2
    assert r["recall"] == pytest.approx(3 / 6)  # FN 3
    assert r["f1"] == pytest.approx(2 * 0.6 * 0.5 / 1.1)
    assert "auc" not in r and r["n_images"] == 2


def test_empty_truth_and_empty_prediction_scores_one() -> None:
    acc = LocalizationAccumulator()
    z = np.zeros((3, 3), bool)
    assert acc.add(z, z) == 1.0
    r = acc.result()
    assert r["giou"] == 1.0
    # pooled quantities have zero denominators: 0 by convention
    assert r["ciou"] == 0.0 and r["precision"] == 0.0 and r["recall"] == 0.0 and r["f1"] == 0.0


def test_empty_truth_with_prediction_and_missed_truth_score_zero() -> None:
    z, o = np.zeros((2, 2), bool), np.ones((2, 2), bool)
    assert iou(z, o) == 0.0 and iou(o, z) == 0.0
    acc = LocalizationAccumulator()
    acc.add(z, o)
    acc.add(o, z)
    r = acc.result()
    assert r["giou"] == 0.0 and r["ciou"] == 0.0 and r["f1"] == 0.0


def test_all_positive_masks_are_perfect() -> None:
    o = np.ones((4, 5), bool)
    acc = LocalizationAccumulator()
    acc.add(o, o.astype(np.uint8) * 255)
    r = acc.result()
    assert all(r[k] == 1.0 for k in ("giou", "ciou", "precision", "recall", "f1"))


def test_score_maps_binarise_at_threshold_inclusive() -> None:
    t = _m(["11", "00"])
    s = np.array([[0.5, 0.49], [0.5, 0.1]], dtype=np.float32)
    acc = LocalizationAccumulator(threshold=0.5)
    acc.add(t, s)
    r = acc.result()
    assert r["precision"] == pytest.approx(1 / 2) and r["recall"] == pytest.approx(1 / 2)
    # AUC: positives {0.5, 0.49}, negatives {0.5, 0.1}: pairs (0.5>0.1)=1, (0.5=0.5)=.5,
    # (0.49<0.5)=0, (0.49>0.1)=1 -> 2.5 / 4
    assert r["auc"] == pytest.approx(0.625)
    assert r["auc_tie_bound"] == pytest.approx(0.5 * 1 / 4)  # one pos/neg pair shares a bin


def test_mixed_masks_and_score_maps_give_no_auc() -> None:
    acc = LocalizationAccumulator()
    acc.add(np.ones((2, 2), bool), np.ones((2, 2), np.float32))
    acc.add(np.ones((2, 2), bool), np.ones((2, 2), bool))
    assert "auc" not in acc.result()


def test_histogram_auc_matches_exact_rank_auc_within_its_bound() -> None:
    rng = np.random.default_rng(7)
    hist = AucHistogram(bins=1000)
    all_s, all_t = [], []
    for _ in range(5):  # streamed over 5 images
        t = rng.random((40, 50)) < 0.3
        s = np.clip(rng.normal(0.45 + 0.2 * t, 0.2), 0, 1).astype(np.float32)
        hist.add(s, t)
        all_s.append(s)
        all_t.append(t)
    exact = exact_auc(np.concatenate([a.ravel() for a in all_s]), np.concatenate(
        [a.ravel() for a in all_t]))  # fmt: skip
    assert exact is not None and 0.7 < exact < 0.85
    binned, bound = hist.auc(), hist.tie_bound()
    assert binned is not None and bound is not None
    assert abs(binned - exact) <= bound + 1e-12
    assert abs(binned - exact) < 1e-3


def test_histogram_auc_is_exact_when_scores_sit_in_distinct_bins() -> None:
    s = np.array([0.05, 0.15, 0.35, 0.55, 0.75, 0.95], dtype=np.float32)
    t = np.array([0, 1, 0, 1, 1, 0], dtype=bool)
    h = AucHistogram(bins=10)
    h.add(s, t)
    assert h.auc() == pytest.approx(exact_auc(s, t)) and h.tie_bound() == 0.0
    assert exact_auc(s, t) == pytest.approx(5 / 9)


def test_auc_undefined_without_both_classes() -> None:
    h = AucHistogram(bins=10)
    h.add(np.array([0.2, 0.9], np.float32), np.array([True, True]))
    assert h.auc() is None and exact_auc(np.array([0.1]), np.array([1])) is None


@pytest.mark.parametrize(
    ("n", "cls"),
    [(0, "small"), (22_999, "small"), (23_000, "medium"), (49_999, "medium"), (50_000, "large")],
)
def test_size_classes_of_figure14(n: int, cls: str) -> None:
    assert size_class(n) == cls


def test_by_size_blocks_and_empty_classes_are_none() -> None:
    acc = LocalizationAccumulator()
    big = np.zeros((250, 250), bool)
    big[:, :] = True  # 62,500 px: large
    acc.add(big, big)
    small = np.zeros((10, 10), bool)
    small[0, 0] = True
    acc.add(small, np.zeros((10, 10), bool))
    r = acc.result()
    assert r["by_size"]["large"]["giou"] == 1.0 and r["by_size"]["large"]["n_images"] == 1
    assert r["by_size"]["small"]["giou"] == 0.0
    assert r["by_size"]["medium"]["giou"] is None and r["by_size"]["medium"]["n_images"] == 0


def test_shape_mismatch_and_bad_threshold_are_refused() -> None:
    acc = LocalizationAccumulator()
    with pytest.raises(ValueError, match="shape"):
        acc.add(np.zeros((2, 2), bool), np.zeros((2, 3), bool))
    with pytest.raises(ValueError, match="threshold"):
        LocalizationAccumulator(threshold=0.0)


def test_image_level_confusion_and_table4_overall() -> None:
    acc = ImageClassAccumulator()
    pairs = [("real", "real"), ("real", "tampered"), ("full_synthetic", "full_synthetic"),
             ("tampered", "real"), ("tampered", "tampered"), ("tampered", "full_synthetic")]  # fmt: skip
    for t, p in pairs:
        acc.add(t, p)
    r = acc.result()
    assert r["confusion"] == [[1, 0, 1], [0, 1, 0], [1, 1, 1]]
    assert r["accuracy"] == pytest.approx(3 / 6)
    tam = r["per_class"]["tampered"]  # TP 1, FP 1, FN 2
    assert (tam["precision"], tam["recall"]) == (pytest.approx(1 / 2), pytest.approx(1 / 3))
    real, fake = r["binary"]["real"], r["binary"]["fake"]
    # binary: real->real 1, real->fake 1, fake->real 1, fake->fake 3
    assert real["precision"] == pytest.approx(1 / 2) and real["recall"] == pytest.approx(1 / 2)
    assert fake["precision"] == pytest.approx(3 / 4) and fake["recall"] == pytest.approx(3 / 4)
    assert r["binary"]["overall"]["precision"] == pytest.approx((1 / 2 + 3 / 4) / 2)
    with pytest.raises(ValueError, match="unknown image class"):
        acc.add("maybe", "real")


def test_image_level_empty_class_scores_zero() -> None:
    acc = ImageClassAccumulator()
    acc.add(2, 2)
    r = acc.result()
    assert r["per_class"]["real"] == {"precision": 0.0, "recall": 0.0, "f1": 0.0}


def test_semantic_top1_top5() -> None:
    acc = SemanticAccumulator()
    acc.add("dog", ["dog", "cat"])  # top1 hit
    acc.add("couch", ["chair", "bed", "tv", "bench", "sofa", "dog"])  # 5th (synonym): top5
    acc.add(["car", "truck"], ["bus", "a", "b", "c", "d", "car"])  # 6th named (2 unknown dropped)
    acc.add("bird", ["cat", "dog", "horse", "sheep", "cow", "bird"])  # 6th: miss
    acc.add("", ["dog"])  # no truth class: not counted
    vec = np.zeros(81)
    vec[80] = 1.0
    acc.add("background", vec)  # score vector: argmax background
    r = acc.result()
    assert r["n"] == 5 and acc.skipped == 1
    assert r["top1"] == pytest.approx(2 / 5)
    assert r["top5"] == pytest.approx(4 / 5)


def _bins_by_index(s: np.ndarray, t: np.ndarray, bins: int) -> tuple[np.ndarray, np.ndarray]:
    """The binning rule written as an index array: ``min(max(floor(float32(s) * bins), 0),
    bins - 1)``, positives offset by ``bins``, one ``bincount``."""
    idx = (np.asarray(s, dtype=np.float32) * np.float32(bins)).astype(np.int64)
    idx = np.clip(idx, 0, bins - 1) + np.asarray(t, dtype=bool).astype(np.int64) * bins
    counts = np.bincount(idx.ravel(), minlength=2 * bins)
    return counts[:bins], counts[bins:]


@pytest.mark.parametrize("numpy_path", [False, True])
@pytest.mark.parametrize("bins", [2, 10, 512, 10_000])
def test_bin_counts_follow_the_binning_rule_at_every_edge(
    bins: int, numpy_path: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if numpy_path:  # the path of images with 2^24 pixels or more
        monkeypatch.setattr(localization, "EXACT_FLOAT_COUNTS", 0)
    rng = np.random.default_rng(bins)
    edges = np.arange(bins + 1, dtype=np.float32) / np.float32(bins)
    special = np.float32([0.0, -0.0, 1.0, -1e-8, -0.5, -3.0, 1.0000001, 2.0, 0.49999997])
    values = np.concatenate([edges, np.nextafter(edges, np.float32(-1)),
                             np.nextafter(edges, np.float32(2)), special,
                             rng.random(4000, dtype=np.float32)])  # fmt: skip
    s = values[: (values.size // 50) * 50].reshape(-1, 50)
    t = rng.random(s.shape) < 0.3
    for scores in (s, s.astype(np.float64)):
        neg, pos = localization.bin_counts(scores, t, bins)
        want_neg, want_pos = _bins_by_index(scores, t, bins)
        assert neg.dtype == pos.dtype == np.int64
        assert np.array_equal(neg, want_neg) and np.array_equal(pos, want_pos)
        assert neg.sum() == (~t).sum() and pos.sum() == t.sum()


def test_an_image_is_counted_once_for_the_overall_and_its_size_class() -> None:
    rng = np.random.default_rng(11)
    t = np.zeros((200, 200), bool)
    t[:100, :] = True  # 20,000 changed pixels: a small edit
    s = rng.random(t.shape, dtype=np.float32)
    acc = LocalizationAccumulator(bins=100)
    acc.add(t, s)
    want_neg, want_pos = _bins_by_index(s, t, 100)
    for hist in (acc.hist, acc.size_hist["small"]):
        assert np.array_equal(hist.neg, want_neg) and np.array_equal(hist.pos, want_pos)
    assert acc.size_hist["large"].pos.sum() == acc.size_hist["large"].neg.sum() == 0
