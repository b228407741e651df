"""The local editors do what they say, and touch nothing outside their footprint."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw

from forgebench.construct import editors as ed
from forgebench.demo.scenes import font


def _gradient(h: int = 120, w: int = 160) -> np.ndarray:
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    img = np.stack([60 + x * 0.6, 80 + y * 0.5, 140 + 0 * x], axis=2)
    return img.round().astype(np.uint8)


def test_remove_inpaints_a_drawn_square_back_to_the_background() -> None:
    bg = _gradient()
    marked = bg.copy()
    marked[40:70, 60:100] = (250, 20, 20)
    mask = ed.box_mask(bg.shape[:2], (58, 38, 102, 72))
    for method in ("telea", "ns"):
        out = ed.remove(marked, mask, method=method)  # type: ignore[arg-type]
        err = np.abs(out[40:70, 60:100].astype(int) - bg[40:70, 60:100]).mean()
        assert err < 4.0, f"{method}: mean error {err:.2f} vs background"
        outside = mask < 0.5
        assert np.array_equal(out[outside], marked[outside])


def test_remove_refuses_an_unknown_method() -> None:
    with pytest.raises(ValueError, match="unknown inpainting method"):
        ed.remove(_gradient(), ed.box_mask((120, 160), (0, 0, 5, 5)), method="magic")  # type: ignore[arg-type]


def test_recolour_changes_hue_only_inside_the_mask_and_keeps_brightness() -> None:
    img = np.zeros((40, 80, 3), np.uint8)
    img[:, :40] = (200, 30, 30)
    img[:, 40:] = (30, 30, 200)
    mask = ed.box_mask(img.shape[:2], (10, 10, 60, 30))
    out = ed.recolour(img, mask, hue=120)
    inside = mask > 0.5
    assert np.array_equal(out[~inside], img[~inside])
    hsv_in = cv2.cvtColor(out, cv2.COLOR_RGB2HSV_FULL)[inside].astype(int)
    assert np.all(np.abs(hsv_in[:, 0] - round(120 * 256 / 360)) <= 1)
    assert np.all(np.abs(out[inside].max(axis=1).astype(int) - img[inside].max(axis=1)) <= 1)
    assert out[20, 20, 1] > out[20, 20, 0]  # the red part turned green


def test_recolour_can_tint_a_white_object_with_min_saturation() -> None:
    img = np.full((10, 10, 3), 230, np.uint8)
    mask = ed.box_mask(img.shape[:2], (0, 0, 10, 10))
    assert np.array_equal(ed.recolour(img, mask, hue=0), img)  # grey has no hue to change
    red = ed.recolour(img, mask, hue=0, min_saturation=0.5)
    assert red[5, 5, 0] == 230 and red[5, 5, 1] < 140


def test_paste_feathers_the_alpha_edge_and_leaves_the_rest() -> None:
    base = np.zeros((60, 60, 3), np.uint8)
    patch = np.full((20, 20, 3), 200, np.uint8)
    out = ed.paste(base, patch, (20, 20), feather_px=4)
    assert ed.changed_box(base, out) == (20, 20, 40, 40)
    assert out[30, 30, 0] == 200  # core fully opaque
    edge = out[20:40, 20, 0]
    assert 0 < edge.max() < 200  # soft border, neither empty nor hard
    assert out[20, 20, 0] < out[25, 25, 0] < out[30, 30, 0]  # alpha ramps inwards
    hard = ed.paste(base, patch, (20, 20), feather_px=0)
    assert hard[20, 20, 0] == 200


def test_paste_with_an_elliptical_alpha_and_clipping_at_the_border() -> None:
    base = np.full((50, 50, 3), 10, np.uint8)
    patch = np.full((30, 30, 3), 250, np.uint8)
    alpha = ed.ellipse_mask((30, 30), (14.5, 14.5), (14, 14))
    out = ed.paste(base, patch, (35, 35), alpha, feather_px=2)
    assert out.shape == base.shape
    assert out[0:35, :].tolist() == base[0:35, :].tolist()
    assert out[36, 36, 0] == 10  # the ellipse's corner is transparent
    assert out[49, 49, 0] > 200
    with pytest.raises(ValueError, match="alpha shape"):
        ed.paste(base, patch, (0, 0), np.ones((3, 3), np.float32))


def test_paste_grain_is_seeded() -> None:
    base = np.full((40, 40, 3), 100, np.uint8)
    patch = np.full((20, 20, 3), 120, np.uint8)
    a = ed.paste(base, patch, (10, 10), grain=5.0, seed=3)
    b = ed.paste(base, patch, (10, 10), grain=5.0, seed=3)
    c = ed.paste(base, patch, (10, 10), grain=5.0, seed=4)
    assert np.array_equal(a, b) and not np.array_equal(a, c)


def test_retext_replaces_the_words_inside_the_box_only() -> None:
    fnt = font(28)

    def render(text: str) -> np.ndarray:
        img = Image.new("RGB", (300, 80), (20, 40, 110))
        ImageDraw.Draw(img).text((150, 40), text, font=fnt, fill=(250, 250, 250), anchor="mm")
        return np.asarray(img).copy()

    old, new = render("NAGANO"), render("NAGOYA")
    box = (40, 15, 260, 65)
    out = ed.retext(old, box, "NAGOYA", fnt, (250, 250, 250))
    assert np.array_equal(out[:, :40], old[:, :40]) and np.array_equal(out[65:], old[65:])
    to_new = np.abs(out.astype(int) - new).mean()
    to_old = np.abs(out.astype(int) - old).mean()
    assert to_new < to_old / 3, (to_new, to_old)


def test_changed_box_is_the_exact_pixel_difference() -> None:
    a = np.zeros((30, 40, 3), np.uint8)
    b = a.copy()
    assert ed.changed_box(a, b) is None
    b[5, 7, 2] = 1
    b[12, 30, 0] = 9
    assert ed.changed_box(a, b) == (7, 5, 31, 13)
    with pytest.raises(ValueError, match="shape mismatch"):
        ed.changed_box(a, a[:10])


def test_crop_around_contains_the_region_and_stays_inside_the_image() -> None:
    for region in ((0, 0, 10, 10), (590, 390, 600, 400), (100, 50, 500, 380), (290, 190, 310, 210)):
        x0, y0, x1, y1 = ed.crop_around(region, (600, 400))
        assert 0 <= x0 <= region[0] and 0 <= y0 <= region[1]
        assert region[2] <= x1 <= 600 and region[3] <= y1 <= 400
        assert x1 - x0 >= 0.45 * 600 - 1 and y1 - y0 >= 0.45 * 400 - 1


def test_editors_refuse_non_rgb_arrays() -> None:
    with pytest.raises(ValueError, match="uint8 RGB"):
        ed.remove(np.zeros((10, 10), np.float32), np.ones((10, 10), np.float32))
