"""Robustness perturbations: every condition at every level, deterministic and monotone."""

from __future__ import annotations

import io
import itertools

import numpy as np
import pytest
from PIL import Image, ImageDraw

from forgebench.suites.forensics.ids import KINDS, LEVELS
from forgebench.suites.forensics.perturb import (
    CONDITIONS,
    block_count,
    image_seed,
    parse_condition,
    perturb,
)


def scene(w: int = 320, h: int = 272) -> Image.Image:
    """A photo-like test image: colour gradients, shapes, edges and fine texture."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    rgb = np.stack([255 * xx / w, 255 * yy / h, 255 * (1 - xx / w) * (yy / h)], axis=-1)
    rgb += np.random.default_rng(0).normal(0, 12, size=rgb.shape)
    im = Image.fromarray(np.clip(rgb, 0, 255).astype(np.uint8))
    d = ImageDraw.Draw(im)
    d.ellipse((40, 40, 160, 150), fill=(220, 40, 60))
    d.rectangle((180, 120, 300, 240), fill=(30, 200, 90))
    d.line((0, h - 1, w - 1, 0), fill=(250, 250, 250), width=3)
    return im


def mad(a: Image.Image, b: Image.Image) -> float:
    return float(np.abs(np.asarray(a, dtype=np.int16) - np.asarray(b, dtype=np.int16)).mean())


@pytest.mark.parametrize("kind", KINDS)
def test_each_level_deterministic_and_strength_monotone(kind: str) -> None:
    im = scene()
    strengths = []
    for level in LEVELS:
        a = perturb(im, f"{kind}_{level}", seed=7)
        b = perturb(im, f"{kind}_{level}", seed=7)
        assert a.size == im.size and a.mode == "RGB"
        assert a.tobytes() == b.tobytes()
        strengths.append(mad(a, im))
    assert strengths[0] > 0
    assert all(x < y for x, y in itertools.pairwise(strengths)), strengths


@pytest.mark.parametrize("kind", ["block", "noise"])
def test_seed_changes_the_random_ones(kind: str) -> None:
    im = scene()
    assert perturb(im, f"{kind}_3", 1).tobytes() != perturb(im, f"{kind}_3", 2).tobytes()


def test_saturation_agrees_with_pil_ycbcr_chroma_scaling() -> None:
    im = scene()
    for level, p in zip(LEVELS, (0.4, 0.3, 0.2, 0.1, 0.0), strict=True):
        ycc = np.asarray(im.convert("YCbCr"), dtype=np.float32)
        ycc[:, :, 1:] = 128 + (ycc[:, :, 1:] - 128) * p
        ref = Image.fromarray(np.clip(ycc.round(), 0, 255).astype(np.uint8), "YCbCr").convert("RGB")
        got = perturb(im, f"saturation_{level}", 0)
        assert mad(got, ref) < 1.5
    grey = np.asarray(perturb(im, "saturation_5", 0), dtype=np.int16)
    assert np.abs(grey[:, :, 0] - grey[:, :, 1]).max() <= 2


def test_contrast_truncates_like_a_uint8_cast() -> None:
    im = scene()
    arr = np.asarray(im)
    got = np.asarray(perturb(im, "contrast_2", 0))
    assert np.array_equal(got, np.floor(arr.astype(np.float64) * 0.725).astype(np.uint8))


def test_block_counts_and_grey_blocks() -> None:
    assert [block_count(300, 600, p) for p in (16, 32, 48, 64, 80)] == [16, 32, 48, 64, 80]
    assert [block_count(512, 700, p) for p in (16, 80)] == [32, 160]
    small = [block_count(100, 90, p) for p in (16, 32, 48, 64, 80)]
    assert small == [5, 11, 16, 22, 28]
    assert block_count(20, 20, 16) == 1
    black = Image.new("RGB", (100, 90))
    out = np.asarray(perturb(black, "block_1", 3))
    assert set(np.unique(out)) == {0, 128}
    assert (out[:, :, 0] == 128).sum() <= 5 * 64
    lvl1, lvl5 = (np.asarray(perturb(black, f"block_{n}", 3))[:, :, 0] == 128 for n in (1, 5))
    assert (lvl1 <= lvl5).all()  # level 5's blocks include level 1's


def test_tiny_image_blocks_and_pixelation() -> None:
    tiny = scene(12, 10)
    assert perturb(tiny, "block_1", 0).tobytes() != tiny.tobytes()  # at least one block
    assert perturb(scene(5, 4), "pixelate_5", 0).size == (5, 4)


def test_jpeg_is_a_real_reencoding() -> None:
    im = scene()
    got = perturb(im, "jpeg_3", 0)
    buf = io.BytesIO()
    im.save(buf, format="JPEG", quality=50, subsampling=2)
    assert got.tobytes() == Image.open(io.BytesIO(buf.getvalue())).convert("RGB").tobytes()


def test_condition_names() -> None:
    assert len(CONDITIONS) == 35 and "pixelate_5" in CONDITIONS and "jpeg_1" in CONDITIONS
    assert parse_condition("blur_3").param == 13
    for bad in ("blur_6", "sharpen_1", "blur", "Blur_1"):
        with pytest.raises(ValueError, match="unknown robustness condition"):
            parse_condition(bad)
    assert image_seed(0, "12") == image_seed(0, "12") != image_seed(0, "12", 1)


def test_the_kinds_named_for_the_protocol_are_the_kinds_rendered() -> None:
    from forgebench.suites.forensics import ids, perturb

    assert tuple(perturb.PARAMS) == ids.KINDS
    assert set(ids.TABLE3_KINDS) <= set(ids.KINDS)
    assert tuple(f"{k}_{n}" for k in perturb.PARAMS for n in ids.LEVELS) == perturb.CONDITIONS
