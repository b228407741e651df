"""Canonical images of the offline demo: public-domain photographs that packages ship, and scenes
rendered here (posters, a scoreboard, a painting, a film still, a plaque).

Every scene is deterministic (seeded noise, fonts that ship with matplotlib, no system fonts) and
returns its pixels plus the boxes and masks the demo's edits need. Rendered scenes get a "photo
finish" (slight blur, seeded grain, one JPEG round trip at quality 90) so that they carry the
noise and compression structure of a real reproduction, as the real photographs do.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from forgebench.construct.editors import Box
from forgebench.util.mpl_data import dejavu as font


@dataclass
class Scene:
    """A canonical image and the geometry its edits use."""

    rgb: np.ndarray
    """H x W x 3 uint8 pixels."""
    boxes: dict[str, Box] = field(default_factory=dict)
    """Named boxes (text lines, faces, insertion spots)."""
    masks: dict[str, np.ndarray] = field(default_factory=dict)
    """Named float32 masks (objects to recolour or remove)."""


def finish(img: Image.Image, seed: int, grain: float = 3.0, quality: int = 90) -> np.ndarray:
    """Slight blur, seeded luminance grain and one JPEG round trip (fixed quality)."""
    img = img.convert("RGB").filter(ImageFilter.GaussianBlur(0.6))
    arr = np.asarray(img, np.float32)
    noise = np.random.default_rng(seed).normal(0.0, grain, arr.shape[:2]).astype(np.float32)
    arr = np.clip(arr + noise[..., None], 0, 255).round().astype(np.uint8)
    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, format="JPEG", quality=quality, subsampling=0)
    buf.seek(0)
    return np.asarray(Image.open(buf).convert("RGB")).copy()


def _text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    fnt: ImageFont.FreeTypeFont,
    fill: tuple[int, int, int],
    pad: int = 6,
) -> Box:
    """Draw ``text`` centred at ``xy``; return its padded box."""
    draw.text(xy, text, font=fnt, fill=fill, anchor="mm")
    x0, y0, x1, y1 = draw.textbbox(xy, text, font=fnt, anchor="mm")
    return int(x0) - pad, int(y0) - pad, int(x1) + pad, int(y1) + pad


def _gradient(
    size: tuple[int, int], top: tuple[int, int, int], bottom: tuple[int, int, int]
) -> Image.Image:
    w, h = size
    t = np.linspace(0.0, 1.0, h, dtype=np.float32)[:, None, None]
    arr = np.array(top, np.float32) * (1 - t) + np.array(bottom, np.float32) * t
    return Image.fromarray(np.repeat(arr, w, axis=1).round().astype(np.uint8))


def _layer_mask(size: tuple[int, int], draw_fn: object) -> np.ndarray:
    layer = Image.new("L", size, 0)
    draw_fn(ImageDraw.Draw(layer))  # type: ignore[operator]
    return (np.asarray(layer, np.float32) / 255.0 > 0.5).astype(np.float32)


def poster() -> Scene:
    """A poster for the 1998 Winter Olympics in Nagano (text only; no official emblem)."""
    img = _gradient((480, 640), (18, 38, 104), (92, 140, 200))
    d = ImageDraw.Draw(img)
    d.ellipse((170, 220, 310, 360), fill=(205, 30, 40))
    d.polygon(
        [(0, 470), (90, 380), (170, 440), (260, 360), (360, 430), (480, 370), (480, 480), (0, 480)],
        fill=(235, 240, 250),
    )
    white = (250, 250, 250)
    boxes = {
        "games": _text(d, (240, 45), "XVIII OLYMPIC WINTER GAMES", font(22), white),
        "city": _text(d, (240, 130), "NAGANO", font(72), white),
        "year": _text(d, (240, 525), "1998", font(56), white),
        "country": _text(d, (240, 572), "NAGANO, JAPAN", font(18), white),
        "dates": _text(d, (240, 597), "7-22 FEBRUARY", font(16, bold=False), white),
        "tagline": _text(d, (240, 622), "SEE YOU IN THE SNOW", font(14, bold=False), white),
    }
    return Scene(finish(img, seed=101), boxes)


def scoreboard() -> Scene:
    """The stadium scoreboard after the 1986 World Cup final (Argentina 3-2 West Germany)."""
    img = Image.new("RGB", (720, 420), (34, 34, 36))
    d = ImageDraw.Draw(img)
    d.rectangle((16, 16, 703, 343), fill=(10, 12, 10))
    amber = (255, 182, 48)
    boxes = {
        "venue": _text(d, (360, 55), "ESTADIO AZTECA", font(34), amber),
        "home": _text(d, (150, 150), "ARGENTINA", font(34), amber),
        "score": _text(d, (360, 150), "3 : 2", font(56), amber),
        "away": _text(d, (585, 150), "W. GERMANY", font(30), amber),
        "final": _text(d, (360, 235), "FINAL  29.06.1986", font(28), amber),
        "clock": _text(d, (360, 295), "90:00", font(26), amber),
    }
    d.rectangle((16, 356, 703, 404), fill=(0, 92, 44))
    boxes["ad"] = _text(d, (360, 380), "BEBA AGUA FRESCA", font(26), (245, 245, 245))
    boxes["var_spot"] = (600, 270, 690, 330)
    return Scene(finish(img, seed=102), boxes)


def summit(faces: list[np.ndarray]) -> Scene:
    """The stage of the 1985 Geneva summit: banner, two lecterns, flags and standing aides.

    ``faces`` are synthetic head patches (RGBA) for the aides; no real person is drawn.
    """
    img = _gradient((640, 427), (62, 82, 122), (40, 52, 80))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, 70, 427), fill=(118, 22, 32))
    d.rectangle((570, 0, 640, 427), fill=(118, 22, 32))
    for x in range(6, 70, 12):
        d.line((x, 0, x, 427), fill=(92, 14, 24), width=3)
        d.line((570 + x, 0, 570 + x, 427), fill=(92, 14, 24), width=3)
    d.rectangle((90, 24, 550, 96), fill=(232, 230, 220))
    boxes = {"banner": _text(d, (320, 60), "GENEVA 1985", font(44), (20, 32, 80))}
    # flags
    for i in range(7):
        d.rectangle(
            (100, 120 + i * 6, 160, 126 + i * 6),
            fill=(200, 30, 40) if i % 2 == 0 else (245, 245, 245),
        )
    d.rectangle((100, 120, 124, 144), fill=(30, 40, 110))
    d.line((98, 118, 98, 330), fill=(180, 170, 120), width=3)
    d.rectangle((480, 120, 540, 162), fill=(204, 24, 30))
    d.regular_polygon((490, 128, 4), 5, fill=(250, 210, 40))
    d.arc((483, 134, 499, 150), 200, 60, fill=(250, 210, 40), width=2)
    d.line((485, 149, 497, 137), fill=(250, 210, 40), width=2)
    d.line((542, 118, 542, 330), fill=(180, 170, 120), width=3)
    masks = {
        "soviet_flag": _layer_mask(img.size, lambda m: m.rectangle((480, 120, 540, 162), fill=255))
    }
    # aides standing between the lecterns
    for k, (cx, top) in enumerate(((300, 170), (350, 176))):
        d.rectangle((cx - 24, top + 44, cx + 24, 330), fill=(28, 30, 36))
        face = Image.fromarray(faces[k % len(faces)])
        img.paste(face.convert("RGB"), (cx - face.width // 2, top), face.getchannel("A"))
        boxes[f"aide{k}"] = (
            cx - face.width // 2,
            top,
            cx - face.width // 2 + face.width,
            top + face.height,
        )
    for x0 in (170, 390):
        d.rectangle((x0, 220, x0 + 80, 330), fill=(112, 72, 42))
        d.rectangle((x0 + 30, 240, x0 + 50, 260), fill=(215, 190, 90))
    d.rectangle((0, 330, 640, 427), fill=(70, 40, 36))
    masks["curtain"] = _layer_mask(img.size, lambda m: m.rectangle((570, 0, 640, 330), fill=255))
    return Scene(finish(img, seed=103), boxes, masks)


def painting() -> Scene:
    """After Mondrian's Composition with Red, Blue and Yellow (1930): red top right, blue bottom
    left, a small yellow square bottom right, black bars on off-white."""
    img = Image.new("RGB", (480, 480), (238, 234, 222))
    d = ImageDraw.Draw(img)
    d.rectangle((116, 0, 480, 294), fill=(196, 32, 36))
    d.rectangle((0, 306, 104, 480), fill=(28, 48, 140))
    d.rectangle((446, 426, 480, 480), fill=(236, 200, 40))
    black = (18, 18, 18)
    for box in (
        (104, 0, 116, 480),
        (0, 294, 480, 306),
        (0, 144, 104, 154),
        (434, 306, 446, 480),
        (446, 414, 480, 426),
    ):
        d.rectangle(box, fill=black)
    masks = {"red": _layer_mask(img.size, lambda m: m.rectangle((116, 0, 480, 294), fill=255))}
    boxes = {"white_field": (130, 320, 420, 470)}
    return Scene(finish(img, seed=104, grain=4.0), boxes, masks)


def keep_calm() -> Scene:
    """The 1939 British "Keep Calm and Carry On" poster (crown above five lines of text)."""
    img = Image.new("RGB", (400, 560), (200, 16, 46))
    d = ImageDraw.Draw(img)
    white = (246, 240, 232)
    crown = [
        (150, 120),
        (140, 62),
        (166, 86),
        (183, 46),
        (200, 80),
        (217, 46),
        (234, 86),
        (260, 62),
        (250, 120),
    ]
    d.polygon(crown, fill=white)
    d.rectangle((148, 124, 252, 136), fill=white)
    for cx in (140, 183, 217, 260):
        d.ellipse(
            (cx - 6, 40 if cx in (183, 217) else 56, cx + 6, 52 if cx in (183, 217) else 68),
            fill=white,
        )
    boxes = {"crown": (128, 30, 272, 144)}
    for i, (line, size) in enumerate(
        (("KEEP", 60), ("CALM", 60), ("AND", 30), ("CARRY", 60), ("ON", 60))
    ):
        boxes[f"line{i}"] = _text(d, (200, (205, 275, 330, 385, 455)[i]), line, font(size), white)
    boxes["caption_spot"] = (40, 500, 360, 540)
    return Scene(finish(img, seed=105), boxes)


def moon_film() -> Scene:
    """A still after Melies's A Trip to the Moon (1902): the capsule in the Moon's right eye."""
    img = Image.new("RGB", (640, 480), (38, 38, 42))
    d = ImageDraw.Draw(img)
    rng = np.random.default_rng(7)
    for x, y in rng.integers((0, 50), (640, 430), size=(60, 2)):
        d.ellipse((int(x) - 1, int(y) - 1, int(x) + 1, int(y) + 1), fill=(220, 220, 210))
    tex = _moon_texture(rng)
    disc = _layer_mask((640, 480), lambda m: m.ellipse((160, 90, 480, 410), fill=255))
    img.paste(tex, (160, 90), Image.fromarray((disc[90:410, 160:480] * 255).astype(np.uint8)))
    d.ellipse((238, 190, 290, 226), fill=(60, 58, 52))
    d.ellipse((350, 190, 402, 226), fill=(60, 58, 52))
    d.arc((270, 270, 370, 340), 20, 160, fill=(50, 48, 44), width=6)
    d.line((320, 230, 312, 270), fill=(70, 68, 60), width=4)
    capsule = [(186, 146), (214, 122), (262, 186), (240, 206)]
    nose = [(240, 206), (262, 186), (272, 214)]
    d.polygon(capsule, fill=(236, 236, 240), outline=(30, 30, 30), width=2)
    d.polygon(nose, fill=(210, 210, 216), outline=(30, 30, 30), width=2)
    for t in (0.3, 0.6):
        x, y = 186 + t * 54, 146 + t * 52
        d.line((x, y, x + 28, y - 24), fill=(60, 60, 60), width=2)
    masks = {
        "capsule": _layer_mask(
            img.size, lambda m: (m.polygon(capsule, fill=255), m.polygon(nose, fill=255))
        )
    }
    d.rectangle((0, 0, 640, 40), fill=(0, 0, 0))
    d.rectangle((0, 440, 640, 480), fill=(0, 0, 0))
    arr = np.asarray(img, np.float32)
    grey = arr.mean(axis=2, keepdims=True)
    sepia = np.clip(grey * np.array([1.07, 0.98, 0.82], np.float32), 0, 255).astype(np.uint8)
    boxes = {"sky_spot": (480, 70, 600, 120)}
    return Scene(finish(Image.fromarray(sepia), seed=106, grain=5.0), boxes, masks)


def _moon_texture(rng: np.random.Generator) -> Image.Image:
    """A 320 px procedural lunar surface: smoothed noise plus a few shaded craters."""
    noise = Image.fromarray(rng.normal(128, 40, (80, 80)).clip(0, 255).astype(np.uint8))
    base = noise.resize((320, 320), Image.Resampling.BICUBIC).filter(ImageFilter.GaussianBlur(3))
    arr = 150 + (np.asarray(base, np.float32) - 128) * 0.35
    tex = Image.fromarray(arr.clip(0, 255).astype(np.uint8)).convert("RGB")
    d = ImageDraw.Draw(tex)
    for x, y, r in rng.integers((30, 30, 6), (290, 290, 22), size=(14, 3)):
        x, y, r = int(x), int(y), int(r)
        d.ellipse(
            (x - r, y - r, x + r, y + r), fill=(128, 126, 120), outline=(176, 174, 166), width=2
        )
    return tex


def plaque() -> Scene:
    """The Apollo 11 lunar plaque (July 1969): two hemispheres, four lines, signatures, screws."""
    rng = np.random.default_rng(8)
    streaks = rng.normal(0.0, 6.0, (400, 1)).astype(np.float32) + rng.normal(
        0.0, 2.0, (400, 600)
    ).astype(np.float32)
    base = np.clip(np.full((400, 600, 3), 182.0, np.float32) + streaks[..., None], 0, 255).astype(
        np.uint8
    )
    img = Image.fromarray(base)
    d = ImageDraw.Draw(img)
    dark = (42, 42, 46)
    d.rectangle((6, 6, 593, 393), outline=dark, width=4)
    for cx in (200, 400):
        d.ellipse((cx - 62, 40, cx + 62, 164), outline=dark, width=3)
        for _ in range(4):
            pts = [(cx + int(a), 102 + int(b)) for a, b in rng.integers(-40, 40, size=(5, 2))]
            d.polygon(pts, outline=dark)
    serif = font(20, serif=True)
    boxes = {
        "line0": _text(d, (300, 200), "HERE MEN FROM THE PLANET EARTH", serif, dark),
        "line1": _text(d, (300, 228), "FIRST SET FOOT UPON THE MOON", serif, dark),
        "date": _text(d, (300, 256), "JULY 1969, A.D.", serif, dark),
        "line3": _text(d, (300, 284), "WE CAME IN PEACE FOR ALL MANKIND", serif, dark),
    }
    for k in range(4):
        x0 = 70 + k * 125
        pts = [(x0 + i * 10, 340 + int(v)) for i, v in enumerate(rng.integers(-8, 8, size=9))]
        d.line(pts, fill=dark, width=2)
    for cx, cy in ((24, 24), (576, 24), (24, 376), (576, 376)):
        d.ellipse((cx - 7, cy - 7, cx + 7, cy + 7), fill=(120, 120, 126), outline=dark)
    boxes["screw"] = (565, 365, 588, 388)
    return Scene(finish(img, seed=107), boxes)
