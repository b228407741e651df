"""The demo's rendered news seeds: a poster, a scoreboard and a summit stage (Table 1: text,
place and people edits, K1-K4 and K0)."""

from __future__ import annotations

import numpy as np

from forgebench.demo import edits as E
from forgebench.demo import patches as pt
from forgebench.demo import scenes as sc
from forgebench.demo.photos import hopper_face
from forgebench.demo.specs import (
    HOPPER,
    RENDERED,
    Forgery,
    SeedSpec,
    put,
)

WHITE = (250, 250, 250)
AMBER = (255, 182, 48)


def rendered_source(name: str, after: str) -> dict[str, str]:
    """The ``source`` of a seed drawn here: a ``forgebench:`` URL naming what it depicts."""
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
        rendered_source("poster", "a text poster for the 1998 Winter Olympics; no official emblem"),
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
        rendered_source("scoreboard", "the Estadio Azteca scoreboard after the 1986 final"),
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
        rendered_source("summit", "the stage of the 1985 Geneva summit; people drawn synthetic"),
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


ALL = (poster, scoreboard, summit)
"""The news-like rendered seeds, in build order."""
