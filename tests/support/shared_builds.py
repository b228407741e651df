"""Builds that many tests read and none may change: made once per test session (once per
pytest-xdist worker), and checked at the end of the session to be exactly as built.

A test that changes such a build must work on :func:`copy_of` it, never on the shared folder
(running as root, file modes would not stop it; the digest check at the session's end does).
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path


def tree_digest(root: Path) -> dict[str, str]:
    """SHA-256 of every file under ``root``, by relative path."""
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def copy_of(shared: Path, into: Path) -> Path:
    """A private copy of a shared build at ``into / shared.name``, for a test that changes it."""
    target = into / shared.name
    shutil.copytree(shared, target)
    return target


class Frozen:
    """A shared build and the digest it had when built; :meth:`check` says which files changed."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.digest = tree_digest(root)

    def check(self) -> None:
        now = tree_digest(self.root)
        changed = sorted(
            name for name in set(now) | set(self.digest) if now.get(name) != self.digest.get(name)
        )
        assert not changed, (
            f"a test changed the shared build {self.root} ({', '.join(changed[:5])}); "
            "change a copy instead (support.shared_builds.copy_of)"
        )
