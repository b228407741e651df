"""The demo's rendered seeds: text, colour, artwork and film edits (Table 1: K2-K6 and K0)."""

from __future__ import annotations

import cv2
import numpy as np

from forgebench.construct import editors as ed
from forgebench.demo import edits as E
from forgebench.demo import patches as pt
from forgebench.demo import scenes as sc
from forgebench.demo.specs import (
    HOPPER,
    RENDERED,
    Forgery,
    SeedSpec,
    hopper_face,
    put,
)

WHITE = (250, 250, 250)
AMBER = (255, 182, 48)


def _src(name: str, after: str) -> dict[str, str]:
    return {"url": f"forgebench:demo/render/{name} ({after})", **RENDERED}


def poster() -> SeedSpec:
    """1998 Winter Olympics poster: NAGOYA replaces NAGANO (Table 1's K4 example)."""
    s = sc.poster()
    event = "the 1998 Winter Olympics in Nagano (1998-02-07)"
    return SeedSpec(
        "poster",
        s.rgb,
        "A3",
        "poster",
        {
            "label": "1998 Winter Olympics opening (XVIII Olympic Winter Games)",
            "date": "1998-02-07",
            "place": "Nagano, Japan",
        },
        _src("poster", "a text poster for the 1998 Winter Olympics; no official emblem"),
        [
            Forgery(
                "k4-city",
                "K4",
                E.retext(s.boxes["city"], "NAGOYA", 72, WHITE),
                "C1",
                "retext",
                "Replace the host city NAGANO with NAGOYA.",
                {"name": "NAGOYA", "aliases": ["Nagoya"], "role": "the host city in large letters"},
                f"The 1998 Winter Olympics were hosted by Nagano, not Nagoya ({event}).",
                target="NAGANO",
            ),
            Forgery(
                "k4-country",
                "K4",
                E.retext(s.boxes["country"], "NAGANO, KOREA", 18, WHITE),
                "C3",
                "retext",
                "Change the small line NAGANO, JAPAN to NAGANO, KOREA.",
                {
                    "name": "KOREA",
                    "aliases": ["Korea", "South Korea"],
                    "role": "the small location line near the bottom",
                },
                f"Nagano is in Japan, not Korea ({event}).",
                target="NAGANO, JAPAN",
            ),
            Forgery(
                "k0-tagline",
                "K0",
                E.retext(s.boxes["tagline"], "MEET US IN THE SNOW", 14, WHITE, bold=False),
                "C3",
                "retext",
                "Reword the bottom tagline.",
                {"name": "tagline", "aliases": [], "role": "the last line at the bottom"},
                None,
                control_for="K4",
                target="SEE YOU IN THE SNOW",
            ),
        ],
        record={
            "text": [
                {"text": t, "box": list(s.boxes[k])}
                for k, t in (
                    ("games", "XVIII OLYMPIC WINTER GAMES"),
                    ("city", "NAGANO"),
                    ("year", "1998"),
                    ("country", "NAGANO, JAPAN"),
                    ("dates", "7-22 FEBRUARY"),
                )
            ]
        },
    )


def scoreboard() -> SeedSpec:
    """Scoreboard after the 1986 World Cup final: score, venue and an anachronistic VAR panel."""
    s = sc.scoreboard()
    event = "the 1986 World Cup final (1986-06-29)"
    return SeedSpec(
        "scoreboard",
        s.rgb,
        "A3",
        "photograph",
        {
            "label": "1986 FIFA World Cup final: Argentina 3-2 West Germany",
            "date": "1986-06-29",
            "place": "Estadio Azteca, Mexico City",
        },
        _src("scoreboard", "the Estadio Azteca scoreboard after the 1986 final"),
        [
            Forgery(
                "k5-score",
                "K5",
                E.retext(s.boxes["score"], "2 : 3", 56, AMBER),
                "C1",
                "retext",
                "Swap the final score to 2 : 3.",
                {
                    "name": "final score 2-3",
                    "aliases": ["2-3", "2 : 3"],
                    "role": "the score in the centre",
                },
                f"Argentina beat West Germany 3-2, not 2-3, in {event}.",
                target="scoreboard",
                attribute={"name": "score", "value": "2 : 3"},
            ),
            Forgery(
                "k4-venue",
                "K4",
                E.retext(s.boxes["venue"], "WEMBLEY STADIUM", 28, AMBER),
                "C3",
                "retext",
                "Replace the venue name at the top with WEMBLEY STADIUM.",
                {
                    "name": "Wembley Stadium",
                    "aliases": ["Wembley"],
                    "role": "the venue line at the top",
                },
                f"The 1986 final was played at the Estadio Azteca in Mexico City, not Wembley ({event}).",
                target="ESTADIO AZTECA",
            ),
            Forgery(
                "k2-var",
                "K2",
                put(pt.var_sign((90, 60)), s.boxes["var_spot"][:2], grain=3.0, seed=41),
                "C3",
                "insert",
                "Add a VAR video-review panel at the lower right of the board.",
                {
                    "name": "VAR",
                    "aliases": ["video assistant referee", "VAR panel"],
                    "role": "panel at the lower right of the board",
                },
                f"The video assistant referee (VAR) was introduced at the 2018 World Cup, long after {event}.",
            ),
            Forgery(
                "k0-ad",
                "K0",
                E.retext(s.boxes["ad"], "COMA FRUTA FRESCA", 26, (245, 245, 245)),
                "C3",
                "retext",
                "Reword the advertisement strip at the bottom.",
                {
                    "name": "advertisement",
                    "aliases": ["ad"],
                    "role": "the green strip at the bottom",
                },
                None,
                control_for="K5",
                target="BEBA AGUA FRESCA",
            ),
        ],
        record={
            "objects": [{"name": "scoreboard", "attributes": {"score": "3 : 2"}}],
            "text": [
                {"text": t, "box": list(s.boxes[k])}
                for k, t in (
                    ("venue", "ESTADIO AZTECA"),
                    ("home", "ARGENTINA"),
                    ("score", "3 : 2"),
                    ("away", "W. GERMANY"),
                    ("final", "FINAL  29.06.1986"),
                    ("clock", "90:00"),
                )
            ],
        },
    )


