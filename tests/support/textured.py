"""A real, textured test image written to disk (JPEG or PNG by suffix)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

IMAGE_SIZE = (96, 64)


def write_image(path: Path, size: tuple[int, int] = IMAGE_SIZE, seed: int = 0, **save: Any) -> Path:
    """A real image with some texture (JPEG or PNG by suffix)."""
    rng = np.random.default_rng(seed)
    w, h = size
    gradient = np.linspace(0, 255, w, dtype=np.float64)[None, :, None]
    noise = rng.integers(0, 40, size=(h, w, 3))
    pixels = np.clip(gradient + noise, 0, 255).astype(np.uint8)
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(pixels, "RGB").save(path, **save)
    return path
