"""The demo's photographic seeds (images that ship with scikit-image and matplotlib) and the
forgeries made from them: Eileen Collins's portrait, Grace Hopper's, a Falcon 9 launch and the
Hubble Space Telescope (seed 000, Table 1's K1 and K2 families, the absent-celebrity triple)."""

from __future__ import annotations

import cv2
import numpy as np
import skimage.data
from PIL import Image

from forgebench.construct import editors as ed
from forgebench.construct.editors import Box
from forgebench.demo import edits as E
from forgebench.demo import patches as pt
from forgebench.demo.specs import COLLINS, HOPPER, Forgery, SeedSpec, figure, put
from forgebench.util.mpl_data import mpl_data


def _hopper_photo() -> np.ndarray:
    path = mpl_data("sample_data", "grace_hopper.jpg")
    return np.asarray(Image.open(path).convert("RGB")).copy()


def hopper_face(size: tuple[int, int]) -> pt.Patch:
    return pt.face_from_photo(_hopper_photo(), (262, 232), (92, 112), size)


def _synthetic_over(photo: np.ndarray, box: Box, skin: tuple[int, ...]) -> np.ndarray:
    """An identity-free face for ``box``: the photo's skin shading blurred beyond recognition
    (Gaussian sigma 9) with drawn brows, eyes, nose and mouth laid over it."""
    x0, y0, x1, y1 = box
    blurred = cv2.GaussianBlur(photo[y0:y1, x0:x1], (0, 0), 9).astype(np.float32)
    feat, a = pt.synthetic_face((x1 - x0, y1 - y0), skin=skin, features_only=True)  # type: ignore[arg-type]
    out = blurred * (1 - a[..., None] * 0.85) + feat.astype(np.float32) * a[..., None] * 0.85
    return np.clip(out, 0, 255).round().astype(np.uint8)


def astronaut() -> SeedSpec:
    """NASA portrait of Eileen Collins: the absent-celebrity triple (erase / swap / K0) and a K2."""
    rgb = skimage.data.astronaut()
    center, axes = (225, 122), (44, 60)
    fbox: Box = (center[0] - axes[0], center[1] - axes[1], center[0] + axes[0], center[1] + axes[1])
    skin = tuple(int(v) for v in np.median(rgb[100:150, 200:250].reshape(-1, 3), axis=0))
    size = (2 * axes[0], 2 * axes[1])
    face_alpha = ed.ellipse_mask(
        (size[1], size[0]), ((size[0] - 1) / 2, (size[1] - 1) / 2), (axes[0] - 1, axes[1] - 1)
    )
    erase = E.paste(
        (_synthetic_over(rgb, fbox, skin), face_alpha),
        fbox[:2],
        feather_px=6,
        grain=2.0,
        seed=11,
    )
    swap_rgb, swap_a = hopper_face(size)
    swap = E.paste((swap_rgb, swap_a), fbox[:2], feather_px=6)
    pen = put(pt.pen((46, 64)), (42, 320), grain=2.0, seed=12)
    phone = put(pt.smartphone((34, 62)), (318, 150), grain=2.0, seed=13)
    visitor = put(figure(hopper_face((60, 72)), (40, 74)), (462, 176), grain=2.0, seed=14)
    role = "the astronaut in the portrait (centre)"
    return SeedSpec(
        "astronaut",
        rgb,
        "A1",
        "photograph",
        {
            "label": "Official NASA portrait of STS-93 commander Eileen Collins",
            "date": "c. 1998",
            "place": "NASA Johnson Space Center, Houston, Texas",
        },
        {
            "url": "https://flic.kr/p/r9qvLn (scikit-image skimage.data.astronaut)",
            "license": "Public domain (NASA)",
        },
        [
            Forgery(
                "erase",
                "K1",
                erase,
                "C1",
                "replace",
                "Replace the astronaut's face with a synthetic face under an elliptical mask.",
                {**COLLINS, "role": role},
                "Eileen Collins, the STS-93 commander this portrait shows, has been replaced by a synthetic face.",
                k1_type="absent_celebrity",
                variant="erase",
                erased=COLLINS,
                face_box=fbox,
                wrong_name="Sally Ride",
                target="Eileen Collins",
            ),
            Forgery(
                "swap",
                "K1",
                swap,
                "C1",
                "replace",
                "Replace the astronaut's face with Grace Hopper's face.",
                {**HOPPER, "role": role},
                "Grace Hopper died in 1992, before this portrait of STS-93 commander Eileen Collins (c. 1998).",
                k1_type="date_impossible",
                variant="swap",
                target="Eileen Collins",
            ),
            Forgery(
                "k0",
                "K0",
                pen,
                "C2",
                "insert",
                "Add an ordinary pen on the astronaut's left sleeve.",
                {"name": "ballpoint pen", "aliases": ["pen"], "role": "on the sleeve at the left"},
                None,
                control_for="K1",
                variant="k0",
            ),
            Forgery(
                "k2-phone",
                "K2",
                phone,
                "C3",
                "insert",
                "Add a touchscreen smartphone against the backdrop right of the head.",
                {
                    "name": "smartphone",
                    "aliases": ["iPhone", "mobile phone", "touchscreen phone"],
                    "role": "against the backdrop, right of the head",
                },
                "Touchscreen smartphones were introduced in 2007, after this portrait of STS-93 commander Eileen Collins (c. 1998).",
            ),
            Forgery(
                "k1-hopper",
                "K1",
                visitor,
                "C2",
                "insert",
                "Add Grace Hopper as a small figure in the background right of the shuttle model.",
                {**HOPPER, "role": "small figure in the background, right of the shuttle model"},
                "Grace Hopper died in 1992, before this portrait of STS-93 commander Eileen Collins (c. 1998).",
                k1_type="date_impossible",
            ),
        ],
        principal_figures=["Eileen Collins"],
        wrong_event={"label": "Mars Pathfinder landing", "date": "1997-07-04"},
        record={
            "people": [
                {
                    "name": "Eileen Collins",
                    "entity": "demo:eileen-collins",
                    "box": list(fbox),
                    "position": "centre",
                }
            ]
        },
    )


