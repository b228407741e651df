"""``docs/writing-a-suite.md`` as the tests read it: the toy suite's files it shows (each block
after a ``<!-- toy: FILE -->`` line) and the entry points of its packaging block (after
``<!-- entry-points -->``). Found wherever the documentation moves under the repository.

Imported as ``from support.walkthrough import doc_files, doc_entry_points``.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NAME = "writing-a-suite.md"
_BLOCK = re.compile(
    r"^<!-- (toy: (?P<file>\S+)|entry-points) -->\n```(?P<lang>\w+)\n(?P<body>.*?)^```$",
    re.S | re.M,
)


def doc_path() -> Path:
    """The walkthrough (one file of that name in the repository, outside virtual environments)."""
    found = [p for p in ROOT.rglob(NAME) if not {".venv", "node_modules", ".git"} & set(p.parts)]
    assert len(found) == 1, found
    return found[0]


def doc_files() -> dict[str, str]:
    """File name under ``tests/suites/toy`` -> the text the walkthrough shows for it."""
    text = doc_path().read_text(encoding="utf-8")
    return {m["file"]: m["body"] for m in _BLOCK.finditer(text) if m["file"]}


def doc_entry_points() -> dict[str, dict[str, str]]:
    """Entry-point group -> name -> ``module:object``, from the walkthrough's pyproject block."""
    text = doc_path().read_text(encoding="utf-8")
    [block] = [m["body"] for m in _BLOCK.finditer(text) if not m["file"]]
    project = tomllib.loads(block)["project"]
    return {group: dict(points) for group, points in project["entry-points"].items()}
