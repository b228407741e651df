"""Read the report's data files (``report/data/*.js``: JSON assigned to ``window.FB``) as the
viewer reads them: the index with the rows of all its chunks, a page with each item's answers
as one object per answer."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any


def raw_js(path: Path, name: str) -> Any:
    """The JSON payload a data file assigns (``FB.<name> = ...``, a page of ``FB.pages`` or a
    chunk of ``FB.rowChunks``), as written."""
    text = path.read_text(encoding="utf-8")
    m = (
        re.search(rf"FB\.{name} = (.*);\n", text)
        if name not in ("page", "rows")
        else re.search(r"\] = (.*);\nif", text)
    )
    assert m, f"{path} does not assign FB.{name}"
    return json.loads(m.group(1).replace("<\\/", "</"))


def load_js(path: Path, name: str) -> Any:
    """:func:`raw_js`, with the index's rows of every chunk (``rows-NNNN.js``, in order) and a
    page's answers given back to its items (``item["answers"]``: one dict per answer, keys as
    the viewer's detail view reads them)."""
    payload = raw_js(path, name)
    if name == "index":
        for k in range(1, payload["meta"].get("row_chunks", 1)):
            chunk = raw_js(path.parent / f"rows-{k:04d}.js", "rows")
            assert chunk["k"] == k
            payload["rows"].extend(chunk["rows"])
        assert len(payload["rows"]) == payload["meta"].get("n_rows", len(payload["rows"]))
    if name == "page" and "answers" in payload:
        meta = raw_js(path.parent / "index.js", "index")["meta"]
        unpack(payload, meta)
    return payload


def unpack(page: dict[str, Any], meta: dict[str, Any]) -> None:
    """A page's column-wise answers as each item's list of answer dicts (as viewer.js does)."""
    cols = page.pop("answers")
    k = 0
    for item, n in zip(page["items"], cols["n"], strict=True):
        answers = []
        for _ in range(n):
            a = {
                "m": meta["models"][cols["m"][k]],
                "p": meta["probes"][cols["p"][k]],
                "c": meta["conditions"][cols["c"][k]],
                "t": cols["t"][k],
                "v": meta["verdicts"][cols["v"][k]],
                "l": meta["levels"][cols["l"][k]],
                "r": cols["r"][k],
                "e": cols["e"][k],
            }
            if cols.get("s") and cols["s"][k]:
                a["s"] = meta["notes"][cols["s"][k]]
            if cols.get("i") and cols["i"][k] >= 0:
                a["i"] = cols["iv"][cols["i"][k]]
            if cols.get("o") and cols["o"][k]:
                a["o"] = cols["o"][k]
            answers.append(a)
            k += 1
        item["answers"] = answers
    assert k == len(cols["t"])


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
