"""The demo's rendered cultural seeds: a painting, a wartime poster, a film still and a plaque
(Table 1: colour, artwork and text edits, K4-K6 and K0)."""

from __future__ import annotations

import cv2
import numpy as np

from forgebench.construct import editors as ed
from forgebench.demo import edits as E
from forgebench.demo import patches as pt
from forgebench.demo import scenes as sc
from forgebench.demo.rendered import WHITE, rendered_source
from forgebench.demo.specs import (
    Forgery,
    SeedSpec,
    put,
)


def painting() -> SeedSpec:
    """After Mondrian's Composition with Red, Blue and Yellow (1930): two K6 content edits."""
    s = sc.painting()
    x0, y0, x1, y1 = s.boxes["white_field"]
    work = "Mondrian's Composition with Red, Blue and Yellow (1930)"
    return SeedSpec(
        "painting",
        s.rgb,
        "A4",
        "painting",
        {
            "label": "Piet Mondrian, Composition with Red, Blue and Yellow",
            "date": "1930",
            "place": "Paris",
        },
        rendered_source("painting", "a drawing after Mondrian's 1930 composition"),
        [
            Forgery(
                "k6-green",
                "K6",
                E.recolour(s.masks["red"], hue=120),
                "C1",
                "recolour",
                "Recolour the large red field green.",
                {
                    "name": "green field",
                    "aliases": ["green square", "green"],
                    "role": "the large field at the upper right",
                },
                f"The large field at the upper right of {work} is red; the composition has no green.",
            ),
            Forgery(
                "k6-diagonal",
                "K6",
                put(pt.bar((x1 - x0, y1 - y0)), (x0, y0), grain=3.0, seed=61),
                "C3",
                "insert",
                "Add a diagonal black bar across the lower white field.",
                {
                    "name": "diagonal bar",
                    "aliases": ["diagonal line"],
                    "role": "across the lower white field",
                },
                f"{work} has only horizontal and vertical bars; there is no diagonal.",
            ),
        ],
        record={
            "objects": [
                {"name": "red field", "attributes": {"colour": "red"}},
                {"name": "blue field"},
                {"name": "yellow field"},
                {"name": "black bars"},
            ]
        },
    )


def keep_calm() -> SeedSpec:
    """The 1939 Keep Calm and Carry On poster as a meme template: crown removed; a caption added."""
    s = sc.keep_calm()
    crown = cv2.dilate(
        ed.ink_mask(s.rgb, s.boxes["crown"], threshold=60), np.ones((5, 5), np.uint8)
    )
    return SeedSpec(
        "keepcalm",
        s.rgb,
        "A6",
        "meme",
        {
            "label": "Keep Calm and Carry On poster, British Ministry of Information",
            "date": "1939",
            "place": "United Kingdom",
        },
        rendered_source("keepcalm", "a drawing of the 1939 poster's layout"),
        [
            Forgery(
                "k6-crown",
                "K6",
                E.remove(crown, method="telea", radius=5),
                "C2",
                "remove",
                "Remove the crown above the text.",
                {"name": "Tudor crown", "aliases": ["crown"], "role": "above the text"},
                "The 1939 Keep Calm and Carry On poster has the royal crown above its text; here it is missing.",
                target="Tudor crown",
            ),
            Forgery(
                "k0-caption",
                "K0",
                E.retext(s.boxes["caption_spot"], "WHEN IT'S MONDAY", 24, WHITE),
                "C3",
                "retext",
                "Add a meme caption at the bottom.",
                {"name": "caption", "aliases": [], "role": "at the bottom"},
                None,
                control_for="K6",
            ),
        ],
        record={"objects": [{"name": "Tudor crown", "box": list(s.boxes["crown"])}]},
    )


