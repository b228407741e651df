"""Read the report's data files (``report/data/*.js``: JSON assigned to ``window.FB``)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any


def load_js(path: Path, name: str) -> Any:
    """The JSON payload a data file assigns (``FB.<name> = ...`` or a page of ``FB.pages``)."""
    text = path.read_text(encoding="utf-8")
    m = (
        re.search(rf"FB\.{name} = (.*);\n", text)
        if name != "page"
        else re.search(r"\] = (.*);\nif", text)
    )
    assert m, f"{path} does not assign FB.{name}"
    return json.loads(m.group(1).replace("<\\/", "</"))
