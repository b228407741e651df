"""Local image edits used to build forgeries: paste, recolour, retext and remove (inpainting).

Every editor takes an ``H x W x 3`` ``uint8`` RGB array and returns a new array of the same shape;
pixels outside the edit's footprint are returned bit-for-bit unchanged, so the honest edit region
of a forgery is the bounding box of the pixel difference (:func:`changed_box`). Everything is
deterministic: noise comes from a seeded generator and OpenCV's inpainting has no randomness.

Masks are ``float32`` arrays in ``[0, 1]`` (``H x W``); boxes are half-open integer pixel boxes
``(x0, y0, x1, y1)`` as PIL's ``crop`` uses them.
"""

from __future__ import annotations

from typing import Literal

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

Box = tuple[int, int, int, int]
RGB = tuple[int, int, int]

_INPAINT = {"telea": cv2.INPAINT_TELEA, "ns": cv2.INPAINT_NS}


def _check_rgb(img: np.ndarray) -> None:
    if img.dtype != np.uint8 or img.ndim != 3 or img.shape[2] != 3:
        raise ValueError(f"expected an HxWx3 uint8 RGB array, got {img.dtype} {img.shape}")


def ellipse_mask(
    shape: tuple[int, int], center: tuple[float, float], axes: tuple[float, float], angle: float = 0
) -> np.ndarray:
    """A filled ellipse (1 inside, 0 outside) of ``shape`` = (H, W); ``axes`` are half-axes."""
    mask = np.zeros(shape, np.uint8)
    c = (round(center[0]), round(center[1]))
    a = (max(1, round(axes[0])), max(1, round(axes[1])))
    cv2.ellipse(mask, c, a, angle, 0, 360, 1, thickness=-1, lineType=cv2.LINE_8)
    return mask.astype(np.float32)


def box_mask(shape: tuple[int, int], box: Box) -> np.ndarray:
    """A filled rectangle mask (half-open box)."""
    mask = np.zeros(shape, np.float32)
    x0, y0, x1, y1 = box
    mask[max(0, y0) : max(0, y1), max(0, x0) : max(0, x1)] = 1.0
    return mask


def feather(mask: np.ndarray, radius: float) -> np.ndarray:
    """Soften a mask's edge with a Gaussian of sigma ``radius / 2`` (``radius`` 0: unchanged).

    The result never extends beyond the mask dilated by ``radius`` pixels (it is clipped there),
    so a feathered footprint stays local.
    """
    m = mask.astype(np.float32)
    if radius <= 0:
        return m
    r = int(np.ceil(radius))
    k = 2 * r + 1
    soft = cv2.GaussianBlur(m, (k, k), sigmaX=radius / 2.0, borderType=cv2.BORDER_CONSTANT)
    grown = cv2.dilate((m > 0).astype(np.uint8), np.ones((k, k), np.uint8))
    return np.clip(soft * grown, 0.0, 1.0)


def add_grain(patch: np.ndarray, sigma: float, seed: int) -> np.ndarray:
    """Add seeded Gaussian grain (``sigma`` in grey levels) to an RGB patch, luminance-only."""
    if sigma <= 0:
        return patch.copy()
    rng = np.random.default_rng(seed)
    noise = rng.normal(0.0, sigma, patch.shape[:2]).astype(np.float32)[..., None]
    return np.clip(patch.astype(np.float32) + noise, 0, 255).round().astype(np.uint8)


def paste(
    base: np.ndarray,
    patch: np.ndarray,
    xy: tuple[int, int],
    alpha: np.ndarray | None = None,
    feather_px: float = 2.0,
    grain: float = 0.0,
    seed: int = 0,
) -> np.ndarray:
    """Composite ``patch`` onto ``base`` with its top-left corner at ``xy``.

    ``alpha`` (patch-sized, ``[0, 1]``; default opaque) is feathered by ``feather_px`` so the
    patch blends into its surroundings; ``grain`` adds seeded noise to the patch first (to match
    the base's film grain). Parts of the patch falling outside ``base`` are clipped.
    """
    _check_rgb(base)
    _check_rgb(patch)
    h, w = patch.shape[:2]
    a = np.ones((h, w), np.float32) if alpha is None else alpha.astype(np.float32)
    if a.shape != (h, w):
        raise ValueError(f"alpha shape {a.shape} does not match patch {(h, w)}")
    if feather_px > 0:
        # feather inwards: shrink the footprint by the radius, then blur it back out, so the soft
        # edge ramps down to zero at the footprint's own border (never beyond it)
        r = int(np.ceil(feather_px))
        pad = r + 1
        core = cv2.erode(
            (np.pad(a, pad) > 0.5).astype(np.uint8), np.ones((2 * r + 1, 2 * r + 1), np.uint8)
        )
        a = feather(core.astype(np.float32), feather_px)[pad:-pad, pad:-pad] * a
    src = add_grain(patch, grain, seed).astype(np.float32)
    out = base.copy()
    x, y = xy
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(base.shape[1], x + w), min(base.shape[0], y + h)
    if x0 >= x1 or y0 >= y1:
        return out
    sa = a[y0 - y : y1 - y, x0 - x : x1 - x, None]
    sp = src[y0 - y : y1 - y, x0 - x : x1 - x]
    region = out[y0:y1, x0:x1].astype(np.float32)
    out[y0:y1, x0:x1] = np.clip(region * (1 - sa) + sp * sa, 0, 255).round().astype(np.uint8)
    return out


