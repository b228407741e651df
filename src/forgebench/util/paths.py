"""Path containment: a path a dataset names must stay inside the dataset folder.

A dataset names its images relative to its folder. Before a file is read (validated, rendered,
sent to a model server, copied by ``import``), :func:`outside_reason` resolves the path, symbolic
links included, and says why it is not a file inside ``root``: an absolute path, a Windows path,
a ``..`` that climbs out, or a link whose target lies elsewhere. The check is lexical first
(cheap, no file system access) and then by ``Path.resolve()`` of the joined path compared with the
resolved root, so a link inside the folder that points outside is caught too.

This is the one dataset-boundary rule of every suite: the engine's image loading
(``run.images.VariantCache`` with the dataset ``root``) refuses a source outside it with
:class:`OutsideDataset` before a byte is read or sent, whatever the suite's own checks.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path, PurePosixPath

from forgebench.errors import UserError


class OutsideDataset(UserError, ValueError):
    """A file a dataset names lies outside its folder (absolute, ``..`` or a link out)."""


_PLAIN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]{0,254}(?:/[A-Za-z0-9_][A-Za-z0-9._-]{0,254})*")
"""Relative paths every check below lets through: ASCII names that start with a letter, digit or
``_`` (never ``.`` or ``..``), at most 255 characters each, joined by single slashes."""


def lexical_reason(path: str, folder: str = "dataset folder") -> str | None:
    """Why ``path`` (as written in a dataset) is not a relative path inside it, or None;
    ``folder`` names the folder in the message."""
    if len(path) <= 1024 and _PLAIN.fullmatch(path):  # what a dataset's 63k paths look like
        return None
    p = PurePosixPath(path)
    if not path.strip():
        return "must not be empty"
    if "\x00" in path:
        return f"{path[:60]!r} contains a NUL character"
    if p.is_absolute() or "\\" in path or (len(path) > 1 and path[1] == ":"):
        return f"{path!r} must be a path relative to the {folder} (with '/')"
    if ".." in p.parts:
        return f"{path!r} leaves the {folder}"
    if len(path) > 1024 or any(len(part.encode("utf-8", "replace")) > 255 for part in p.parts):
        return f"{path[:60]!r}... is too long for a file name"
    return None


def outside_reason(root: Path, path: str, folder: str = "dataset folder") -> str | None:
    """Why ``root / path`` is not inside ``root`` once links are resolved, or None.

    A path that does not exist is not refused here (the caller reports a missing file); one that
    resolves outside ``root`` is, whatever the link chain.
    """
    why = lexical_reason(path, folder)
    if why is not None:
        return why
    return PathCheck(root, folder).reason(path)


def inside(root: Path, path: Path) -> bool:
    """Whether ``path`` (links resolved) lies inside ``root`` (links resolved)."""
    try:
        return Path(path).resolve().is_relative_to(Path(root).resolve())
    except (OSError, RuntimeError):
        return False


def outside_path_reason(root: Path, path: Path) -> str | None:
    """Why the already-joined ``path`` (links resolved) is not inside ``root``, or None."""
    return PathCheck(root).path_reason(path)


class PathCheck:
    """:func:`outside_reason` and :func:`outside_path_reason` for many paths under one root,
    with the same answers and messages: the root is resolved once and each folder once (a
    dataset's 63k images lie in a few hundred folders), so a file that is not a link costs one
    ``lstat`` instead of one per path component. Hold one for one pass over a dataset: a folder
    replaced by a link after it was resolved is not seen again."""

    _MAX_DIRS = 4096

    def __init__(self, root: Path, folder: str = "dataset folder") -> None:
        self.root = Path(root)
        self.folder = folder
        self.base = self.root.resolve()
        self._base = str(self.base)
        self._dirs: dict[str, str] = {}

    def reason(self, path: str) -> str | None:
        """:func:`outside_reason` of ``root / path``."""
        why = lexical_reason(path, self.folder)
        if why is not None:
            return why
        target, err = self._resolve(os.path.join(self._base, path))
        if err is not None:
            return f"{path!r} cannot be resolved ({err})"
        if not self._inside(target):
            return f"{path!r} resolves to {target}, outside the {self.folder}"
        return None

    def path_reason(self, path: Path) -> str | None:
        """:func:`outside_path_reason` of ``path`` (already joined to the root)."""
        target, err = self._resolve(os.fspath(path))
        if err is not None:
            return f"{path} cannot be resolved ({err})"
        if not self._inside(target):
            shown = f"{path} (-> {target})" if Path(target) != Path(path) else str(path)
            return f"{shown} lies outside the dataset folder {self.base}"
        return None

    def _inside(self, target: str) -> bool:
        """``Path(target).is_relative_to(base)`` for a resolved (normalised, absolute) path."""
        base = self._base
        return target == base or target.startswith(base if base.endswith("/") else base + "/")

    def _resolve(self, path: str) -> tuple[str, str | None]:
        """``str(Path(path).resolve())``, or why it cannot be resolved (a link loop)."""
        head, tail = os.path.split(path)
        if head and tail not in ("", ".", ".."):
            real = self._dirs.get(head)
            if real is None:
                real = os.path.realpath(head)
                if len(self._dirs) >= self._MAX_DIRS:
                    self._dirs.clear()
                self._dirs[head] = real
            full = os.path.join(real, tail)
            try:
                if not stat.S_ISLNK(os.lstat(full).st_mode):
                    return full, None  # a file or folder in a resolved folder: resolved
            except OSError:
                pass  # missing, or a loop above it: resolved the long way
        try:
            return str(Path(path).resolve()), None
        except (OSError, RuntimeError) as exc:  # a link loop
            return "", str(exc)


def dataset_file(root: Path, rel: str, what: str = "image") -> Path:
    """``root / rel`` when it is a file path inside ``root`` (:func:`outside_reason`); else
    :class:`OutsideDataset` naming ``what``."""
    why = outside_reason(root, rel)
    if why is not None:
        raise OutsideDataset(f"{what}: {why}")
    return Path(root) / rel


class InputFileError(UserError):
    """A file given to read (a batch result, a decisions file, a table) that is missing, not a
    regular file (a FIFO would block forever, a device never end) or not UTF-8 text."""


def regular_file(path: Path) -> Path:
    """``path`` when it names a regular file (links followed); else :class:`InputFileError`.
    Checked with ``stat`` before anything opens it, so a named pipe never blocks the reader."""
    try:
        mode = Path(path).stat().st_mode
    except FileNotFoundError:
        raise InputFileError(f"{path}: no such file") from None
    except OSError as exc:
        raise InputFileError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if not stat.S_ISREG(mode):
        kind = (
            "a folder"
            if stat.S_ISDIR(mode)
            else "a named pipe"
            if stat.S_ISFIFO(mode)
            else "a device or socket"
        )
        raise InputFileError(f"{path}: is {kind}, not a regular file")
    return Path(path)


def read_input_text(path: Path) -> str:
    """The UTF-8 text of the regular file ``path`` (:func:`regular_file`); a file that is not
    UTF-8 is an :class:`InputFileError` naming the first bad byte."""
    data = read_input_bytes(path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputFileError(f"{path}: not UTF-8 text (byte {exc.start})") from None


def read_input_bytes(path: Path) -> bytes:
    """The bytes of the regular file ``path`` (:func:`regular_file`)."""
    regular_file(path)
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise InputFileError(f"{path}: cannot read ({exc.strerror or exc})") from None
