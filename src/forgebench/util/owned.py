"""Folders forgebench owns, and the one rule for deleting or replacing one.

forgebench deletes only what it can prove it wrote. Every folder it creates as a whole (a dataset
folder written by ``import``, ``build`` or the demo; a run directory; the image-variant cache)
holds a small marker file of its own, ``.forgebench``: JSON ``{"kind": "dataset" | "run" |
"cache", "version": 1}``, written before the folder moves into place (:func:`mark`).

``--force`` (and any code that replaces a folder) goes through :func:`replace_guard`. It refuses,
with one line saying why and what to do:

- a link (the folder behind it is not looked at), or something that is not a folder;
- the current folder or one of its parents, the home folder or one of its parents (``/``);
- the folder of a source of the command, or a parent of one (the table being imported, its
  images, a KB file);
- a folder marked as another kind (a run directory is no dataset folder);
- an unmarked folder (one written before markers existed, or the user's own), unless every
  entry in it is one forgebench writes into a folder of that kind (:func:`foreign`: a positive
  list of names per kind, checked without following links).

An empty folder is always replaceable (nothing is deleted). A folder forgebench did not create is
never marked afterwards (:func:`claim` marks only a folder it creates, or one holding nothing but
the entries it writes itself).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import stat
import uuid
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Literal

from forgebench.errors import UserError
from forgebench.util.atomic import write_text

MARKER = ".forgebench"
"""The marker file's name inside an owned folder."""
VERSION = 1
"""The marker's format version."""
Kind = Literal["dataset", "run", "cache"]
KINDS: tuple[str, ...] = ("dataset", "run", "cache")

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".webp", ".bmp", ".gif", ".tif", ".tiff"})
"""Files an image folder of a dataset holds."""

_DATASET_FILES = frozenset(
    {
        "items.jsonl",  # Mandela, Forensics
        "kb.jsonl",  # Mandela, seed folders
        "normalization.json",  # Mandela --normalize
        "dataset.json",  # Forensics marker
        "benchmark.txt",  # Forensics
        "pairs.jsonl",  # PIXAR construction
        "scenes.jsonl",  # seed folders, the demo KB
        "proposals.jsonl",  # seed folders
        "specs.jsonl",  # seed folders
    }
)
_DATASET_IMAGE_FOLDERS = frozenset(
    {"images", "original", "edited", "labels", "portraits", "assets", "masks"}
)
_RUN_FILES = re.compile(
    r"run\.sqlite(-wal|-shm|-journal)?|\.lock|config\.json|metrics\.csv|paired_tests\.csv"
    r"|calibration_sample\.csv|export(-[a-z0-9_-]+)?\.(csv|parquet)"
)
_RUN_FOLDERS = frozenset({"report"})
_CACHE_FILES = frozenset(
    {"sources.sqlite", "sources.sqlite-wal", "sources.sqlite-shm", "sources.sqlite-journal"}
)
_CACHE_ENTRY = re.compile(r"(?P<digest>[0-9a-f]{32,128})\.[a-z0-9]{1,8}")
_CACHE_TEMP = re.compile(r"\.(?P<name>[0-9a-f]{32,128}\.[a-z0-9]{1,8})\.[0-9]+\.[0-9]+\.tmp")
_CACHE_FOLDER = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
_CACHE_DEPTH = 4
"""Sub-folders a cache may keep its ``XX/`` folders under (``verifier-tools/<v>/<tool>/``)."""

MAX_LISTED = 3
"""Foreign entries a refusal names."""


class NotOurs(UserError):
    """A folder forgebench may not delete or replace (not provably its own): one line."""


def mark(folder: str | Path, kind: Kind) -> None:
    """Write ``folder``'s marker (the folder must exist)."""
    if kind not in KINDS:
        raise ValueError(f"unknown folder kind {kind!r}")
    write_text(Path(folder) / MARKER, json.dumps({"kind": kind, "version": VERSION}) + "\n")


