"""A pre-filled Hugging Face Hub cache, for the ``hf://`` import's tests (the Hub stays offline).

The layout is ``huggingface_hub``'s own (its "Understand caching" guide; the Hub's "Local cache"
reference): ``<CACHE>/datasets--OWNER--NAME/`` holds ``blobs/<etag>`` (each file's bytes once,
named by its ETag: the SHA-256 of a file stored with LFS, such as a parquet shard, the git blob
SHA-1 of any other), ``snapshots/<commit>/<path>`` (relative links into ``blobs/``) and
``refs/<branch or tag>`` (the commit hash, no newline). ``huggingface_hub.scan_cache_dir`` reads
it back as the library's own.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

LFS_SUFFIXES = (".parquet", ".png", ".jpg", ".jpeg")
"""Files the Hub keeps in LFS (a dataset repository's default ``.gitattributes`` names these)."""


def etag(rel: str, data: bytes) -> str:
    """The ETag the Hub serves for a file: its SHA-256 in LFS, else its git blob SHA-1."""
    if rel.endswith(LFS_SUFFIXES):
        return hashlib.sha256(data).hexdigest()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def fill_hub_cache(
    cache: Path, repo_id: str, folder: Path, commit: str, refs: Iterable[str] = ("main",)
) -> Path:
    """Put every file of ``folder`` in ``cache`` as dataset ``repo_id`` at ``commit`` (40 hex
    digits), each of ``refs`` pointing at it; the snapshot folder."""
    repo = cache / ("datasets--" + repo_id.replace("/", "--"))
    snap = repo / "snapshots" / commit
    for f in sorted(p for p in folder.rglob("*") if p.is_file()):
        rel = f.relative_to(folder).as_posix()
        data = f.read_bytes()
        blob = repo / "blobs" / etag(rel, data)
        blob.parent.mkdir(parents=True, exist_ok=True)
        blob.write_bytes(data)
        link = snap / rel
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(os.path.relpath(blob, link.parent))
    (repo / "refs").mkdir(parents=True, exist_ok=True)
    for ref in refs:
        (repo / "refs" / ref).write_text(commit, encoding="utf-8")
    return snap
