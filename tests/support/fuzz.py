"""Seeded malformed inputs for the parsers that read files from outside, run through the CLI.

A :class:`Target` names one parser: the valid file(s) it starts from, how one mutated file is
handed to the CLI (the arguments of one command), and optionally a structure-aware mutator
(JSON lines, TSV cells, TOML values) next to the byte- and line-level ones every target gets.
:func:`fuzz` runs ``cases`` inputs in process (the Typer app's click command, built once) and
checks each ends with exit 0, or a non-zero exit whose stderr ends in exactly one ``error:``
line: never a traceback or another exception. Adding a parser is one more ``Target`` in one more
``tests/hostile/test_fuzz_<name>.py``.

Imported as ``from support.fuzz import Target, fuzz``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HOSTILE_TEXT = [
    "", " ", "-1", "0", "1e999", "-1e999", "NaN", "nan", "inf", "-inf", "null", "true", "[]", "{}",
    "../../../etc/passwd", "/etc/passwd", "C:\\Windows\\win.ini", "\x00", "\t", '"', "'", "\\",
    "[", "]", "{", "}", "=", "#", "9" * 400, "x" * 20_000, "\u202e\u0000\ufeff", "é" * 50,
    "[" * 3000, "['a'", "[1, 2]", "2019-13-45", "<script>alert(1)</script>", "Bearer sk-123",
]  # fmt: skip
"""Values that broke or could break a parser: wrong types, huge numbers, paths that leave a
folder, control characters, unbalanced brackets, deep nesting, impossible dates."""

HOSTILE_JSON: list[Any] = [
    None, -1, 0, 10**30, 1e308, -1e308, "", [], {}, [[]], True, "x" * 20_000,
    "../../../etc/passwd", "/etc/passwd", {"a": {"b": {"c": []}}}, [None], "nan", "2019-13-45",
    [1, "a", None], "\x00", -0.0,
]  # fmt: skip


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def _truncate(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def _drop_line(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    del lines[rng.randrange(len(lines))]
    return b"\n".join(lines)


def _dup_line(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i])
    return b"\n".join(lines)


def _swap_lines(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


def _insert_bytes(data: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(data) + 1)
    junk = rng.choice([b"\x00", b"\xff\xfe", b"\t", b"\n", b'"', b"[", b"{", b"\r", b"\x1b[2J"])
    return data[:at] + junk * rng.randint(1, 4) + data[at:]


def _flip_bytes(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return b"\xff"
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        out[rng.randrange(len(out))] = rng.randrange(256)
    return bytes(out)


def _replace_token(data: bytes, rng: random.Random) -> bytes:
    text = data.decode("utf-8", "replace")
    tokens = [i for i, ch in enumerate(text) if ch.isalnum()]
    if not tokens:
        return (rng.choice(HOSTILE_TEXT)).encode()
    i = rng.choice(tokens)
    j = i
    while j < len(text) and (text[j].isalnum() or text[j] in "._-"):
        j += 1
    return (text[:i] + rng.choice(HOSTILE_TEXT) + text[j:]).encode("utf-8", "surrogatepass")


def _whole(data: bytes, rng: random.Random) -> bytes:
    return rng.choice([b"", b"\n\n", b"\xff\xfe\x00", b"[" * 100_000, b"x" * 200_000, data * 3])


BYTE_MUTATORS: list[Callable[[bytes, random.Random], bytes]] = [
    _truncate, _drop_line, _dup_line, _swap_lines, _insert_bytes, _flip_bytes, _replace_token,
    _whole,
]  # fmt: skip


def _walk_set(obj: Any, rng: random.Random) -> Any:
    """``obj`` with one value somewhere inside replaced (or a key dropped or added)."""
    if isinstance(obj, dict) and obj and rng.random() < 0.7:
        key = rng.choice(list(obj))
        roll = rng.random()
        if roll < 0.15:
            return {k: v for k, v in obj.items() if k != key}
        if roll < 0.25:
            return {**obj, rng.choice(["extra", "", "id", "__proto__"]): rng.choice(HOSTILE_JSON)}
        return {**obj, key: _walk_set(obj[key], rng)}
    if isinstance(obj, list) and obj and rng.random() < 0.7:
        i = rng.randrange(len(obj))
        return [*obj[:i], _walk_set(obj[i], rng), *obj[i + 1 :]]
    return rng.choice(HOSTILE_JSON)


def json_lines_mutator(data: bytes, rng: random.Random) -> bytes:
    """One line of a JSON-lines file (or the one JSON document) with a value replaced."""
    lines = _lines(data)
    spots = [i for i, x in enumerate(lines) if x.strip()]
    if not spots:
        return data
    i = rng.choice(spots)
    try:
        obj = json.loads(lines[i])
    except (ValueError, RecursionError):
        return data
    lines[i] = json.dumps(_walk_set(obj, rng)).encode()
    return b"\n".join(lines)


def json_document_mutator(data: bytes, rng: random.Random) -> bytes:
    """A whole JSON document with a value replaced somewhere inside."""
    try:
        obj = json.loads(data)
    except (ValueError, RecursionError):
        return data
    return json.dumps(_walk_set(obj, rng)).encode()


def tsv_mutator(data: bytes, rng: random.Random) -> bytes:
    """One cell of a TSV replaced by a hostile one (or a row given too few or too many)."""
    rows = [r.split(b"\t") for r in _lines(data)]
    i = rng.randrange(len(rows))
    if not rows[i] or rng.random() < 0.15:
        rows[i] = rows[i][: rng.randrange(len(rows[i]) + 1)] or [b""]
    else:
        j = rng.randrange(len(rows[i]))
        rows[i][j] = rng.choice(HOSTILE_TEXT).encode("utf-8", "surrogatepass")
    return b"\n".join(b"\t".join(r) for r in rows)


TOML_VALUES = [
    "nan", "-nan", "inf", "-inf", "-1", "0", "1e400", str(2**70), '""', '"x"', "[]", "{}",
    "true", '"../../etc/passwd"', "[1, 2]", "{ a = 1 }", '"openai/"', '"=/"', "'''\n'''",
    "0.0000001", "-0.0", '"http://127.0.0.1:9/v1,http://"', "[\"not a url\"]",
]  # fmt: skip


def toml_mutator(data: bytes, rng: random.Random) -> bytes:
    """One ``key = value`` line of a TOML file given a hostile value (or a new key)."""
    lines = _lines(data)
    spots = [i for i, x in enumerate(lines) if b"=" in x]
    if not spots or rng.random() < 0.2:
        key = rng.choice(["price_in", "price_out", "price_image", "concurrency", "rpm",
                          "timeout_s", "max_attempts", "max_tokens", "temperature", "base_urls",
                          "max_images", "images_per_call", "extra_body", "spec", "junk"])  # fmt: skip
        lines.append(f"{key} = {rng.choice(TOML_VALUES)}".encode())
        return b"\n".join(lines)
    i = rng.choice(spots)
    key = lines[i].split(b"=", 1)[0]
    lines[i] = key + b"= " + rng.choice(TOML_VALUES).encode()
    return b"\n".join(lines)


@dataclass
class Target:
    """One parser under fuzz."""

    name: str
    seeds: list[bytes]
    """Valid inputs the mutations start from."""
    args: Callable[[Path, int], list[str]]
    """The CLI arguments that make the parser read ``case_file`` (given case index)."""
    structured: list[Callable[[bytes, random.Random], bytes]] = field(default_factory=list)
    """Format-aware mutators, tried about half of the time."""
    case_name: str = "input"
    """The file name of each case (some parsers go by the suffix)."""


@dataclass
class FuzzReport:
    """What :func:`fuzz` saw."""

    cases: int = 0
    ok: int = 0
    refused: int = 0
    codes: dict[int, int] = field(default_factory=dict)


def mutated(target: Target, n: int, seed: int) -> Iterator[bytes]:
    """``n`` malformed inputs, the same for the same ``seed``; one to three mutations each."""
    rng = random.Random(seed)
    for _ in range(n):
        data = rng.choice(target.seeds)
        for _ in range(rng.randint(1, 3)):
            pool = target.structured if target.structured and rng.random() < 0.5 else None
            mutate = rng.choice(pool or BYTE_MUTATORS)
            data = mutate(data, rng)
        yield data


_COMMAND: Any = None


def command() -> Any:
    """The CLI's click command, built once (building it per call would dominate the time)."""
    global _COMMAND
    if _COMMAND is None:
        import typer

        from forgebench.cli import app

        _COMMAND = typer.main.get_command(app)
    return _COMMAND


