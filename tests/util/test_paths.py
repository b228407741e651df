"""One ``PathCheck`` over a dataset answers every path as a fresh ``Path.resolve()`` would:
files, links out of the folder (a file, a folder on the way), missing files and link loops."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from forgebench.util.paths import PathCheck, lexical_reason, outside_path_reason


def _long_way(root: Path, rel: str) -> str | None:
    """The rule spelled out with ``Path.resolve()`` per path."""
    base = root.resolve()
    try:
        target = (base / rel).resolve()
    except (OSError, RuntimeError) as exc:
        return f"{rel!r} cannot be resolved ({exc})"
    if not target.is_relative_to(base):
        return f"{rel!r} resolves to {target}, outside the dataset folder"
    return None


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    root, outside = tmp_path / "data", tmp_path / "elsewhere"
    (root / "images" / "a").mkdir(parents=True)
    (outside / "sub").mkdir(parents=True)
    (root / "images" / "a" / "ok.png").write_bytes(b"x")
    (outside / "secret.png").write_bytes(b"s")
    (outside / "sub" / "deep.png").write_bytes(b"d")
    (root / "images" / "a" / "out.png").symlink_to(outside / "secret.png")
    (root / "images" / "a" / "in.png").symlink_to(root / "images" / "a" / "ok.png")
    (root / "images" / "linked").symlink_to(outside / "sub")
    (root / "images" / "loop1").symlink_to(root / "images" / "loop2")
    (root / "images" / "loop2").symlink_to(root / "images" / "loop1")
    return root


PATHS = [
    "images/a/ok.png",
    "images/a/in.png",
    "images/a/out.png",
    "images/linked/deep.png",
    "images/a/missing.png",
    "images/missing/x.png",
    "images/loop1/x.png",
    "images/loop1",
    "images/a/../a/ok.png",
    "/etc/passwd",
]


def test_every_path_gets_the_answer_of_a_fresh_resolve(dataset: Path) -> None:
    check = PathCheck(dataset)
    for rel in PATHS * 2:  # the second time from the folders it has resolved
        assert check.reason(rel) == (lexical_reason(rel) or _long_way(dataset, rel)), rel
    assert check.reason("images/a/out.png") is not None
    assert check.reason("images/linked/deep.png") is not None
    assert check.reason("images/a/ok.png") is None


def test_joined_paths_name_the_link_they_follow(dataset: Path) -> None:
    check = PathCheck(dataset)
    for rel in ("images/a/ok.png", "images/a/out.png", "images/linked/deep.png"):
        assert check.path_reason(dataset / rel) == outside_path_reason(dataset, dataset / rel)
    why = check.path_reason(dataset / "images" / "a" / "out.png")
    assert why is not None and "secret.png" in why and "lies outside" in why


def test_the_plain_path_shortcut_answers_as_the_full_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """``lexical_reason`` lets a plain ASCII path through on one regular expression; over 20,000
    random paths near its edges (dots, slashes, colons, backslashes, NUL, spaces, non-ASCII,
    255- and 256-character names), every answer is the one the full check gives."""
    import random
    import string

    from forgebench.util import paths

    rng = random.Random(0)
    alphabet = string.ascii_letters[:6] + "09._-/\\: \x00é\n"
    corpus = ["a" * 255, "a" * 256, "/".join(["a" * 255] * 4), "/".join(["a" * 255] * 5)]
    corpus += ["a/./b", "./a", "a//b", "a/", "_x", "-x", ".x", "..", "a/..", "A:b", "x" * 1025]
    corpus += [
        "".join(rng.choice(alphabet) for _ in range(rng.choice([1, 2, 3, 5, 9, 40])))
        for _ in range(20_000)
    ]
    fast = [paths.lexical_reason(p) for p in corpus]
    monkeypatch.setattr(paths, "_PLAIN", re.compile(r"(?!)"))  # matches nothing
    assert [paths.lexical_reason(p) for p in corpus] == fast
    assert sum(r is None for r in fast) > 2_000  # the shortcut was taken
