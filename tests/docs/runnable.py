"""The shell blocks of the docs' runnable pages, parsed and run in-process.

A page's shell blocks are fenced ``console``: each ``$ forgebench ...`` line is a command (run
through Typer's ``CliRunner`` on ``forgebench.cli:app``, in the current folder), the lines after it
up to the next ``$`` are an excerpt of what it prints. A fenced ``python`` block is run with
``exec`` (the tutorials' small preparation snippets). Shown output matches when every shown line,
normalised (:func:`normalise`), appears in the command's normalised output, in order (lines in
between may be left out of the page).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"

RUNNABLE_PAGES = (
    "getting-started.md",
    "tutorials/mandela.md",
    "tutorials/forensics.md",
    "tutorials/pixar.md",
)


@dataclass
class Command:
    argv: list[str]
    shown: list[str] = field(default_factory=list)
    line: int = 0


@dataclass
class Block:
    page: str
    line: int
    lang: str
    text: str
    commands: list[Command]

    @property
    def first(self) -> str:
        if self.commands:
            return " ".join(self.commands[0].argv)
        return self.text.strip().splitlines()[0] if self.text.strip() else ""


_FENCE = re.compile(r"^```(\w+)?[^\n]*\n(.*?)^```", re.S | re.M)


def blocks(page: str) -> list[Block]:
    """Every ``console``, ``bash``, ``sh`` and ``python`` block of ``page``."""
    text = (DOCS / page).read_text(encoding="utf-8")
    out = []
    for m in _FENCE.finditer(text):
        lang = (m.group(1) or "").lower()
        if lang not in ("console", "bash", "sh", "shell", "python"):
            continue
        line = text.count("\n", 0, m.start()) + 1
        body = m.group(2)
        cmds: list[Command] = []
        if lang != "python":
            pending = ""
            for k, raw in enumerate(body.splitlines()):
                if raw.startswith("$ ") or pending:
                    piece = raw[2:] if raw.startswith("$ ") and not pending else raw
                    if piece.endswith("\\"):
                        pending += piece[:-1] + " "
                        continue
                    full = pending + piece
                    pending = ""
                    argv = shlex.split(full, comments=True)
                    cmds.append(Command(argv, line=line + 1 + k))
                elif cmds and raw.strip():
                    cmds[-1].shown.append(raw)
        out.append(Block(page, line, lang, body, cmds))
    return out


_TIMING = re.compile(r"\b\d+(\.\d+)?\s?(s|ms|CPU-s|GB|MB)\b")


def normalise(text: str, folder: Path | None = None) -> str:
    """Whitespace collapsed, the folder a command ran in cut from paths, timings and sizes
    replaced by ``<n>``, Rich's table rules dropped."""
    if folder is not None:
        text = text.replace(str(folder) + "/", "").replace(str(folder), ".")
    text = _TIMING.sub("<n>", text)
    text = re.sub(r"[━─┏┓┗┛┡┩└┘┳┻╇┼┃│]", " ", text)
    return " ".join(text.split())


def matches(shown: list[str], output: str, folder: Path | None = None) -> str | None:
    """None when every shown line appears in ``output`` in order; else the first missing one."""
    got = [normalise(line, folder) for line in output.splitlines()]
    got = [line for line in got if line]
    at = 0
    for want_raw in shown:
        want = normalise(want_raw, folder)
        if not want or want == "...":
            continue
        while at < len(got) and want not in got[at]:
            at += 1
        if at == len(got):
            return want_raw
        at += 1
    return None
