"""Fixtures for the PIXAR tests: small real images written to disk."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest


def smooth_image(h: int = 120, w: int = 160, seed: int = 0) -> np.ndarray:
    """A textured but smooth RGB uint8 image (what rectification needs to lock on)."""
    rng = np.random.default_rng(seed)
    base = rng.integers(0, 256, (h // 8 + 1, w // 8 + 1, 3), dtype=np.uint8)
    img = cv2.resize(base, (w, h), interpolation=cv2.INTER_CUBIC)
    return cv2.GaussianBlur(img, (0, 0), 1.5)


def write_rgb(path: Path, rgb: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    assert cv2.imwrite(str(path), cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))


@pytest.fixture
def pairs_dir(tmp_path: Path) -> Path:
    """original/ and edited/ with two pairs; each edit inverts a known 20 x 30 block."""
    root = tmp_path / "pairs"
    for i, stem in enumerate(("alpha", "beta")):
        o = smooth_image(seed=i)
        e = o.copy()
        e[10:30, 20:50] = 255 - e[10:30, 20:50]
        write_rgb(root / "original" / f"{stem}.png", o)
        write_rgb(root / "edited" / f"{stem}.png", e)
    return root


@pytest.fixture
def make_image() -> object:
    """The :func:`smooth_image` factory (test modules cannot import conftest directly)."""
    return smooth_image
