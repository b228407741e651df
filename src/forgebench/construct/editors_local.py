"""``local/auto``: the procedural editors of :mod:`forgebench.construct.editors` behind the editor
interface, chosen by the step's operation. Deterministic; nothing outside the edit's footprint
changes (so the measured footprint is the honest edit region).

Parameters (``params`` of the edit step; paths relative to the seed folder, resolved by the
builder):

- ``insert`` / ``replace``: ``patch`` (an image; its alpha channel, else ``alpha`` (a grey
  image), else opaque), resized to the region; ``feather`` (px, default 2), ``grain`` (sigma in
  grey levels, default 0), ``seed`` (added to the candidate index);
- ``remove``: the mask (else the region) is inpainted; ``method`` ``telea`` | ``ns``, ``radius``;
- ``recolour``: the mask (else the region), narrowed to ``select`` (``saturated``: saturation >
  40; ``pale``: value > 150 and saturation < 60; default all); ``hue`` (degrees) or
  ``hue_shift``; ``min_saturation`` (0..1);
- ``retext``: the region's old ink (pixels ``threshold`` grey levels from the box border's
  colour, default 40) is inpainted and the request's ``text`` drawn centred in ``fill`` (RGB,
  default near-black) in DejaVu Sans (``serif``: Serif; ``bold``, default true) at
  ``font_size`` (default 70% of the region height; the fonts ship with matplotlib);
- ``background``: ``background`` (an image) replaces the pixels under the mask.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from PIL import Image

from forgebench.construct import editors as ed
from forgebench.construct.edit_api import EditOutcome, EditRequest, png_bytes
from forgebench.models.base import ModelError
from forgebench.models.spec import ModelSpec as EditorSpec
from forgebench.util.mpl_data import dejavu


def _fail(msg: str) -> ModelError:
    return ModelError(f"local editor: {msg}", retryable=False, task_only=True)


def _load(path: Any, what: str) -> Image.Image:
    try:
        with Image.open(Path(path)) as im:
            im.load()
            return im.copy()
    except (OSError, TypeError) as exc:
        raise _fail(f"cannot read {what} {path!r} ({exc})") from None


def _area(req: EditRequest) -> np.ndarray:
    if req.mask is not None:
        return req.mask.astype(np.float32)
    if req.region is None:
        raise _fail(f"{req.operation} needs a region or a mask")
    return ed.box_mask(req.image.shape[:2], req.region)


def _paste(req: EditRequest) -> np.ndarray:
    p = req.params
    if "patch" not in p:
        raise _fail(f"{req.operation} needs params.patch (an image to paste)")
    if req.region is None:
        raise _fail(f"{req.operation} needs a region")
    x0, y0, x1, y1 = req.region
    patch = (
        _load(p["patch"], "patch")
        .convert("RGBA")
        .resize((x1 - x0, y1 - y0), Image.Resampling.LANCZOS)
    )
    arr = np.asarray(patch)
    alpha = arr[..., 3].astype(np.float32) / 255.0
    if "alpha" in p:
        a = _load(p["alpha"], "alpha").convert("L").resize(patch.size, Image.Resampling.LANCZOS)
        alpha = np.asarray(a, np.float32) / 255.0
    return ed.paste(
        req.image,
        np.ascontiguousarray(arr[..., :3]),
        (x0, y0),
        alpha,
        feather_px=float(p.get("feather", 2.0)),
        grain=float(p.get("grain", 0.0)),
        seed=int(p.get("seed", 0)) + req.candidate,
    )


def _recolour(req: EditRequest) -> np.ndarray:
    p = req.params
    area = _area(req)
    hsv = cv2.cvtColor(req.image, cv2.COLOR_RGB2HSV)
    sel = p.get("select")
    if sel == "saturated":
        area = area * (hsv[..., 1] > 40)
    elif sel == "pale":
        area = area * ((hsv[..., 2] > 150) & (hsv[..., 1] < 60))
    if "hue" not in p and "hue_shift" not in p:
        raise _fail("recolour needs params.hue or params.hue_shift")
    return ed.recolour(
        req.image,
        area,
        hue_shift=float(p.get("hue_shift", 0.0)),
        hue=None if "hue" not in p else float(p["hue"]),
        min_saturation=float(p.get("min_saturation", 0.0)),
    )


def _retext(req: EditRequest) -> np.ndarray:
    if req.region is None or req.text is None:
        raise _fail("retext needs a region and the new text")
    x0, y0, x1, y1 = req.region
    p = req.params
    size = int(p.get("font_size", max(6, round((y1 - y0) * 0.7))))
    font = dejavu(size, bold=bool(p.get("bold", True)), serif=bool(p.get("serif")))
    fill = tuple(int(v) for v in p.get("fill", (20, 20, 20)))
    threshold = float(p.get("threshold", 40.0))
    return ed.retext(req.image, (x0, y0, x1, y1), req.text, font, fill, threshold=threshold)  # type: ignore[arg-type]


def _background(req: EditRequest) -> np.ndarray:
    if "background" not in req.params:
        raise _fail("background needs params.background (an image)")
    h, w = req.image.shape[:2]
    bg = np.asarray(_load(req.params["background"], "background").convert("RGB").resize((w, h)))
    a = _area(req)
    out = req.image.astype(np.float32) * (1 - a[..., None]) + bg.astype(np.float32) * a[..., None]
    return np.clip(out, 0, 255).round().astype(np.uint8)


class LocalEditor:
    """The procedural editors (``local/auto``)."""

    price_per_image = 0.0
    offline = True
    """Runs here: a failure condemns one candidate (a bad parameter), never the editor."""

    def __init__(self, name: str, what: str) -> None:
        if what != "auto":
            raise ValueError(f"local editor {what!r}: the local editor is local/auto")
        self.name = name

    async def edit(self, request: EditRequest) -> EditOutcome:
        """Apply the step's operation (in a worker thread: OpenCV and Pillow release the GIL);
        unknown operations and missing parameters raise."""
        return await asyncio.to_thread(self._edit, request)

    def _edit(self, request: EditRequest) -> EditOutcome:
        op = request.operation
        if op in ("insert", "replace"):
            out = _paste(request)
        elif op == "remove":
            m = str(request.params.get("method", "telea"))
            if m not in ("telea", "ns"):
                raise _fail(f"unknown inpainting method {m!r} (telea, ns)")
            out = ed.remove(
                request.image,
                _area(request),
                method=m,  # type: ignore[arg-type]
                radius=float(request.params.get("radius", 5.0)),
            )
        elif op == "recolour":
            out = _recolour(request)
        elif op == "retext":
            out = _retext(request)
        elif op == "background":
            out = _background(request)
        else:
            raise _fail(f"unknown operation {op!r}")
        return EditOutcome("ok", png_bytes(out), pixels=out)


def create(spec: EditorSpec, price_per_image: float | None, max_reply_bytes: int) -> LocalEditor:
    """The ``local/WHAT`` editor (the editors registry's entry)."""
    return LocalEditor(spec.name, spec.model)
