"""Every ``forgebench`` command and flag the documentation names (code blocks and inline code of
every page under docs/ and of the README) exists in the Typer app: the command path in the
command tree, each ``--flag`` among that command's options. Read from the app in-process (click's
own tree, what ``--help`` prints), no process started."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import typer

from forgebench.cli import app

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
EXAMPLE_SUITES = {"toy"}
"""Plug-in suites the docs use as examples (tests/suites/toy), not installed as such."""
_CODE = re.compile(r"```[^\n]*\n(.*?)```|`([^`\n]+)`", re.S)


def _uses(text: str) -> list[str]:
    """Each ``forgebench ...`` command line in the code of ``text``, up to a comment or ``;``."""
    found = []
    for m in _CODE.finditer(text):
        code = (m.group(1) or m.group(2) or "").replace("\\\n", " ")
        lines = code.splitlines()
        if any(line.startswith("$ ") for line in lines):  # a console block: the rest is output
            lines = [line[2:] for line in lines if line.startswith("$ ")]
        for line in lines:
            if line.startswith("error: "):  # an error line a page quotes
                continue
            for piece in re.split(r";|&&|\|", line.split(" # ")[0]):
                at = piece.find("forgebench ")
                if at >= 0 and (at == 0 or piece[at - 1] in " $("):
                    found.append(piece[at:])
    return found


def _flags(cmd: Any) -> set[str]:
    names = {"--help"}
    for param in cmd.params:
        names.update(o for o in (*param.opts, *param.secondary_opts) if o.startswith("-"))
    return names


def check(line: str, root: Any) -> str | None:
    """None when ``line``'s command and flags exist; else what is missing."""
    try:
        tokens = shlex.split(line.replace("[", " ").replace("]", " "))
    except ValueError:
        tokens = line.replace("[", " ").replace("]", " ").split()
    cmd, path = root, ["forgebench"]
    for token in tokens[1:]:
        if not hasattr(cmd, "list_commands") or token.startswith("-"):
            break
        if re.fullmatch(r"[A-Z][A-Z0-9_]*|<[a-z_-]+>", token) or token in EXAMPLE_SUITES:
            return None  # a placeholder (``forgebench NAME ...``) or an example plug-in's group
        if not re.fullmatch(r"[a-z][a-z0-9-]*", token):
            return f"{line!r}: {token!r} is not a command of {' '.join(path)}"
        sub = cmd.get_command(cmd.context_class(cmd, info_name=path[-1]), token)
        if sub is None:
            return f"{line!r}: no command {' '.join([*path, token])}"
        cmd, path = sub, [*path, token]
    known = _flags(cmd)
    for token in tokens:
        flag = token.split("=", 1)[0]
        if re.fullmatch(r"--[a-z][a-z0-9-]*", flag) and flag not in known:
            return f"{line!r}: {' '.join(path)} has no {flag}"
    return None


def test_every_named_command_and_flag_exists() -> None:
    root = typer.main.get_command(app)
    problems, seen = [], 0
    for page in PAGES:
        for line in _uses(page.read_text(encoding="utf-8")):
            seen += 1
            problem = check(line, root)
            if problem is not None:
                problems.append(f"{page.relative_to(ROOT)}: {problem}")
    assert seen > 50  # the docs name many commands; a broken parser would find none
    assert not problems, "\n".join(problems)


def test_check_finds_a_missing_command_and_flag() -> None:
    root = typer.main.get_command(app)
    assert check("forgebench run DATASET --sample 2 --out RUN", root) is None
    assert check("forgebench pixar score --convention pixar-release", root) is None
    assert "no command" in (check("forgebench frobnicate RUN", root) or "")
    assert "has no --samples" in (check("forgebench run D --samples 2", root) or "")