def check(res: Any, what: str) -> None:
    """Exit 0, or non-zero with stderr ending in exactly one ``error:`` line; never a traceback."""
    exc = res.exception
    assert exc is None or isinstance(exc, SystemExit), f"{what}: {type(exc).__name__}: {exc}"
    assert "Traceback" not in res.output, f"{what}: {res.output[-2000:]}"
    if res.exit_code == 0:
        return
    lines = [x for x in res.stderr.splitlines() if x.strip()]
    errors = [x for x in lines if x.startswith("error:")]
    assert lines and lines[-1].startswith("error:") and len(errors) == 1, (
        f"{what}: exit {res.exit_code}, stderr ends {lines[-3:]}"
    )


def fuzz(target: Target, folder: Path, *, n: int = 200, seed: int = 0) -> FuzzReport:
    """Run ``n`` seeded malformed inputs of ``target`` through the CLI; every one must end
    cleanly (:func:`check`). Returns the counts."""
    from click.testing import CliRunner

    runner = CliRunner()
    report = FuzzReport()
    for k, data in enumerate(mutated(target, n, seed)):
        case = folder / f"case{k}" / target.case_name
        case.parent.mkdir(parents=True)
        case.write_bytes(data)
        res = runner.invoke(command(), target.args(case, k))
        check(res, f"{target.name} case {k} (seed {seed}; {data[:120]!r})")
        report.cases += 1
        report.ok += res.exit_code == 0
        report.refused += res.exit_code != 0
        report.codes[res.exit_code] = report.codes.get(res.exit_code, 0) + 1
    return report