def summit() -> SeedSpec:
    """The stage of the 1985 Geneva summit: a cross-domain insertion, flag recolour and controls."""
    aide_faces = []
    for skin, hair in (((214, 176, 150), (60, 50, 44)), ((226, 190, 160), (150, 150, 150))):
        rgb, a = pt.synthetic_face((40, 48), skin=skin, hair=hair)
        aide_faces.append(np.dstack([rgb, (a * 255).astype(np.uint8)]))
    s = sc.summit(aide_faces)
    x0, y0, x1, y1 = s.boxes["aide0"]
    size = (x1 - x0, y1 - y0)
    named = put(
        hopper_face((size[0] - 8, size[1] - 6)),
        (x0 + 4, y0 + 4),
        feather_px=2,
        grain=3.0,
        seed=51,
    )
    other = pt.synthetic_face((size[0] - 8, size[1] - 6), skin=(200, 160, 130), hair=(30, 26, 24))
    unnamed = put(other, (x0 + 4, y0 + 4), feather_px=2, grain=3.0, seed=51)
    role = "the left of the two aides standing between the lecterns"
    event = "the Reagan-Gorbachev summit in Geneva (1985-11-19)"
    return SeedSpec(
        "summit",
        s.rgb,
        "A5",
        "photograph",
        {
            "label": "Reagan-Gorbachev summit in Geneva",
            "date": "1985-11-19",
            "place": "Geneva, Switzerland",
        },
        _src("summit", "the stage of the 1985 Geneva summit; people drawn synthetic"),
        [
            Forgery(
                "k1-hopper",
                "K1",
                named,
                "C2",
                "replace",
                "Give the left aide between the lecterns Grace Hopper's face.",
                {**HOPPER, "role": role},
                f"Grace Hopper, a U.S. Navy computer scientist, was not part of either delegation at {event}.",
                k1_type="cross_domain",
                target="left aide",
            ),
            Forgery(
                "k0-aide",
                "K0",
                unnamed,
                "C2",
                "replace",
                "Give the left aide between the lecterns another unnamed face.",
                {"name": "unnamed aide", "aliases": [], "role": role},
                None,
                control_for="K1",
                target="left aide",
            ),
            Forgery(
                "k5-flag",
                "K5",
                E.recolour(s.masks["soviet_flag"], hue=220),
                "C2",
                "recolour",
                "Recolour the red flag at the right blue.",
                {
                    "name": "flag of the Soviet Union",
                    "aliases": ["Soviet flag", "USSR flag"],
                    "role": "the flag at the right",
                },
                f"The flag of the Soviet Union was red, not blue, at {event}.",
                target="flag of the Soviet Union",
                attribute={"name": "colour", "value": "blue"},
            ),
            Forgery(
                "k0-curtain",
                "K0",
                E.recolour(s.masks["curtain"], hue=140),
                "C3",
                "recolour",
                "Recolour the stage curtain at the right green.",
                {"name": "curtain", "aliases": [], "role": "at the right edge"},
                None,
                control_for="K5",
                target="curtain",
                attribute={"name": "colour", "value": "green"},
            ),
        ],
        wrong_event={"label": "Signing of the Schengen Agreement", "date": "1985-06-14"},
        record={
            "people": [
                {"name": "left aide", "box": list(s.boxes["aide0"]), "principal": False},
                {"name": "right aide", "box": list(s.boxes["aide1"]), "principal": False},
            ],
            "objects": [
                {
                    "name": "flag of the Soviet Union",
                    "aliases": ["Soviet flag"],
                    "attributes": {"colour": "red"},
                },
                {"name": "curtain"},
            ],
        },
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
        _src("painting", "a drawing after Mondrian's 1930 composition"),
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
        _src("keepcalm", "a drawing of the 1939 poster's layout"),
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
        _src("moonfilm", "a drawing after the film's best-known shot"),
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
        _src("plaque", "a drawing of the plaque's text and layout"),
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


ALL = (poster, scoreboard, summit, painting, keep_calm, moon_film, plaque)
"""Rendered seed builders, in dataset order."""
