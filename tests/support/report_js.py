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


def answer_codes(meta: dict[str, Any], codes: list[int]) -> list[tuple[str, str, str, str, str]]:
    """An index row's answer codes as (model, probe, condition, verdict, level) names."""
    names = [meta[k] for k in ("models", "probes", "conditions", "verdicts", "levels")]
    out = []
    for code in codes:
        digits = []
        for radix in reversed(meta["code_radix"]):
            code, digit = divmod(code, radix)
            digits.append(digit)
        out.append(tuple(vs[d] for vs, d in zip(names, reversed(digits), strict=True)))
    return out  # type: ignore[return-value]
