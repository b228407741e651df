"""Fuzzing the reader of VLMEvalKit prediction files (``--model NAME=vlmevalkit/FILE``): 1,200
mutated ``.xlsx`` files (truncated or flipped zips, broken or hostile XML, members missing or
declaring huge sizes, wrong columns, odd characters) and 1,200 mutated ``.tsv``/``.csv`` files,
in process, fixed seed. Every one is read or refused with a
:class:`~forgebench.suites.forensics.problems.ForensicsDataError` of one line naming the file:
never another exception, never a hang."""

from __future__ import annotations

import io
import random
import time
import zipfile
from collections import Counter
from pathlib import Path

from forgebench.suites.forensics.predictions import read_predictions
from forgebench.suites.forensics.problems import ForensicsDataError
from support.fuzz import BYTE_MUTATORS, HOSTILE_TEXT, tsv_mutator
from support.raw_xlsx import shared_xml, sheet_xml, write_xlsx

ODD = [
    "\x00",
    "\x1b[2J",
    "\ud800",
    "\r=cmd|' /C calc'!A0",
    "\u202e",
    "&amp;",
    "<t>",
    "]]>",
    "\ufeff",
]
HEADERS = [["index", "prediction"], ["prediction", "index"], ["idx", "prediction"], ["index"],
           ["index", "index", "prediction"], ["", "prediction"], ["index", "prediction", "x"]]  # fmt: skip


def _valid_xlsx(rng: random.Random, path: Path) -> Path:
    header = rng.choice(HEADERS)
    strings = list(dict.fromkeys(header))
    rows: list[list[str | int]] = [[strings.index(h) for h in header]]
    for i in range(rng.randint(0, 6)):
        cell = rng.choice(["A", "B", "", *ODD, *HOSTILE_TEXT[:12]])
        cells: list[str | int] = [str(i) if rng.random() < 0.9 else cell for _ in header]
        if rng.random() < 0.5 and header:
            strings.append(cell.replace("\ud800", "?"))
            cells[-1] = len(strings) - 1
        rows.append(cells)
    safe = [[c.replace("\ud800", "?") if isinstance(c, str) else c for c in r] for r in rows]
    return write_xlsx(path, sheet_xml(safe), shared_xml(strings))


def _mutate_member(data: bytes, rng: random.Random) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        names = src.namelist()
        victim = rng.choice(names)
        for name in names:
            body = src.read(name)
            if name == victim:
                roll = rng.random()
                if roll < 0.15:
                    continue  # the member is missing
                if roll < 0.25:
                    body = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>'
                else:
                    body = rng.choice(BYTE_MUTATORS)(body, rng)
            dst.writestr(name, body, zipfile.ZIP_DEFLATED)
    return out.getvalue()


def _huge_declared(data: bytes, rng: random.Random) -> bytes:
    """A member's declared uncompressed size (local header and directory) set huge."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        info = rng.choice(z.infolist())
    old = info.file_size.to_bytes(4, "little")
    new = rng.choice([0xFFFFFFF0, 2**31, 600 * 2**20, 0]).to_bytes(4, "little")
    return data.replace(old, new) if old != new else data


def _mutate_xlsx(data: bytes, rng: random.Random) -> bytes:
    roll = rng.random()
    if roll < 0.55:
        return _mutate_member(data, rng)
    if roll < 0.7:
        return _huge_declared(data, rng)
    return rng.choice(BYTE_MUTATORS)(data, rng)


def _check(path: Path, seen: Counter[str], **limits: int) -> None:
    try:
        pairs = read_predictions(path, **limits)
    except ForensicsDataError as exc:
        msg = str(exc)
        assert "\n" not in msg and str(path) in msg, msg
        seen["refused"] += 1
    else:
        assert all(isinstance(i, str) and i and isinstance(p, str) for i, p in pairs)
        seen["read"] += 1


def test_fuzz_xlsx_predictions(tmp_path: Path) -> None:
    rng = random.Random(37_2)
    seen: Counter[str] = Counter()
    # CPU seconds: no input may make the reader spin (wall time is the machine's load)
    start = time.process_time()
    for k in range(1200):
        path = _valid_xlsx(rng, tmp_path / f"{k % 7}_ForensicsBench.xlsx")
        if rng.random() < 0.9:
            path.write_bytes(_mutate_xlsx(path.read_bytes(), rng))
        _check(path, seen, **rng.choice([{}, {"max_rows": 3, "max_cell": 5, "max_bytes": 600}]))
    assert seen["read"] > 50 and seen["refused"] > 500, seen
    assert time.process_time() - start < 10


def test_fuzz_tsv_predictions(tmp_path: Path) -> None:
    rng = random.Random(37_3)
    seen: Counter[str] = Counter()
    # CPU seconds: no input may make the reader spin (wall time is the machine's load)
    start = time.process_time()
    for k in range(1200):
        suffix = rng.choice([".tsv", ".csv"])
        sep = "\t" if suffix == ".tsv" else ","
        header = rng.choice(HEADERS)
        lines = [sep.join(header)] + [
            sep.join(str(i) if rng.random() < 0.8 else rng.choice(ODD) for _ in header)
            for i in range(rng.randint(0, 6))
        ]
        data = "\n".join(lines).encode("utf-8", "surrogatepass")
        for _ in range(rng.randint(0, 2)):
            data = rng.choice([*BYTE_MUTATORS, tsv_mutator])(data, rng)
        path = tmp_path / f"{k % 7}_ForensicsBench{suffix}"
        path.write_bytes(data)
        _check(path, seen, **rng.choice([{}, {"max_rows": 3, "max_cell": 40, "max_bytes": 50}]))
    assert seen["read"] > 100 and seen["refused"] > 300, seen
    assert time.process_time() - start < 10