def recolour(
    base: np.ndarray,
    mask: np.ndarray,
    hue_shift: float = 0.0,
    hue: float | None = None,
    min_saturation: float = 0.0,
) -> np.ndarray:
    """Change the hue of the pixels under ``mask`` (> 0.5), keeping their brightness.

    ``hue_shift`` rotates the hue by that many degrees; ``hue`` (degrees) sets it instead.
    ``min_saturation`` (0..1) raises the saturation of pale pixels so a white object can take a
    colour (0 keeps saturation). Value (brightness) is never changed and pixels outside the mask
    are untouched.
    """
    _check_rgb(base)
    sel = mask > 0.5
    out = base.copy()
    if not sel.any():
        return out
    px = base[sel].reshape(-1, 1, 3)
    hsv = cv2.cvtColor(px, cv2.COLOR_RGB2HSV_FULL).astype(np.float32)  # H in 0..255
    if hue is not None:
        hsv[..., 0] = (hue % 360.0) * 256.0 / 360.0
    else:
        hsv[..., 0] = hsv[..., 0] + hue_shift * 256.0 / 360.0
    hsv[..., 0] = np.mod(np.round(hsv[..., 0]), 256)
    if min_saturation > 0:
        hsv[..., 1] = np.maximum(hsv[..., 1], min_saturation * 255.0)
    new = cv2.cvtColor(np.clip(hsv, 0, 255).astype(np.uint8), cv2.COLOR_HSV2RGB_FULL)
    out[sel] = new.reshape(-1, 3)
    return out


def remove(
    base: np.ndarray,
    mask: np.ndarray,
    method: Literal["telea", "ns"] = "telea",
    radius: float = 5.0,
) -> np.ndarray:
    """Remove what lies under ``mask`` (> 0.5) by inpainting it from its surroundings (OpenCV)."""
    _check_rgb(base)
    if method not in _INPAINT:
        raise ValueError(f"unknown inpainting method {method!r}; known: telea, ns")
    m = (mask > 0.5).astype(np.uint8)
    if not m.any():
        return base.copy()
    return cv2.inpaint(base, m, radius, _INPAINT[method])


def ink_mask(base: np.ndarray, box: Box, threshold: float = 40.0, grow: int = 2) -> np.ndarray:
    """Pixels inside ``box`` that differ from the box border's median colour (text, marks).

    Distance is the max channel difference; the result is dilated by ``grow`` pixels.
    """
    x0, y0, x1, y1 = box
    roi = base[y0:y1, x0:x1].astype(np.int16)
    border = np.concatenate([roi[0], roi[-1], roi[:, 0], roi[:, -1]])
    bg = np.median(border, axis=0)
    dist = np.abs(roi - bg).max(axis=2)
    local = (dist > threshold).astype(np.uint8)
    if grow > 0:
        local = cv2.dilate(local, np.ones((2 * grow + 1, 2 * grow + 1), np.uint8))
    mask = np.zeros(base.shape[:2], np.float32)
    mask[y0:y1, x0:x1] = local
    return mask


def retext(
    base: np.ndarray,
    box: Box,
    text: str,
    font: ImageFont.FreeTypeFont,
    fill: RGB,
    method: Literal["telea", "ns"] = "telea",
    threshold: float = 40.0,
) -> np.ndarray:
    """Replace the text inside ``box``: inpaint the old ink, then draw ``text`` centred in the box.

    The new text is drawn anti-aliased in ``fill`` and clipped to ``box``, so nothing outside
    the box changes.
    """
    _check_rgb(base)
    cleaned = remove(base, ink_mask(base, box, threshold), method=method, radius=3)
    canvas = Image.fromarray(cleaned)
    layer = Image.new("L", canvas.size, 0)
    x0, y0, x1, y1 = box
    ImageDraw.Draw(layer).text(
        ((x0 + x1) / 2, (y0 + y1) / 2), text, fill=255, font=font, anchor="mm"
    )
    a = np.asarray(layer, np.float32) / 255.0 * box_mask(base.shape[:2], box)
    colour = np.array(fill, np.float32)
    out = cleaned.astype(np.float32) * (1 - a[..., None]) + colour * a[..., None]
    return np.clip(out, 0, 255).round().astype(np.uint8)


def changed_box(original: np.ndarray, edited: np.ndarray) -> Box | None:
    """The half-open bounding box of every pixel where the two images differ (None: identical)."""
    if original.shape != edited.shape:
        raise ValueError(f"shape mismatch: {original.shape} vs {edited.shape}")
    diff = original != edited
    if diff.ndim == 3:
        diff = diff.any(axis=2)
    ys, xs = np.nonzero(diff)
    if ys.size == 0:
        return None
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


def crop_around(
    region: Box, size: tuple[int, int], min_frac: float = 0.45, grow: float = 2.0
) -> Box:
    """A de-recognition crop: the edit region and its neighbours.

    The crop is centred on ``region``, ``grow`` times its size but at least ``min_frac`` of each
    image side (``size`` = (W, H)), shifted to stay inside the image; it always contains
    ``region``.
    """
    w, h = size
    x0, y0, x1, y1 = region
    cw = min(w, max(round((x1 - x0) * grow), round(w * min_frac), x1 - x0))
    ch = min(h, max(round((y1 - y0) * grow), round(h * min_frac), y1 - y0))
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    left = int(min(max(0, round(cx - cw / 2)), w - cw))
    top = int(min(max(0, round(cy - ch / 2)), h - ch))
    left = min(left, x0)
    top = min(top, y0)
    right = max(left + cw, x1)
    bottom = max(top + ch, y1)
    return left, top, int(right), int(bottom)
