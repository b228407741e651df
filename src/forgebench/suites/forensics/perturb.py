"""Robustness conditions (Table 3): six perturbations at five levels, plus true JPEG.

Following DeeperForensics-1.0 ``perturbation/distortions.py`` (EndlessSora/DeeperForensics-1.0,
the paper's reference [36]) with its level parameters, on RGB images. Each condition is named
``<kind>_<level>``; every level is deterministic for a seed, and its strength never decreases
with the level.

- ``saturation_N``: chroma scaled by 0.4, 0.3, 0.2, 0.1, 0.0 in YCbCr. Same arithmetic as the
  reference (OpenCV's float YCrCb conversion of 0-255 values, the reference's studio-range
  rescaling, chroma scaled about 0.5, back, truncated to uint8). Deviation: values are clipped
  to 0-255 before the uint8 cast (the reference casts unclipped floats, which wraps).
- ``contrast_N``: pixel values x 0.85, 0.725, 0.6, 0.475, 0.35, truncated by a uint8 cast, as the
  reference.
- ``block_N``: 16, 32, 48, 64, 80 grey (128) 8x8 blocks per 256 px of the shorter side, at
  positions ``x in [0, w - 9]``, ``y in [0, h - 9]`` as the reference's ``randint``. Deviations:
  the reference's count is ``min(h, w) // 256 * param``, so an image under 256 px gets no block;
  here images under 256 px get ``max(1, min(h, w) * param // 256)`` (at least one), larger ones
  the reference's count. Positions come from a seeded generator and the first ``count`` draws
  are used, so every level's blocks include the previous level's (monotone by construction).
  An image smaller than 9 px on a side is returned unchanged.
- ``noise_N``: white Gaussian noise of variance 0.001, 0.002, 0.005, 0.01, 0.05 added to the
  reference's scaled YCbCr planes (its ``gaussian_noise_color``: the planes divided by 255, noise
  added, times 255, back to RGB, clipped). Deviation: the noise comes from a seeded generator
  (the reference uses numpy's global state); one standard-normal field per image is scaled by
  ``sqrt(variance)``, so the levels differ only in strength.
- ``blur_N``: Gaussian blur, kernel 7, 9, 13, 17, 21 and sigma = kernel / 6 (``cv2.GaussianBlur``,
  as the reference).
- ``pixelate_N``: down-sample by 2, 3, 4, 5, 6 and back with bilinear ``cv2.resize`` both ways, as
  the reference's "JPEG compression" (Table 3's column "Pixel"). Deviation: a side shorter than
  the factor is down-sampled to 1 px instead of 0 (which OpenCV refuses).
- ``jpeg_N`` (ours, clearly named): true JPEG re-encoding at quality 90, 70, 50, 30, 10 (PIL,
  4:2:0 subsampling, no optimisation) and decoded again.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image

from forgebench.suites.forensics.ids import KINDS, PERTURBATIONS

PARAMS: dict[str, tuple[float, ...]] = {
    "saturation": (0.4, 0.3, 0.2, 0.1, 0.0),
    "contrast": (0.85, 0.725, 0.6, 0.475, 0.35),
    "block": (16, 32, 48, 64, 80),
    "noise": (0.001, 0.002, 0.005, 0.01, 0.05),
    "blur": (7, 9, 13, 17, 21),
    "pixelate": (2, 3, 4, 5, 6),
    "jpeg": (90, 70, 50, 30, 10),
}
"""Parameter of each kind at levels 1-5."""
RENDERER_VERSION = "perturb/v1"
"""Part of an image variant's id: bump when any output byte would change."""
CONDITIONS = PERTURBATIONS

_NAME = re.compile(r"^([a-z]+)_([1-5])$")
BLOCK = 8


@dataclass(frozen=True)
class Condition:
    """One robustness condition."""

    kind: str
    level: int

    @property
    def name(self) -> str:
        return f"{self.kind}_{self.level}"

    @property
    def param(self) -> float:
        return PARAMS[self.kind][self.level - 1]


def parse_condition(name: str) -> Condition:
    """``blur_3`` -> Condition("blur", 3); ``ValueError`` naming the known kinds otherwise."""
    m = _NAME.match(name)
    if m is None or m.group(1) not in PARAMS:
        raise ValueError(
            f"unknown robustness condition {name!r}: use <kind>_<1-5> with kind one of {', '.join(KINDS)}"
        )
    return Condition(m.group(1), int(m.group(2)))


def image_seed(seed: int, item_id: str, index: int = 0) -> int:
    """A per-image seed from the run's seed, the item and the image's position."""
    h = hashlib.sha256(f"{seed}\0{item_id}\0{index}".encode()).digest()
    return int.from_bytes(h[:8], "big")