def kind_of(folder: str | Path) -> str | None:
    """The kind ``folder``'s marker names; None when the folder is a link or no folder, or its
    marker is missing, a link, too large or not a marker."""
    folder = Path(folder)
    try:
        if not stat.S_ISDIR(os.lstat(folder).st_mode):
            return None
        st = os.lstat(folder / MARKER)
        if not stat.S_ISREG(st.st_mode) or st.st_size > 4096:
            return None
        data = json.loads((folder / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("version"), int):
        return None
    kind = data.get("kind")
    return kind if kind in KINDS else None


def is_owned(folder: str | Path, kind: Kind | None = None) -> bool:
    """Whether ``folder`` carries forgebench's marker (of ``kind``, when given)."""
    found = kind_of(folder)
    return found is not None and (kind is None or found == kind)


def claim(folder: str | Path, kind: Kind) -> bool:
    """Create ``folder`` if it is missing and mark it as ``kind``; an existing unmarked folder
    is marked only when every entry in it is one forgebench writes into a folder of that kind
    (:func:`foreign` finds none: a run's ``.lock``, an older cache's entries), never a folder
    holding anything else. Whether the folder is marked as ``kind`` (now or before)."""
    folder = Path(folder)
    try:
        folder.mkdir(parents=True)
    except FileExistsError:
        if folder.is_symlink() or not folder.is_dir():
            return False
        found = kind_of(folder)
        if found is not None:
            return found == kind
        if foreign(folder, kind, limit=1):
            return False
    try:
        mark(folder, kind)
    except OSError:
        return False
    return True


def _walk(
    folder: Path, skip: frozenset[str] = frozenset()
) -> Iterator[tuple[str, os.DirEntry[str]]]:
    """Every entry under ``folder`` as (relative path, entry), links not followed, the folders
    named in ``skip`` not entered."""
    stack = [(folder, "")]
    while stack:
        here, prefix = stack.pop()
        with os.scandir(here) as it:
            for e in it:
                rel = f"{prefix}{e.name}"
                yield rel, e
                if e.is_dir(follow_symlinks=False) and rel not in skip:
                    stack.append((Path(e.path), rel + "/"))


def _known(kind: str, rel: str, entry: os.DirEntry[str]) -> bool:
    """Whether the entry at ``rel`` is one forgebench writes into a folder of ``kind``."""
    if entry.is_symlink():
        return False
    top, _, rest = rel.partition("/")
    is_dir = entry.is_dir(follow_symlinks=False)
    is_file = entry.is_file(follow_symlinks=False)
    if rel == MARKER:
        return is_file
    if kind == "dataset":
        if not rest:
            return (is_file and top in _DATASET_FILES) or (is_dir and top in _DATASET_IMAGE_FOLDERS)
        return top in _DATASET_IMAGE_FOLDERS and (
            is_dir or (is_file and Path(rel).suffix.lower() in IMAGE_SUFFIXES)
        )
    if kind == "cache":
        return cache_entry(rel, is_dir=is_dir, is_file=is_file)
    if kind == "run":
        if not rest:
            return (is_file and _RUN_FILES.fullmatch(top) is not None) or (
                is_dir and top in _RUN_FOLDERS
            )
        return False  # the report folder is not entered: whatever it holds is the run's
    return False


def cache_entry(rel: str, *, is_dir: bool, is_file: bool) -> bool:
    """Whether ``rel`` (a path relative to a cache folder, links not counted) is named as
    forgebench's caches name their entries: the marker and ``sources.sqlite`` at the top, and
    otherwise ``[SUB/...]XX/<hex digest>.<ext>`` (``XX`` the digest's first two characters,
    at most four plain sub-folders above it: ``pixar-labels/``, ``verifier-tools/<v>/<tool>/``)
    or an atomic temporary file of such a name; the folders on the way count too. Nothing
    hidden (a ``.git``) and nothing else is an entry."""
    parts = rel.split("/")
    if len(parts) == 1 and is_file and parts[0] in _CACHE_FILES | {MARKER}:
        return True
    *folders, last = parts
    if is_dir:
        folders, last = parts, ""
    if len(folders) > _CACHE_DEPTH + 1 or any(not _CACHE_FOLDER.fullmatch(f) for f in folders):
        return False
    if is_dir:
        return True
    if not is_file or not folders:
        return False
    m = _CACHE_ENTRY.fullmatch(last) or _CACHE_TEMP.fullmatch(last)
    if m is None:
        return False
    name = m.groupdict().get("name") or last
    return name[:2] == folders[-1]


class CacheClean:
    """What :func:`clean_cache` removed and left."""

    def __init__(self) -> None:
        self.files = 0
        """Files removed."""
        self.bytes = 0
        """Bytes freed."""
        self.left: list[str] = []
        """Entries left, relative paths (a folder with ``/``), the first :data:`LEFT_LISTED`."""
        self.left_count = 0
        """Entries left in all (a folder not entered counts once)."""


LEFT_LISTED = 5


def clean_cache(folder: str | Path) -> CacheClean:
    """Remove the entries of the cache ``folder`` that :func:`cache_entry` names (and the
    folders they leave empty); never follow a link below ``folder``, never enter or remove a
    folder or file of another name (they are counted in ``left``). The marker stays."""
    done = CacheClean()
    root = Path(folder)
    if not root.is_dir():
        return done

    def leave(rel: str) -> None:
        done.left_count += 1
        if len(done.left) < LEFT_LISTED:
            done.left.append(rel)

    def visit(here: Path, prefix: str) -> bool:
        """Clean ``here``; whether it is now empty."""
        empty = True
        try:
            entries = list(os.scandir(here))
        except OSError:
            leave(prefix or ".")
            return False
        for e in entries:
            rel = f"{prefix}{e.name}"
            is_link = e.is_symlink()
            is_dir = not is_link and e.is_dir(follow_symlinks=False)
            is_file = not is_link and e.is_file(follow_symlinks=False)
            if rel == MARKER and is_file:
                continue
            if not cache_entry(rel, is_dir=is_dir, is_file=is_file):
                leave(rel + ("/" if is_dir else ""))
                empty = False
                continue
            if is_dir:
                if visit(Path(e.path), rel + "/"):
                    with contextlib.suppress(OSError):
                        os.rmdir(e.path)
                        continue
                empty = False
                continue
            try:
                size = os.lstat(e.path).st_size
                os.unlink(e.path)
            except OSError:
                leave(rel)
                empty = False
                continue
            done.files += 1
            done.bytes += size
        return empty

    if visit(root, ""):  # only the marker was left: nothing of anyone's remains
        with contextlib.suppress(OSError):
            (root / MARKER).unlink(missing_ok=True)
            root.rmdir()
    return done


def foreign(folder: str | Path, kind: Kind, limit: int = MAX_LISTED) -> list[str]:
    """Up to ``limit`` entries of ``folder`` (relative paths) that forgebench does not write into
    a folder of ``kind``; an empty list means the whole folder is forgebench's by its names. An
    unreadable folder counts as foreign."""
    found: list[str] = []
    try:
        skip = _RUN_FOLDERS if kind == "run" else frozenset()
        for rel, entry in _walk(Path(folder), skip):
            if not _known(kind, rel, entry):
                found.append(rel + ("/" if entry.is_dir(follow_symlinks=False) else ""))
                if len(found) >= limit:
                    break
    except OSError as exc:
        found.append(f"(unreadable: {exc.strerror or exc})")
    return found


def _resolved(path: str | Path) -> Path:
    return Path(os.path.abspath(Path(path).expanduser())).resolve()


def _contains(folder: Path, path: Path) -> bool:
    """Whether ``path`` is ``folder`` or lies under it (both resolved)."""
    return path == folder or folder in path.parents


def replace_guard(
    out: str | Path, kind: Kind, *, sources: Iterable[str | Path | None] = ()
) -> None:
    """Refuse (:class:`NotOurs`, one line) unless the existing ``out`` may be deleted and
    replaced by a new folder of ``kind`` (see the module docstring); a missing ``out`` passes.
    ``sources``: the files and folders the command reads (None entries are skipped)."""
    out = Path(out)
    if not os.path.lexists(out):
        return
    if out.is_symlink():
        raise NotOurs(f"{out}: is a link; forgebench does not replace it (give a new folder)")
    if not out.is_dir():
        raise NotOurs(f"{out}: exists and is not a folder; remove it yourself or choose another")
    real = _resolved(out)
    cwd = _resolved(Path.cwd())
    if _contains(real, cwd):
        what = "the current folder" if real == cwd else "a parent of the current folder"
        raise NotOurs(f"{out}: is {what}; forgebench never replaces it (give a new folder)")
    home = _resolved(Path.home())
    if _contains(real, home) or real.parent == real:
        raise NotOurs(f"{out}: is the home folder or above it; forgebench never replaces it")
    for source in sources:
        if source is None:
            continue
        if _contains(real, _resolved(source)):
            raise NotOurs(
                f"{out}: holds {source}, which this command reads; --force would delete it "
                "(choose another folder)"
            )
    try:
        empty = not any(os.scandir(out))
    except OSError as exc:
        raise NotOurs(f"{out}: cannot be read ({exc.strerror or exc})") from None
    if empty:
        return
    found = kind_of(out)
    if found == kind:
        return
    if found is not None:
        raise NotOurs(f"{out}: is a forgebench {found} folder, not a {kind} folder; not replaced")
    others = foreign(out, kind)
    if others:
        more = ", ".join(others) + (", ..." if len(others) >= MAX_LISTED else "")
        raise NotOurs(
            f"{out}: not a folder forgebench wrote (no {MARKER} marker) and it holds files "
            f"forgebench does not write ({more}); nothing was deleted: move them out, or "
            "delete the folder yourself, or choose another folder"
        )


def replace_folder(
    tmp: str | Path, out: str | Path, kind: Kind, *, sources: Iterable[str | Path | None] = ()
) -> None:
    """Move the finished folder ``tmp`` into place as ``out``, marked as ``kind``; an existing
    ``out`` is replaced only when :func:`replace_guard` allows it (else :class:`NotOurs`, and
    ``tmp`` is left to the caller). The old folder is renamed aside before the new one moves in,
    so there is never a moment without one of them."""
    tmp, out = Path(tmp), Path(out)
    replace_guard(out, kind, sources=sources)
    mark(tmp, kind)
    if not os.path.lexists(out):
        os.replace(tmp, out)
        return
    if not any(os.scandir(out)):
        out.rmdir()
        os.replace(tmp, out)
        return
    old = out.with_name(f".{out.name}.replaced-{uuid.uuid4().hex[:8]}")
    out.rename(old)
    try:
        os.replace(tmp, out)
    except BaseException:
        old.rename(out)
        raise
    shutil.rmtree(old, ignore_errors=True)


def remove_folder(
    folder: str | Path, kind: Kind, *, sources: Iterable[str | Path | None] = ()
) -> None:
    """Delete ``folder`` (missing: nothing to do) when :func:`replace_guard` allows it."""
    folder = Path(folder)
    replace_guard(folder, kind, sources=sources)
    if os.path.lexists(folder):
        with contextlib.suppress(FileNotFoundError):
            shutil.rmtree(folder)
