"""Constructed scenes, a KB folder and a tiny Mandela dataset for the verifier's tests.

- ``plaque``: a rendered plaque reading ``JULY 1969`` (canonical) and a forgery reading
  ``JULY 1971`` (the K4 wrong-year case);
- ``launch``: ``skimage.data.rocket`` (canonical, 2015-02-11) with Grace Hopper's face pasted
  (matplotlib's ``grace_hopper.jpg``; she died in 1992) and, as the unknown face, the astronaut's
  face from ``skimage.data.astronaut`` (nobody in the KB).
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
import skimage.data
from PIL import Image, ImageDraw, ImageFont

from forgebench.util.mpl_data import dejavu, mpl_data

HOPPER_BOX = (170, 120, 354, 344)
ASTRONAUT_BOX = (170, 40, 280, 200)
PASTE_AT = (470, 330)
PASTE_SIZE = (84, 100)
EMBLEM = (40, 300, 120, 380)
ROCKET_BODY = (300, 125, 345, 405)


def font(size: int) -> ImageFont.FreeTypeFont:
    return dejavu(size, serif=True)


def plaque(date_text: str) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """A textured plaque with three lines; returns the image and the date line's box."""
    rng = np.random.default_rng(3)
    base = np.clip(170 + rng.normal(0, 14, (420, 640, 1)), 0, 255).repeat(3, axis=2)
    img = Image.fromarray(base.astype(np.uint8))
    d = ImageDraw.Draw(img)
    for _ in range(25):  # engraved marks: texture for local features
        x, y = (int(v) for v in rng.integers((20, 20), (620, 120)))
        d.ellipse((x, y, x + int(rng.integers(8, 30)), y + int(rng.integers(8, 30))), outline=40)
    d.rectangle((8, 8, 631, 411), outline=30, width=4)
    d.ellipse(EMBLEM, outline=30, width=6)  # the mission emblem: a recorded object
    d.line((EMBLEM[0] + 12, EMBLEM[3] - 12, EMBLEM[2] - 12, EMBLEM[1] + 12), fill=30, width=6)
    d.text((320, 170), "APOLLO ELEVEN", font=font(40), fill=30, anchor="mm")
    d.text((320, 250), date_text, font=font(40), fill=30, anchor="mm")
    d.text((320, 330), "TRANQUILITY BASE", font=font(32), fill=30, anchor="mm")
    box = d.textbbox((320, 250), "JULY 1969", font=font(40), anchor="mm")
    return np.asarray(img.convert("RGB")).copy(), tuple(int(v) for v in box)  # type: ignore[return-value]


def hopper_photo() -> np.ndarray:
    path = mpl_data("sample_data", "grace_hopper.jpg")
    return np.asarray(Image.open(path).convert("RGB")).copy()


def paste_face(base: np.ndarray, photo: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    face = Image.fromarray(photo[box[1] : box[3], box[0] : box[2]]).resize(PASTE_SIZE)
    out = Image.fromarray(base.copy())
    out.paste(face, PASTE_AT)
    return np.asarray(out).copy()


def save(rgb: np.ndarray, path: Path) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(rgb).save(path)
    return path.name


@dataclass
class World:
    kb: Path
    plaque_real: np.ndarray
    plaque_fake: np.ndarray
    rocket: np.ndarray
    rocket_hopper: np.ndarray
    rocket_stranger: np.ndarray


def write_jsonl(path: Path, rows: list[dict[str, object]]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


@pytest.fixture(scope="session")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    root = tmp_path_factory.mktemp("kb")
    real, date_box = plaque("JULY 1969")
    fake, _ = plaque("JULY 1971")
    rocket = skimage.data.rocket()
    hopper = hopper_photo()
    save(real, root / "images" / "plaque.png")
    save(rocket, root / "images" / "rocket.png")
    save(hopper, root / "portraits" / "hopper.png")
    write_jsonl(
        root / "scenes.jsonl",
        [
            {
                "id": "plaque",
                "image": "images/plaque.png",
                "event": {"label": "Apollo 11 Moon landing", "date": "1969-07-20", "place": "Moon"},
                "text": [{"text": "JULY 1969", "box": list(date_box)}],
                "objects": [{"name": "mission emblem", "box": [36, 296, 124, 384]}],
            },
            {
                "id": "rocket",
                "image": "images/rocket.png",
                "event": {
                    "label": "Falcon 9 launch of DSCOVR",
                    "date": "2015-02-11",
                    "place": "Cape Canaveral",
                },
                "objects": [
                    {
                        "name": "Falcon 9",
                        "box": list(ROCKET_BODY),
                        "attributes": {"colour": "white"},
                    }
                ],
            },
        ],
    )
    write_jsonl(
        root / "kb.jsonl",
        [
            {
                "id": "Q11591",
                "name": "Grace Hopper",
                "aliases": ["Grace Murray Hopper"],
                "born": "1906-12-09",
                "died": "1992-01-01",
                "portraits": ["portraits/hopper.png"],
            },
            {"id": "Q1", "name": "smartphone", "introduced": "2007-06-29"},
        ],
    )
    return World(
        kb=root,
        plaque_real=real,
        plaque_fake=fake,
        rocket=rocket,
        rocket_hopper=paste_face(rocket, hopper, HOPPER_BOX),
        rocket_stranger=paste_face(rocket, skimage.data.astronaut(), ASTRONAUT_BOX),
    )


@pytest.fixture(scope="session")
def verifier(world: World):  # type: ignore[no-untyped-def]
    from forgebench.suites.mandela.verifier.kb import load_kb
    from forgebench.suites.mandela.verifier.model import Verifier

    return Verifier(load_kb(world.kb))


def count_tools(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record each tool run (``faces``, ``text``, ``scene``) from here on, in order, and the KB's
    own tool work: ``gallery`` when its portraits are embedded (their face detections are not
    counted as ``faces``), ``index`` when its scenes' features are computed."""
    from forgebench.suites.mandela.verifier import faces, model
    from forgebench.suites.mandela.verifier.scenes import SceneIndex

    calls: list[str] = []
    real_faces, real_read, real_match = faces.detect_faces, model._read, SceneIndex.match
    real_gallery, real_ready = faces.Gallery.from_portraits.__func__, SceneIndex._ready  # type: ignore[attr-defined]
    embedding = threading.local()

    def counted_faces(rgb: np.ndarray):  # type: ignore[no-untyped-def]
        if not getattr(embedding, "on", False):
            calls.append("faces")
        return real_faces(rgb)

    def counted_read(rgb: np.ndarray, mirrored: bool):  # type: ignore[no-untyped-def]
        calls.append("text")
        return real_read(rgb, mirrored)

    def counted_match(self: SceneIndex, rgb: np.ndarray):  # type: ignore[no-untyped-def]
        calls.append("scene")
        return real_match(self, rgb)

    def counted_gallery(cls, portraits, threshold=faces.MATCH_THRESHOLD):  # type: ignore[no-untyped-def]
        calls.append("gallery")
        embedding.on = True
        try:
            return real_gallery(cls, portraits, threshold)
        finally:
            embedding.on = False

    def counted_ready(self: SceneIndex):  # type: ignore[no-untyped-def]
        if self._features is None:
            calls.append("index")
        return real_ready(self)

    monkeypatch.setattr(faces, "detect_faces", counted_faces)
    monkeypatch.setattr(model, "_read", counted_read)
    monkeypatch.setattr(SceneIndex, "match", counted_match)
    monkeypatch.setattr(faces.Gallery, "from_portraits", classmethod(counted_gallery))
    monkeypatch.setattr(SceneIndex, "_ready", counted_ready)
    return calls
