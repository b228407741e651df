"""The demo's edits as edit specifications for the ``local/auto`` editor (not as pixels).

Each helper describes one procedural edit: the operation, the edit region, the editor
parameters and the arrays it needs (a patch with its alpha, or a mask), which the demo's seed
folder stores as PNG files. ``forgebench build`` then renders every forgery with the local editor
from these specifications, so the demo's forgeries come out of the same pipeline as any user's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from forgebench.construct.editors import Box

Patch = tuple[np.ndarray, np.ndarray]


@dataclass
class LocalEdit:
    """One local-editor edit."""

    kind: str
    """The local editor's operation: ``paste``, ``recolour``, ``remove`` or ``retext``."""
    region: Box
    """The edit box (a paste's footprint, a mask's bounding box, a text box)."""
    params: dict[str, Any] = field(default_factory=dict)
    """``local/auto`` parameters (file parameters are added when the seed folder is written)."""
    patch: np.ndarray | None = None
    """RGBA patch to paste (uint8)."""
    mask: np.ndarray | None = None
    """H x W mask (> 0.5 edits)."""
    text: str | None = None
    """retext: the new text."""


def _bbox(mask: np.ndarray) -> Box:
    ys, xs = np.nonzero(mask > 0.5)
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


def paste(
    patch: Patch, xy: tuple[int, int], feather_px: float = 1.0, grain: float = 0.0, seed: int = 0
) -> LocalEdit:
    """Paste a drawn ``(rgb, alpha)`` patch with its top-left corner at ``xy``."""
    rgb, alpha = patch
    h, w = rgb.shape[:2]
    rgba = np.dstack([rgb, np.clip(alpha * 255.0, 0, 255).round().astype(np.uint8)])
    return LocalEdit(
        "paste",
        (xy[0], xy[1], xy[0] + w, xy[1] + h),
        {"feather": feather_px, "grain": grain, "seed": seed},
        patch=rgba,
    )


def recolour(
    mask: np.ndarray, hue: float | None = None, hue_shift: float = 0.0, min_saturation: float = 0.0
) -> LocalEdit:
    """Recolour the pixels under ``mask``."""
    params: dict[str, Any] = {"hue_shift": hue_shift, "min_saturation": min_saturation}
    if hue is not None:
        params["hue"] = hue
    return LocalEdit("recolour", _bbox(mask), params, mask=mask)


def remove(mask: np.ndarray, method: str = "telea", radius: float = 5.0) -> LocalEdit:
    """Inpaint what lies under ``mask``."""
    return LocalEdit("remove", _bbox(mask), {"method": method, "radius": radius}, mask=mask)


def retext(
    box: Box,
    text: str,
    size: int,
    fill: tuple[int, int, int],
    bold: bool = True,
    serif: bool = False,
) -> LocalEdit:
    """Replace the text in ``box`` with ``text`` in a DejaVu font of ``size`` px."""
    return LocalEdit(
        "retext",
        box,
        {"font_size": size, "fill": list(fill), "bold": bold, "serif": serif},
        text=text,
    )
