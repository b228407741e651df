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

from pathlib import Path, PurePosixPath

from forgebench.errors import UserError


class OutsideDataset(UserError, ValueError):
    """A file a dataset names lies outside its folder (absolute, ``..`` or a link out)."""


def lexical_reason(path: str, folder: str = "dataset folder") -> str | None:
    """Why ``path`` (as written in a dataset) is not a relative path inside it, or None;
    ``folder`` names the folder in the message."""
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
    base = Path(root).resolve()
    try:
        target = (base / path).resolve()
    except (OSError, RuntimeError) as exc:  # a link loop
        return f"{path!r} cannot be resolved ({exc})"
    if not target.is_relative_to(base):
        return f"{path!r} resolves to {target}, outside the {folder}"
    return None


def inside(root: Path, path: Path) -> bool:
    """Whether ``path`` (links resolved) lies inside ``root`` (links resolved)."""
    try:
        return Path(path).resolve().is_relative_to(Path(root).resolve())
    except (OSError, RuntimeError):
        return False


def outside_path_reason(root: Path, path: Path) -> str | None:
    """Why the already-joined ``path`` (links resolved) is not inside ``root``, or None."""
    base = Path(root).resolve()
    try:
        target = Path(path).resolve()
    except (OSError, RuntimeError) as exc:  # a link loop
        return f"{path} cannot be resolved ({exc})"
    if not target.is_relative_to(base):
        shown = f"{path} (-> {target})" if target != Path(path) else str(path)
        return f"{shown} lies outside the dataset folder {base}"
    return None


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
    import stat

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
