"""Pixel labels: the threshold convention, resizing, the fast path and edit magnitude."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from forgebench.construct.pixels import (
    edit_magnitude,
    label_reference,
    labels_u8,
    match_size,
    mean_abs_diff,
    pixel_label,
    threshold_count,
)


def _pair_with_sums(sums: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """1 x N images whose per-pixel channel sums of |o - e| are ``sums``."""
    o = np.full((1, len(sums), 3), 100, dtype=np.uint8)
    e = o.copy()
    for i, s in enumerate(sums):
        parts = [min(s, 100), min(max(s - 100, 0), 100), max(s - 200, 0)]
        e[0, i] = [100 + parts[0], 100 - parts[1], 100 + parts[2]]
    assert (np.abs(o.astype(int) - e.astype(int)).sum(axis=2)[0] == sums).all()
    return o, e


def test_changed_means_strictly_greater_than_tau() -> None:
    # tau = 0.05: d = S / 765 > 0.05 <=> S > 38.25: S = 38 unchanged, S = 39 changed
    o, e = _pair_with_sums([0, 38, 39, 300])
    assert pixel_label(o, e, 0.05).tolist() == [[False, False, True, True]]


def test_exact_tie_is_not_changed() -> None:
    # tau = 0.2: 765 * 0.2 = 153 exactly; d = 153/765 = 0.2 is not > 0.2
    o, e = _pair_with_sums([152, 153, 154])
    assert threshold_count(0.2) == 153
    assert pixel_label(o, e, 0.2).tolist() == [[False, False, True]]


@pytest.mark.parametrize(("tau", "k"), [(0.05, 38), (0.1, 76), (0.15, 114), (0.0, 0), (0.5, 382)])
def test_threshold_count_is_floor_of_765_tau(tau: float, k: int) -> None:
    assert threshold_count(tau) == k


@pytest.mark.parametrize("tau", [-0.1, 1.0, 2.0])
def test_tau_outside_unit_interval_is_refused(tau: float) -> None:
    with pytest.raises(ValueError, match="tau"):
        threshold_count(tau)


def test_fast_path_equals_float_definition_for_many_taus() -> None:
    rng = np.random.default_rng(3)
    o = rng.integers(0, 256, (64, 96, 3), dtype=np.uint8)
    noise = rng.integers(-200, 200, o.shape)
    e = np.clip(o.astype(int) + noise, 0, 255).astype(np.uint8)
    taus = [0.0, 0.01, 0.05, 0.1, 0.15, 0.3, 0.34, 0.5, 0.9]
    for tau, lab in zip(taus, labels_u8(o, e, taus), strict=True):
        ref = label_reference(o, e, tau)
        assert np.array_equal(lab != 0, ref), tau
        assert set(np.unique(lab)) <= {0, 255}


def test_difference_map_is_mean_abs_rgb_in_unit_range() -> None:
    o = np.zeros((1, 1, 3), dtype=np.uint8)
    e = np.array([[[255, 0, 51]]], dtype=np.uint8)
    assert mean_abs_diff(o, e)[0, 0] == pytest.approx((1.0 + 0.0 + 0.2) / 3)


def test_smaller_edit_is_enlarged_with_cubic_and_larger_shrunk_with_area() -> None:
    rng = np.random.default_rng(0)
    small = rng.integers(0, 256, (30, 40, 3), dtype=np.uint8)
    big = rng.integers(0, 256, (120, 160, 3), dtype=np.uint8)
    up = match_size(small, 60, 80)
    assert np.array_equal(up, cv2.resize(small, (80, 60), interpolation=cv2.INTER_CUBIC))
    down = match_size(big, 60, 80)
    assert np.array_equal(down, cv2.resize(big, (80, 60), interpolation=cv2.INTER_AREA))
    # one side grows, the other shrinks: cubic (PIXAR's rule)
    mixed = match_size(small, 20, 80)
    assert np.array_equal(mixed, cv2.resize(small, (80, 20), interpolation=cv2.INTER_CUBIC))
    assert match_size(small, 30, 40) is small


def test_label_of_a_rescaled_identical_edit_is_nearly_empty() -> None:
    o = cv2.GaussianBlur(
        np.random.default_rng(1).integers(0, 256, (64, 64, 3), dtype=np.uint8), (0, 0), 3
    )
    e = cv2.resize(o, (128, 128), interpolation=cv2.INTER_CUBIC)  # editor returned 2x
    lab = pixel_label(o, e, 0.05)
    assert lab.shape == (64, 64)
    assert lab.mean() < 0.02


def test_bad_arrays_are_refused() -> None:
    o = np.zeros((4, 4, 3), dtype=np.uint8)
    with pytest.raises(ValueError, match="uint8"):
        pixel_label(o, np.zeros((4, 4, 3), dtype=np.float32))
    with pytest.raises(ValueError, match="uint8"):
        pixel_label(o[:, :, 0], o)


def test_edit_magnitude_inside_outside_and_overlap() -> None:
    lab = np.zeros((10, 10), dtype=bool)
    lab[0:2, 0:5] = True  # 10 changed pixels
    lab[9, 9] = True  # 1 off-mask change
    mask = np.zeros((10, 10), dtype=bool)
    mask[0:4, 0:5] = True  # 20 mask pixels, 10 of them changed
    m = edit_magnitude(lab, mask)
    assert (m.changed, m.total) == (11, 100)
    assert m.share == pytest.approx(0.11)
    assert m.inside == pytest.approx(10 / 20)
    assert m.outside == pytest.approx(1 / 80)
    assert m.overlap == pytest.approx(10 / 11)
    plain = edit_magnitude(lab)
    assert plain.inside is None and plain.share == pytest.approx(0.11)


def test_edit_magnitude_of_empty_label_and_full_mask() -> None:
    m = edit_magnitude(np.zeros((4, 4), bool), np.ones((4, 4), bool))
    assert m.share == 0.0 and m.inside == 0.0 and m.outside is None and m.overlap is None
    with pytest.raises(ValueError, match="shape"):
        edit_magnitude(np.zeros((4, 4), bool), np.ones((3, 4), bool))
