"""Files that ship in matplotlib's ``mpl-data`` folder (its DejaVu fonts, its sample photos such as
``grace_hopper.jpg``), found without importing matplotlib: the demo's builders, the local text
editor and the tests only need the files, and importing matplotlib costs a process 0.2-0.3 s.
:func:`dejavu` is the one place a DejaVu font is opened by its style.

The folder is the one ``matplotlib.get_data_path()`` names (``mpl-data`` beside the package's
``__init__.py``); ``cbook.get_sample_data(name)`` is ``sample_data/name`` in it."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from PIL import ImageFont


def mpl_data(*parts: str) -> Path:
    """``mpl-data/<parts>`` of the installed matplotlib (whether the file exists is the caller's
    to find out); ModuleNotFoundError when matplotlib is not installed."""
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError("matplotlib is not installed", name="matplotlib")
    return Path(spec.origin).parent.joinpath("mpl-data", *parts)


def dejavu(size: int, bold: bool = True, serif: bool = False) -> ImageFont.FreeTypeFont:
    """A DejaVu font (Sans, or Serif; bold by default) at ``size`` px from matplotlib's files,
    never a system font, so text renders the same on every machine."""
    name = "DejaVu" + ("Serif" if serif else "Sans") + ("-Bold" if bold else "") + ".ttf"
    return ImageFont.truetype(str(mpl_data("fonts", "ttf", name)), size)
