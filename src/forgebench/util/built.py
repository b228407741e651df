"""Keeping a folder that a deterministic build wrote, instead of writing it again: the demo's
dataset, its knowledge base and its Forensics set are rebuilt by a second ``forgebench demo``
only when something they depend on changed.

After a build, a hidden file beside the folder (``.NAME.built.json``) records the SHA-256 of
every file the folder holds, the digest of the build's inputs (what the caller names: another
folder's files, parameters) and the recipe: the digest of forgebench's own files (its code and
data) with the Python version and every installed distribution's name and version (the builds
are deterministic for pinned libraries, so the same recipe and inputs write the same bytes). A
folder is kept only when its record says exactly that recipe and those inputs and every file's
digest matches, with no file added, removed or replaced by a link; anything else (an edited
image, a changed ``items.jsonl``, an interrupted build, which leaves no record, another
forgebench or another Pillow) means building again.
"""

from __future__ import annotations

import functools
import hashlib
import json
import platform
import re
import site
import sys
import sysconfig
from importlib import metadata
from pathlib import Path

import forgebench
from forgebench.util.atomic import write_text
from forgebench.util.images import sha256_file


def _record(folder: Path) -> Path:
    return folder.with_name(f".{folder.name}.built.json")


def _package_folders() -> list[str]:
    """Where this interpreter installs packages (site-packages; the user's where Python reads
    it), not ``sys.path``, which a library may extend once imported (Ray puts its bundled
    colorama and psutil first there): the same recipe in every process of one environment."""
    paths = [sysconfig.get_paths()[key] for key in ("purelib", "platlib")]
    paths += site.getsitepackages()
    if site.ENABLE_USER_SITE:
        paths.append(site.getusersitepackages())
    return list(dict.fromkeys(p for p in paths if Path(p).is_dir()))


@functools.cache
def recipe() -> str:
    """What a build's bytes depend on besides its inputs, as one digest (once per process)."""
    h = hashlib.sha256()
    h.update(f"{sys.version}|{platform.machine()}|{platform.system()}\n".encode())
    installed = metadata.distributions(path=_package_folders())
    dists = sorted({_name_version(d) for d in installed})
    h.update("\n".join(dists).encode())
    package = Path(forgebench.__file__).parent
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            h.update(f"\n{path.relative_to(package).as_posix()}\n".encode())
            h.update(path.read_bytes())
    return h.hexdigest()


_HEADER = re.compile(r"[\x21-\x39\x3b-\x7e]+:")
"""A header line as the email parser reads one (a field name of printable characters but the
colon, then a colon)."""


def _name_version(dist: metadata.Distribution) -> str:
    """``NAME==VERSION`` as ``dist.metadata['Name']`` and ``dist.version`` give them, read from
    the metadata file's header lines alone (:func:`_plain_headers`): ``dist.metadata`` parses the
    whole file, long description included (0.18 of the recipe's 0.27 CPU-s for ~180
    distributions; this takes 0.03). A file whose headers it cannot read plainly is left to
    ``dist.metadata``."""
    text = dist.read_text("METADATA") or dist.read_text("PKG-INFO") or ""
    plain = _plain_headers(text, ("Name", "Version"))
    if plain is not None:
        return f"{plain['Name']}=={plain['Version']}"
    return f"{dist.metadata['Name']}=={dist.version}"


def _plain_headers(text: str, fields: tuple[str, ...]) -> dict[str, str] | None:
    """Each of ``fields``' value in ``text``'s header block, where each is there once, on one
    line, not empty, and every line before the blank one is a header the email parser reads as
    such; else None."""
    found: dict[str, list[str]] = {name: [] for name in fields}
    lines = text.split("\n\n", 1)[0].splitlines()
    for line, after in zip(lines, [*lines[1:], ""], strict=True):
        if not (_HEADER.match(line) or _folded(line)):  # the parser's headers end here
            return None
        field, sep, value = line.partition(":")
        if sep and field in found:
            if _folded(after):  # the email parser joins the lines
                return None
            found[field].append(value.lstrip(" \t"))
    if all(len(values) == 1 and values[0] for values in found.values()):
        return {name: values[0] for name, values in found.items()}
    return None


def _folded(line: str) -> bool:
    """Whether ``line`` continues the header before it."""
    return line[:1] in (" ", "\t")


def files_of(folder: Path) -> dict[str, str] | None:
    """SHA-256 of every file under ``folder`` by relative path; None when ``folder`` is not a
    folder or holds something that is neither a file nor a folder (a link, a socket)."""
    if folder.is_symlink() or not folder.is_dir():
        return None
    files: dict[str, str] = {}
    for path in sorted(folder.rglob("*")):
        if path.is_symlink() or not (path.is_file() or path.is_dir()):
            return None
        if path.is_file():
            files[path.relative_to(folder).as_posix()] = sha256_file(path)
    return files


def digest_of(folder: Path) -> str | None:
    """One digest of :func:`files_of` (None where that is None): names a build's input folder."""
    files = files_of(folder)
    return None if files is None else hashlib.sha256(json.dumps(files).encode()).hexdigest()


def unchanged(folder: Path, inputs: str = "") -> bool:
    """True when ``folder`` is exactly what its last complete build wrote, with this recipe,
    from ``inputs``."""
    try:
        made = json.loads(_record(folder).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    if not isinstance(made, dict) or made.get("recipe") != recipe() or made.get("inputs") != inputs:
        return False
    files = files_of(folder)
    return bool(files) and files == made.get("files")


def forget(folder: Path) -> None:
    """Drop the record of ``folder`` before building it again (a build that stops half way then
    leaves none)."""
    _record(folder).unlink(missing_ok=True)


def remember(folder: Path, inputs: str = "") -> None:
    """Record ``folder`` as a complete build, with this recipe, from ``inputs``."""
    files = files_of(folder)
    if files:
        record = {"recipe": recipe(), "inputs": inputs, "files": files}
        write_text(_record(folder), json.dumps(record))
