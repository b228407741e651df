"""Reading a request's image as pixels, for the offline models that look at pixels themselves."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image, UnidentifiedImageError

from forgebench.models.base import ModelError


def load_rgb(path: Path, model: str, *, task_only: bool = False) -> np.ndarray:
    """The image at ``path`` as an H x W x 3 uint8 array; an unreadable file is a non-retryable
    :class:`ModelError` naming ``model`` (``task_only``: only this task fails, the model goes on)."""
    try:
        with Image.open(path) as im:
            return np.asarray(im.convert("RGB")).copy()
    except (OSError, UnidentifiedImageError) as exc:
        raise ModelError(
            f"{model} cannot read image {path}: {exc}", retryable=False, task_only=task_only
        ) from None
