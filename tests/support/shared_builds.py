"""Builds that many tests read and none may change: made once per test session (by the first
pytest-xdist worker that asks; the others wait for it and read the same folder), and checked at
the end of each worker's session to be exactly as built.

A test that changes such a build must work on :func:`copy_of` it, never on the shared folder
(running as root, file modes would not stop it; the digest check at the session's end does).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable
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


def copy_built(shared: Path, into: Path) -> Path:
    """:func:`copy_of` with the record a build leaves beside its folder
    (``.NAME.built.json``, :mod:`forgebench.util.built`): a command that builds ``into /
    shared.name`` finds the copy exactly as built and keeps it, as a second ``forgebench demo``
    keeps what the first built."""
    target = copy_of(shared, into)
    record = shared.with_name(f".{shared.name}.built.json")
    shutil.copy2(record, target.with_name(record.name))
    return target


class Frozen:
    """A shared build and the digest it had when built; :meth:`check` says which files changed."""

    def __init__(self, root: Path, digest: dict[str, str] | None = None) -> None:
        self.root = root
        self.digest = tree_digest(root) if digest is None else digest

    def check(self) -> None:
        now = tree_digest(self.root)
        changed = sorted(
            name for name in set(now) | set(self.digest) if now.get(name) != self.digest.get(name)
        )
        assert not changed, (
            f"a test changed the shared build {self.root} ({', '.join(changed[:5])}); "
            "change a copy instead (support.shared_builds.copy_of)"
        )


def session_root(base: Path) -> Path:
    """Where a session's shared builds go: the folder that all pytest-xdist workers' temporary
    folders share (``base`` is a worker's ``tmp_path_factory.getbasetemp()``), else ``base``."""
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def built_once(root: Path, name: str, build: Callable[[Path], Path]) -> Frozen:
    """``build(folder)``'s result, made once under ``root`` by the first process that asks and
    read by the others, which wait for it on a lock file; each gets the digest the build had when
    it was made (``root/NAME.json``), so a change made by any of them fails its :meth:`check`.

    A build that fails leaves no record, and the next process that asks builds again in a fresh
    folder."""
    record = root / f"{name}.json"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if record.is_file():
            made = json.loads(record.read_text(encoding="utf-8"))
            return Frozen(Path(made["root"]), made["digest"])
        frozen = Frozen(build(Path(tempfile.mkdtemp(prefix=f"{name}-", dir=root))))
        partial = record.with_suffix(".tmp")
        partial.write_text(json.dumps({"root": str(frozen.root), "digest": frozen.digest}))
        partial.replace(record)
        return frozen
