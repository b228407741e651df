"""How PIXAR's reader decodes masks and images: a mask keeps every nonzero sample whatever its
depth or channel, an image reads as OpenCV's IMREAD_COLOR in RGB order."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from forgebench.suites.pixar.pairs import read_mask, read_rgb


def test_a_16_bit_mask_keeps_values_below_256(tmp_path: Path) -> None:
    mask = np.zeros((6, 8), np.uint16)
    mask[1:3, 2:5] = 100  # 0 once scaled to 8 bits: a colour read would lose it
    mask[4, 6] = 65535
    path = tmp_path / "mask16.png"
    assert cv2.imwrite(str(path), mask)
    assert np.array_equal(read_mask(path), mask != 0)


def test_an_rgba_mask_counts_its_alpha_channel(tmp_path: Path) -> None:
    mask = np.zeros((5, 7, 4), np.uint8)
    mask[2, 3, 3] = 255  # only alpha marks this pixel
    mask[0, 0, :3] = 9
    path = tmp_path / "mask_rgba.png"
    assert cv2.imwrite(str(path), mask)
    want = np.zeros((5, 7), bool)
    want[2, 3] = want[0, 0] = True
    assert np.array_equal(read_mask(path), want)


def test_images_read_as_opencv_colour_in_rgb_order(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    for name, img in {
        "rgb.png": rng.integers(0, 256, (9, 11, 3), dtype=np.uint8),
        "rgba.png": rng.integers(0, 256, (9, 11, 4), dtype=np.uint8),
        "grey.png": rng.integers(0, 256, (9, 11), dtype=np.uint8),
    }.items():
        path = tmp_path / name
        assert cv2.imwrite(str(path), img)
        want = cv2.cvtColor(cv2.imread(str(path), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
        got = read_rgb(path)
        assert got.dtype == np.uint8 and np.array_equal(got, want), name
