"""Effectiveness checks: Table 13 spatial concentration (every row), rectification, and the
effectiveness gate of a candidate with its label at tau."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import cv2
import numpy as np
import pytest
import skimage.data
from PIL import Image

from forgebench.construct import editors as ed
from forgebench.construct.pixels import label_reference, pixel_label
from forgebench.suites.pixar.construct.checks import (
    decide_concentration,
    pixar_effectiveness,
    rectified_label,
    rectify,
    spatial_concentration,
)

F = Fraction

# (r_grid, r_dens, expected label, expected row of seed 003 Table 13)
TABLE13 = [
    # row 1: r_grid <= 0.20 -> Concentrated, whatever r_dens
    (F(1, 5), F(0), "Concentrated", 1),
    (F(1, 10), F(1, 100), "Concentrated", 1),
    # row 2: r_grid >= 0.50 -> Diverse, whatever r_dens
    (F(1, 2), F(1), "Diverse", 2),
    (F(9, 10), F(9, 10), "Diverse", 2),
    # row 3: 0.20 < r_grid < 0.50 and r_dens >= 0.35 -> Concentrated
    (F(21, 100), F(35, 100), "Concentrated", 3),
    (F(49, 100), F(9, 10), "Concentrated", 3),
    # row 4: 0.20 < r_grid < 0.50 and r_dens <= 0.25 -> Diverse
    (F(21, 100), F(1, 4), "Diverse", 4),
    (F(49, 100), F(0), "Diverse", 4),
    # row 5: middle band, tie-break r_grid (1 - r_dens) <= 0.25 -> Concentrated
    (F(1, 4) / F(7, 10), F(3, 10), "Concentrated", 5),  # exactly 0.25
    (F(3, 10), F(3, 10), "Concentrated", 5),  # 0.21
    # row 6: middle band, tie-break > 0.25 -> Diverse
    (F(45, 100), F(3, 10), "Diverse", 6),  # 0.315
    (F(4, 10), F(26, 100), "Diverse", 6),  # 0.296
]


@pytest.mark.parametrize(("g", "d", "label", "row"), TABLE13)
def test_every_row_of_table13(g: Fraction, d: Fraction, label: str, row: int) -> None:
    assert decide_concentration(g, d) == (label, row)


def _map_with(occupied: int, per_cell: int, grid: int = 10, cell: int = 10) -> np.ndarray:
    """A label map on a grid x grid layout of cell x cell cells: ``occupied`` cells hold
    ``per_cell`` changed pixels each."""
    lab = np.zeros((grid * cell, grid * cell), dtype=bool)
    for k in range(occupied):
        r, c = divmod(k, grid)
        flat = lab[r * cell : (r + 1) * cell, c * cell : (c + 1) * cell].reshape(-1)
        flat[:per_cell] = True
        lab[r * cell : (r + 1) * cell, c * cell : (c + 1) * cell] = flat.reshape(cell, cell)
    return lab


@pytest.mark.parametrize(
    ("occupied", "per_cell", "row"),
    [(20, 1, 1), (50, 100, 2), (30, 35, 3), (30, 25, 4), (30, 30, 5), (40, 30, 6)],
)
def test_real_label_maps_reach_every_row(occupied: int, per_cell: int, row: int) -> None:
    sc = spatial_concentration(_map_with(occupied, per_cell), grid=10)
    assert sc.r_grid == pytest.approx(occupied / 100)
    assert sc.r_dens == pytest.approx(per_cell / 100)
    assert sc.score == pytest.approx(sc.r_grid * (1 - sc.r_dens))
    assert sc.row == row
    assert sc.label == ("Concentrated" if row in (1, 3, 5) else "Diverse")


def test_one_compact_blob_is_concentrated_and_salt_noise_is_diverse() -> None:
    blob = np.zeros((256, 256), bool)
    blob[40:100, 60:140] = True
    assert spatial_concentration(blob).label == "Concentrated"
    noise = np.random.default_rng(0).random((256, 256)) < 0.02
    sc = spatial_concentration(noise)
    assert sc.r_grid == 1.0 and sc.label == "Diverse"


def test_empty_label_is_concentrated_by_row1_and_bad_grid_refused() -> None:
    sc = spatial_concentration(np.zeros((16, 16), bool))
    assert (sc.r_grid, sc.r_dens, sc.row) == (0.0, 0.0, 1)
    with pytest.raises(ValueError, match="grid"):
        spatial_concentration(np.zeros((4, 4), bool), grid=8)


def _shifted(img: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """Content moved by (dx, dy), with real (reflected) new content entering at the border."""
    pad = 2 * max(abs(dx), abs(dy)) + 1
    big = cv2.copyMakeBorder(img, pad, pad, pad, pad, cv2.BORDER_REFLECT)
    h, w = img.shape[:2]
    return big[pad - dy : pad - dy + h, pad - dx : pad - dx + w].copy()


@pytest.mark.parametrize(("dx", "dy"), [(7, 3), (-5, 0), (0, -9)])
def test_rectification_of_a_shifted_copy_leaves_a_near_empty_label(
    dx: int, dy: int, make_image: Callable[..., np.ndarray]
) -> None:
    o = make_image(160, 200, seed=2)
    e = _shifted(o, dx, dy)
    assert pixel_label(o, e).mean() > 0.3  # unrectified: most pixels look changed
    lab, r = rectified_label(o, e)
    assert r.applied and (r.dx, r.dy) == (dx, dy)
    assert lab.mean() < 0.001
    assert not r.valid.all()  # the strip that entered from outside has no counterpart


def test_rectification_of_a_rescaled_copy(make_image: Callable[..., np.ndarray]) -> None:
    o = make_image(192, 256, seed=4)
    h, w = o.shape[:2]
    m = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), 0, 1.06)
    e = cv2.warpAffine(o, m, (w, h), flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REFLECT)
    lab, r = rectified_label(o, e)
    assert r.applied and r.scale == pytest.approx(1.06, abs=0.01)
    assert r.share_before > 0.3 and lab.mean() < 0.02


def test_rectification_leaves_a_local_edit_alone(make_image: Callable[..., np.ndarray]) -> None:
    o = make_image(120, 160, seed=5)
    e = o.copy()
    e[30:60, 40:90] = 255 - e[30:60, 40:90]
    r = rectify(o, e)
    assert not r.applied and (r.dx, r.dy, r.scale) == (0, 0, 1.0)
    assert r.aligned is e or np.array_equal(r.aligned, e)
    lab, _ = rectified_label(o, e)
    assert np.array_equal(lab, pixel_label(o, e))


BASE = np.asarray(Image.fromarray(skimage.data.coffee()).resize((600, 400)))


def test_pixar_effectiveness_and_label() -> None:
    edited = ed.recolour(BASE, ed.box_mask(BASE.shape[:2], (100, 100, 220, 200)), hue_shift=120)
    r, label = pixar_effectiveness(BASE, edited)
    assert r.passed and r.details["concentration"] == "Concentrated"
    assert np.array_equal(label, label_reference(BASE, edited, 0.05))
    tiny = BASE.copy()
    tiny[10:12, 10:12] = 0
    r2, _ = pixar_effectiveness(BASE, tiny)
    assert r2.passed is False and "ineffective" in r2.reason
    noisy = BASE.astype(np.int16) + np.random.default_rng(0).integers(-60, 60, BASE.shape)
    r3, _ = pixar_effectiveness(BASE, np.clip(noisy, 0, 255).astype(np.uint8))
    assert r3.passed is False and "Diverse" in r3.reason
