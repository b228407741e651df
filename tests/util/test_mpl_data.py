"""matplotlib's shipped files are found where matplotlib itself says, without importing it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from forgebench.util.mpl_data import dejavu, mpl_data

_PROBE = """
import sys
from forgebench.util.mpl_data import dejavu, mpl_data
print(mpl_data("sample_data", "grace_hopper.jpg"))
print(mpl_data("fonts", "ttf", "DejaVuSans-Bold.ttf"))
print("matplotlib" in sys.modules)
"""


def test_the_files_are_matplotlibs_own_and_matplotlib_is_not_imported() -> None:
    out = subprocess.run(
        [sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    import matplotlib
    from matplotlib import cbook

    assert Path(out[0]) == Path(cbook.get_sample_data("grace_hopper.jpg", asfileobj=False))
    assert (
        Path(out[1]) == Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans-Bold.ttf"
    )
    assert Path(out[0]).is_file() and Path(out[1]).is_file()
    assert out[2] == "False"


def test_without_matplotlib_it_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ModuleNotFoundError, match="matplotlib is not installed"):
        mpl_data("fonts")


@pytest.mark.parametrize(("bold", "serif", "file"), [
    (True, False, "DejaVuSans-Bold.ttf"), (False, False, "DejaVuSans.ttf"),
    (True, True, "DejaVuSerif-Bold.ttf"), (False, True, "DejaVuSerif.ttf"),
])  # fmt: skip
def test_each_dejavu_style_opens_its_own_file(bold: bool, serif: bool, file: str) -> None:
    font = dejavu(17, bold=bold, serif=serif)
    assert Path(font.path) == mpl_data("fonts", "ttf", file) and font.size == 17