def moon_film() -> SeedSpec:
    """A still after A Trip to the Moon (1902): capsule removed, a jet airliner inserted, a control."""
    s = sc.moon_film()
    mask = cv2.dilate(s.masks["capsule"], np.ones((7, 7), np.uint8))
    spot = s.boxes["sky_spot"][:2]
    film = "A Trip to the Moon (1902)"
    return SeedSpec(
        "moonfilm",
        s.rgb,
        "A2",
        "film still",
        {
            "label": "Georges Melies, A Trip to the Moon (Le Voyage dans la Lune)",
            "date": "1902-09-01",
            "place": "France",
        },
        rendered_source("moonfilm", "a drawing after the film's best-known shot"),
        [
            Forgery(
                "k6-capsule",
                "K6",
                E.remove(mask, method="telea", radius=6),
                "C1",
                "remove",
                "Remove the capsule stuck in the Moon's eye.",
                {
                    "name": "capsule",
                    "aliases": ["rocket", "shell", "projectile"],
                    "role": "in the Moon's right eye",
                },
                f"In {film} the capsule lands in the Moon's right eye; here the eye is empty.",
                target="capsule",
            ),
            Forgery(
                "k2-jet",
                "K2",
                put(pt.jet((100, 40), tone=70), spot, grain=5.0, seed=71),
                "C3",
                "insert",
                "Add a jet airliner in the sky at the upper right.",
                {
                    "name": "jet airliner",
                    "aliases": ["jet", "airliner", "aeroplane", "airplane"],
                    "role": "in the sky at the upper right",
                },
                f"Jet airliners first flew in 1949, after {film}.",
            ),
            Forgery(
                "k0-cloud",
                "K0",
                put(pt.cloud((100, 45)), spot, grain=5.0, seed=72),
                "C3",
                "insert",
                "Add a small cloud in the sky at the upper right.",
                {"name": "cloud", "aliases": [], "role": "in the sky at the upper right"},
                None,
                control_for="K2",
            ),
        ],
        record={"objects": [{"name": "capsule"}, {"name": "Moon face"}]},
    )


def plaque() -> SeedSpec:
    """The Apollo 11 lunar plaque: the date changed (K4) and an anchor-free removal."""
    s = sc.plaque()
    x0, y0, x1, y1 = s.boxes["screw"]
    screw = ed.ellipse_mask(s.rgb.shape[:2], ((x0 + x1) / 2, (y0 + y1) / 2), (10, 10))
    return SeedSpec(
        "plaque",
        s.rgb,
        "A1",
        "photograph",
        {
            "label": "Apollo 11 lunar plaque left at Tranquility Base",
            "date": "1969-07-20",
            "place": "Sea of Tranquility, the Moon",
        },
        rendered_source("plaque", "a drawing of the plaque's text and layout"),
        [
            Forgery(
                "k4-date",
                "K4",
                E.retext(s.boxes["date"], "JULY 1971, A.D.", 20, (42, 42, 46), serif=True),
                "C2",
                "retext",
                "Change JULY 1969 to JULY 1971 on the plaque.",
                {"name": "JULY 1971", "aliases": ["1971"], "role": "the third line of text"},
                "Apollo 11 landed on the Moon in July 1969, not July 1971 (1969-07-20).",
                target="JULY 1969, A.D.",
            ),
            Forgery(
                "k0-screw",
                "K0",
                E.remove(screw, method="ns", radius=4),
                "C3",
                "remove",
                "Remove the screw at the lower right corner.",
                {"name": "screw", "aliases": [], "role": "the lower right corner"},
                None,
                control_for="K4",
                target="screw",
            ),
        ],
        record={
            "text": [
                {"text": t, "box": list(s.boxes[k])}
                for k, t in (
                    ("line0", "HERE MEN FROM THE PLANET EARTH"),
                    ("line1", "FIRST SET FOOT UPON THE MOON"),
                    ("date", "JULY 1969, A.D."),
                    ("line3", "WE CAME IN PEACE FOR ALL MANKIND"),
                )
            ]
        },
    )


ALL = (painting, keep_calm, moon_film, plaque)
"""The cultural rendered seeds, in build order."""