def hopper() -> SeedSpec:
    """The official Navy portrait of Commodore Grace Hopper (1984): a K2 and its K0 control."""
    rgb = _hopper_photo()
    phone = put(pt.smartphone((36, 62)), (440, 528), grain=3.0, seed=21)
    pen = put(pt.pen((36, 62), body=(150, 120, 40)), (440, 528), grain=3.0, seed=22)
    where = "lower right, over the uniform"
    return SeedSpec(
        "hopper",
        rgb,
        "A1",
        "photograph",
        {
            "label": "Official U.S. Navy portrait of Commodore Grace M. Hopper",
            "date": "1984-01-20",
            "place": "United States",
        },
        {
            "url": "http://commons.wikimedia.org/wiki/File:Grace_Hopper.jpg (matplotlib sample_data/grace_hopper.jpg)",
            "license": "Public domain (U.S. Navy photograph)",
        },
        [
            Forgery(
                "k2-phone",
                "K2",
                phone,
                "C3",
                "insert",
                "Add a touchscreen smartphone at the lower right, over the uniform.",
                {
                    "name": "smartphone",
                    "aliases": ["iPhone", "mobile phone", "touchscreen phone"],
                    "role": where,
                },
                "Touchscreen smartphones were introduced in 2007, after this 1984 portrait of Commodore Grace Hopper (1984-01-20).",
            ),
            Forgery(
                "k0-pen",
                "K0",
                pen,
                "C3",
                "insert",
                "Add an ordinary pen at the lower right, over the uniform.",
                {"name": "pen", "aliases": ["fountain pen"], "role": where},
                None,
                control_for="K2",
            ),
        ],
        principal_figures=["Grace Hopper"],
        record={
            "people": [
                {
                    "name": "Grace Hopper",
                    "entity": "demo:grace-hopper",
                    "box": [170, 120, 354, 344],
                    "position": "centre",
                }
            ]
        },
    )