def _to_ycbcr(rgb: np.ndarray) -> np.ndarray:
    """The reference's ``bgr2ycbcr`` on 0-255 floats: OpenCV float YCrCb, reordered, rescaled."""
    ycrcb = cv2.cvtColor(np.ascontiguousarray(rgb, dtype=np.float32), cv2.COLOR_RGB2YCrCb)
    out = ycrcb[:, :, (0, 2, 1)].astype(np.float32)
    out[:, :, 0] = (out[:, :, 0] * 219.0 + 16.0) / 255.0
    out[:, :, 1:] = (out[:, :, 1:] * 224.0 + 16.0) / 255.0
    return out


def _from_ycbcr(ycbcr: np.ndarray) -> np.ndarray:
    """Inverse of :func:`_to_ycbcr` (float RGB, unclipped)."""
    x = ycbcr.astype(np.float32).copy()
    x[:, :, 0] = (x[:, :, 0] * 255.0 - 16.0) / 219.0
    x[:, :, 1:] = (x[:, :, 1:] * 255.0 - 16.0) / 224.0
    return cv2.cvtColor(np.ascontiguousarray(x[:, :, (0, 2, 1)]), cv2.COLOR_YCrCb2RGB)


def _u8(x: np.ndarray) -> np.ndarray:
    return np.clip(x, 0, 255).astype(np.uint8)


def saturation(rgb: np.ndarray, param: float, rng: np.random.Generator) -> np.ndarray:
    ycc = _to_ycbcr(rgb)
    ycc[:, :, 1:] = 0.5 + (ycc[:, :, 1:] - 0.5) * param
    return _u8(_from_ycbcr(ycc))


def contrast(rgb: np.ndarray, param: float, rng: np.random.Generator) -> np.ndarray:
    return (rgb.astype(np.float32) * param).astype(np.uint8)


def block_count(height: int, width: int, param: int) -> int:
    """Blocks at one level (see the module docstring for the small-image rule)."""
    side = min(height, width)
    if side >= 256:
        return side // 256 * int(param)
    return max(1, side * int(param) // 256)


def block(rgb: np.ndarray, param: float, rng: np.random.Generator) -> np.ndarray:
    h, w = rgb.shape[:2]
    out = rgb.copy()
    if h <= BLOCK or w <= BLOCK:
        return out
    n_max = block_count(h, w, int(PARAMS["block"][-1]))
    xs = rng.integers(0, w - 1 - BLOCK, size=n_max, endpoint=True)
    ys = rng.integers(0, h - 1 - BLOCK, size=n_max, endpoint=True)
    for x, y in list(zip(xs, ys, strict=True))[: block_count(h, w, int(param))]:
        out[y : y + BLOCK, x : x + BLOCK, :] = 128
    return out


def noise(rgb: np.ndarray, param: float, rng: np.random.Generator) -> np.ndarray:
    ycc = _to_ycbcr(rgb) / 255.0
    field = rng.standard_normal(ycc.shape).astype(np.float32)
    noisy = (ycc + np.float32(np.sqrt(param)) * field) * 255.0
    return _u8(_from_ycbcr(noisy))


def blur(rgb: np.ndarray, param: float, rng: np.random.Generator) -> np.ndarray:
    k = int(param)
    return cv2.GaussianBlur(rgb, (k, k), k / 6.0)


def pixelate(rgb: np.ndarray, param: float, rng: np.random.Generator) -> np.ndarray:
    h, w = rgb.shape[:2]
    f = int(param)
    small = cv2.resize(rgb, (max(1, w // f), max(1, h // f)), interpolation=cv2.INTER_LINEAR)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def jpeg(rgb: np.ndarray, param: float, rng: np.random.Generator) -> np.ndarray:
    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, format="JPEG", quality=int(param), subsampling=2, optimize=False)
    buf.seek(0)
    with Image.open(buf) as im:
        return np.asarray(im.convert("RGB")).copy()


_FUNCS: dict[str, Callable[[np.ndarray, float, np.random.Generator], np.ndarray]] = {
    "saturation": saturation,
    "contrast": contrast,
    "block": block,
    "noise": noise,
    "blur": blur,
    "pixelate": pixelate,
    "jpeg": jpeg,
}


def perturb(image: Image.Image, condition: str | Condition, seed: int) -> Image.Image:
    """``image`` under a robustness condition (RGB out; an alpha channel is discarded)."""
    cond = parse_condition(condition) if isinstance(condition, str) else condition
    rgb = np.asarray(image.convert("RGB"))
    out = _FUNCS[cond.kind](rgb, cond.param, np.random.default_rng(seed))
    return Image.fromarray(out, mode="RGB")
