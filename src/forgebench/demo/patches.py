"""Elements the demo's edits insert: drawn synthetic faces, ordinary and anachronistic objects.

Each function returns ``(rgb, alpha)``: an ``h x w x 3`` uint8 patch and its ``float32`` alpha in
``[0, 1]``. Shapes are drawn at 4x and downsampled (anti-aliasing without randomness). Synthetic
faces are drawn from ellipses and curves: they carry no identity (Appendix C: absent-celebrity
replacement faces are synthetic).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PIL import Image, ImageDraw

from forgebench.construct.editors import ellipse_mask
from forgebench.util.mpl_data import dejavu as font

Patch = tuple[np.ndarray, np.ndarray]
_SS = 4


def _drawn(size: tuple[int, int], draw: Callable[[ImageDraw.ImageDraw, float], None]) -> Patch:
    """Draw on a transparent RGBA canvas at 4x (``draw(d, scale)``), downsample, split alpha."""
    w, h = size
    big = Image.new("RGBA", (w * _SS, h * _SS), (0, 0, 0, 0))
    draw(ImageDraw.Draw(big), float(_SS))
    small = big.resize((w, h), Image.Resampling.LANCZOS)
    arr = np.asarray(small)
    return arr[..., :3].copy(), arr[..., 3].astype(np.float32) / 255.0


def synthetic_face(
    size: tuple[int, int],
    skin: tuple[int, int, int] = (224, 178, 148),
    hair: tuple[int, int, int] = (92, 64, 40),
    with_hair: bool = True,
    features_only: bool = False,
) -> Patch:
    """A drawn, identity-free face filling ``size`` (W, H): skin oval, hair, brows, eyes, nose, mouth.

    ``features_only`` draws just brows, eyes, nose and mouth (for laying over a blurred skin).
    """
    w, h = size

    def draw(d: ImageDraw.ImageDraw, s: float) -> None:
        def box(x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
            return x0 * w * s, y0 * h * s, x1 * w * s, y1 * h * s

        shade = tuple(int(c * 0.86) for c in skin)
        if with_hair and not features_only:
            d.ellipse(box(0.02, 0.0, 0.98, 0.62), fill=(*hair, 255))
        if not features_only:
            d.ellipse(box(0.08, 0.1, 0.92, 1.0), fill=(*shade, 255))
            d.ellipse(box(0.12, 0.12, 0.88, 0.97), fill=(*skin, 255))
        if with_hair and not features_only:
            d.chord(box(0.06, -0.02, 0.94, 0.5), 180, 360, fill=(*hair, 255))
        lw = max(1, int(0.025 * h * s))
        for x in (0.27, 0.57):
            d.line(
                [*box(x, 0.4, x + 0.16, 0.38)[:2], *box(x + 0.16, 0.38, x, 0.4)[:2]],
                fill=(70, 50, 36, 255),
                width=lw,
            )
            d.ellipse(box(x + 0.02, 0.45, x + 0.14, 0.52), fill=(250, 250, 246, 255))
            d.ellipse(box(x + 0.05, 0.455, x + 0.11, 0.515), fill=(60, 46, 36, 255))
        d.line(
            [*box(0.5, 0.5, 0, 0)[:2], *box(0.46, 0.68, 0, 0)[:2], *box(0.53, 0.7, 0, 0)[:2]],
            fill=(*shade, 255),
            width=lw,
        )
        d.arc(box(0.36, 0.7, 0.64, 0.84), 20, 160, fill=(168, 84, 80, 255), width=lw + 1)

    return _drawn(size, draw)


def face_from_photo(
    photo: np.ndarray, center: tuple[int, int], axes: tuple[int, int], out_size: tuple[int, int]
) -> Patch:
    """The elliptical face region of a photograph, resized to ``out_size`` (W, H), with an
    elliptical alpha (the local elliptical mask of Section 3.1)."""
    cx, cy = center
    ax, ay = axes
    crop = photo[max(0, cy - ay) : cy + ay, max(0, cx - ax) : cx + ax]
    img = Image.fromarray(crop).resize(out_size, Image.Resampling.LANCZOS)
    w, h = out_size
    alpha = ellipse_mask((h, w), ((w - 1) / 2, (h - 1) / 2), (w / 2 - 1, h / 2 - 1))
    return np.asarray(img).copy(), alpha


def smartphone(size: tuple[int, int]) -> Patch:
    """A modern touchscreen smartphone (introduced 2007) seen from the front."""
    w, h = size

    def draw(d: ImageDraw.ImageDraw, s: float) -> None:
        d.rounded_rectangle(
            (0, 0, w * s - 1, h * s - 1), radius=0.14 * w * s, fill=(20, 20, 24, 255)
        )
        d.rounded_rectangle(
            (0.07 * w * s, 0.08 * h * s, 0.93 * w * s, 0.9 * h * s),
            radius=0.05 * w * s,
            fill=(70, 130, 200, 255),
        )
        for i in range(3):
            for j in range(4):
                x, y = (0.16 + 0.26 * i) * w * s, (0.14 + 0.18 * j) * h * s
                d.rounded_rectangle(
                    (x, y, x + 0.18 * w * s, y + 0.1 * h * s),
                    radius=0.03 * w * s,
                    fill=(235, 235, 240, 255),
                )

    return _drawn(size, draw)


def pen(size: tuple[int, int], body: tuple[int, int, int] = (24, 28, 60)) -> Patch:
    """An ordinary pen lying diagonally (no fact attached)."""
    w, h = size

    def draw(d: ImageDraw.ImageDraw, s: float) -> None:
        lw = int(0.12 * min(w, h) * s) + 2
        d.line((0.1 * w * s, 0.9 * h * s, 0.8 * w * s, 0.2 * h * s), fill=(*body, 255), width=lw)
        d.line(
            (0.8 * w * s, 0.2 * h * s, 0.92 * w * s, 0.08 * h * s),
            fill=(200, 190, 150, 255),
            width=max(2, lw // 2),
        )

    return _drawn(size, draw)


def mountain(size: tuple[int, int]) -> Patch:
    """A snow-capped mountain peak silhouette at dusk."""
    w, h = size

    def draw(d: ImageDraw.ImageDraw, s: float) -> None:
        d.polygon(
            [(0, h * s), (0.45 * w * s, 0), (0.62 * w * s, 0.25 * h * s), (w * s, h * s)],
            fill=(38, 44, 70, 255),
        )
        d.polygon(
            [
                (0.33 * w * s, 0.27 * h * s),
                (0.45 * w * s, 0),
                (0.6 * w * s, 0.22 * h * s),
                (0.5 * w * s, 0.3 * h * s),
            ],
            fill=(170, 178, 205, 255),
        )

    return _drawn(size, draw)


def jet(size: tuple[int, int], tone: int = 60) -> Patch:
    """A jet airliner silhouette (jet airliners first flew in 1949)."""
    w, h = size
    c = (tone, tone, tone, 255)

    def draw(d: ImageDraw.ImageDraw, s: float) -> None:
        def p(x: float, y: float) -> tuple[float, float]:
            return x * w * s, y * h * s

        d.ellipse((*p(0.05, 0.42), *p(0.95, 0.58)), fill=c)
        d.polygon([p(0.4, 0.5), p(0.62, 0.5), p(0.42, 0.98), p(0.34, 0.98)], fill=c)
        d.polygon([p(0.4, 0.5), p(0.62, 0.5), p(0.42, 0.02), p(0.34, 0.02)], fill=c)
        d.polygon([p(0.05, 0.5), p(0.16, 0.5), p(0.08, 0.12), p(0.02, 0.12)], fill=c)

    return _drawn(size, draw)


def cloud(size: tuple[int, int], tone: int = 150) -> Patch:
    """A small drifting cloud (an ordinary sky element; no fact attached)."""
    w, h = size
    c = (tone, tone, tone - 10, 230)

    def draw(d: ImageDraw.ImageDraw, s: float) -> None:
        for x0, y0, x1, y1 in (
            (0.05, 0.35, 0.45, 0.95),
            (0.25, 0.05, 0.7, 0.85),
            (0.5, 0.3, 0.95, 0.95),
        ):
            d.ellipse((x0 * w * s, y0 * h * s, x1 * w * s, y1 * h * s), fill=c)

    return _drawn(size, draw)


def var_sign(size: tuple[int, int]) -> Patch:
    """A "VAR" video-review panel (VAR was introduced at the World Cup in 2018)."""
    w, h = size

    def draw(d: ImageDraw.ImageDraw, s: float) -> None:
        d.rectangle((0, 0, w * s - 1, h * s - 1), fill=(240, 240, 240, 255))
        d.rectangle(
            (0.08 * w * s, 0.12 * h * s, 0.92 * w * s, 0.88 * h * s), fill=(12, 12, 12, 255)
        )
        d.text(
            (w * s / 2, h * s / 2),
            "VAR",
            font=font(int(0.45 * h * s)),
            fill=(255, 182, 48, 255),
            anchor="mm",
        )

    return _drawn(size, draw)


def bar(size: tuple[int, int], width: float = 0.06) -> Patch:
    """A straight black painted bar from the lower left to the upper right of ``size``."""
    w, h = size

    def draw(d: ImageDraw.ImageDraw, s: float) -> None:
        d.line(
            (0.03 * w * s, 0.95 * h * s, 0.97 * w * s, 0.05 * h * s),
            fill=(18, 18, 18, 255),
            width=int(width * min(w, h) * s * 2),
        )

    return _drawn(size, draw)