def rocket() -> SeedSpec:
    """Falcon 9 with DSCOVR on the pad (2015): people, place and event-attribute edits."""
    rgb = skimage.data.rocket()
    h, w = rgb.shape[:2]
    spot = (522, 352)
    named = put(figure(hopper_face((60, 72)), (40, 74)), spot, grain=2.0, seed=31)
    face = pt.synthetic_face((60, 72), skin=(205, 170, 150), hair=(200, 200, 200))
    unnamed = put(figure(face, (40, 74)), spot, grain=2.0, seed=31)
    peak = put(pt.mountain((86, 62)), (210, 312), grain=2.0, seed=32)
    hsv_v = rgb.max(axis=2).astype(np.int16)
    hsv_s = hsv_v - rgb.min(axis=2)
    body = ed.box_mask((h, w), (300, 125, 345, 405)) * ((hsv_v > 150) & (hsv_s < 60))
    red = E.recolour(body, hue=2, min_saturation=0.55)
    lamp = ed.box_mask((h, w), (125, 355, 175, 400)) * (hsv_s > 40)
    cyan = E.recolour(lamp, hue=195)
    spectator = "spectator at the lower right, by the launch pad"
    event = "the Falcon 9 launch of DSCOVR (2015-02-11)"
    return SeedSpec(
        "rocket",
        rgb,
        "A1",
        "photograph",
        {
            "label": "Falcon 9 launch of DSCOVR",
            "date": "2015-02-11",
            "place": "Space Launch Complex 40, Cape Canaveral, Florida",
        },
        {
            "url": "https://www.flickr.com/photos/spacexphotos/16511594820/ (scikit-image skimage.data.rocket)",
            "license": "Public domain (SpaceX, CC0 1.0)",
        },
        [
            Forgery(
                "k1-hopper",
                "K1",
                named,
                "C2",
                "insert",
                "Add Grace Hopper as a spectator at the lower right, by the launch pad.",
                {**HOPPER, "role": spectator},
                f"Grace Hopper died in 1992, before {event}.",
                k1_type="date_impossible",
            ),
            Forgery(
                "k0-spectator",
                "K0",
                unnamed,
                "C2",
                "insert",
                "Add an unnamed spectator at the lower right, by the launch pad.",
                {"name": "unnamed spectator", "aliases": [], "role": spectator},
                None,
                control_for="K1",
            ),
            Forgery(
                "k3-mountain",
                "K3",
                peak,
                "C3",
                "insert",
                "Add a snow-capped mountain on the horizon left of the rocket.",
                {
                    "name": "snow-capped mountain",
                    "aliases": ["mountain", "peak"],
                    "role": "on the horizon, left of the rocket",
                },
                f"Cape Canaveral lies on the flat Florida coast with no mountains on the horizon, unlike this picture of {event}.",
                place="snow-capped mountains on the horizon",
            ),
            Forgery(
                "k5-red",
                "K5",
                red,
                "C1",
                "recolour",
                "Recolour the white rocket body red.",
                {
                    "name": "Falcon 9",
                    "aliases": ["Falcon 9 rocket", "the rocket"],
                    "role": "the rocket in the centre",
                },
                f"The Falcon 9 that launched DSCOVR was white, not red ({event}).",
                target="Falcon 9",
                attribute={"name": "colour", "value": "red"},
            ),
            Forgery(
                "k0-lamp",
                "K0",
                cyan,
                "C3",
                "recolour",
                "Recolour the orange floodlight at the lower left cyan.",
                {"name": "floodlight", "aliases": ["lamp", "light"], "role": "at the lower left"},
                None,
                control_for="K5",
                target="floodlight",
                attribute={"name": "colour", "value": "cyan"},
            ),
        ],
        wrong_event={"label": "Falcon 9 launch of Jason-3 from Vandenberg", "date": "2016-01-17"},
        record={
            "objects": [
                {
                    "name": "Falcon 9",
                    "entity": "demo:falcon-9",
                    "box": [300, 125, 345, 405],
                    "attributes": {"colour": "white"},
                }
            ]
        },
    )


def hubble() -> SeedSpec:
    """Hubble eXtreme Deep Field (2012), downscaled 2x: an anchor-free removal."""
    full = Image.fromarray(skimage.data.hubble_deep_field())
    rgb = np.asarray(full.reduce(2)).copy()
    mask = ed.ellipse_mask(rgb.shape[:2], (62, 200), (13, 13))
    removed = E.remove(mask, method="telea", radius=4)
    return SeedSpec(
        "hubble",
        rgb,
        "A1",
        "photograph",
        {
            "label": "Hubble eXtreme Deep Field (XDF) release",
            "date": "2012-09-25",
            "place": "Space Telescope Science Institute, Baltimore",
        },
        {
            "url": "http://hubblesite.org/newscenter/archive/releases/2012/37/image/a/ (scikit-image skimage.data.hubble_deep_field, downscaled 2x)",
            "license": "Public domain (NASA)",
        },
        [
            Forgery(
                "k0-galaxy",
                "K0",
                removed,
                "C3",
                "remove",
                "Remove the small spiral galaxy at the left edge.",
                {"name": "faint galaxy", "aliases": ["galaxy"], "role": "at the left edge"},
                None,
                control_for="K6",
                target="faint galaxy",
            ),
        ],
    )
