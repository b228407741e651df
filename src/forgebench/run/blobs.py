"""Files that answers carry (edited images), stored once by content hash beside the variants.

``<cache>-blobs/<sha[:2]>/<sha256>.<ext>``, next to (never inside) the variant cache folder, so
``forgebench cache clean`` (which empties the variant cache) keeps what was paid for; the store's ``outputs`` table names each task's files
by hash, so a candidate paid for once is never paid for again and never duplicated on disk.
A blob is checked against its name wherever it is read back here (:meth:`BlobStore.get`) and
before :meth:`BlobStore.put` keeps an existing file: a damaged one is rewritten from the bytes
at hand, or read as absent, never used.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from forgebench.run.images import default_cache_dir, extension_for
from forgebench.util.atomic import write_bytes

if TYPE_CHECKING:
    from forgebench.models.base import OutputFile
    from forgebench.run.store import Store


def blob_dir(cache_dir: str | Path | None) -> Path:
    """The blob folder that goes with a variant cache folder (default: the default cache's)."""
    cache = Path(cache_dir).expanduser() if cache_dir else default_cache_dir()
    return cache.with_name(cache.name + "-blobs")


class BlobStore:
    """Content-addressed files under one folder."""

    def __init__(self, directory: str | Path) -> None:
        self.dir = Path(directory)

    def path(self, sha256: str, media_type: str) -> Path:
        """Where the bytes of ``sha256`` live."""
        return self.dir / sha256[:2] / f"{sha256}.{extension_for(media_type)}"

    def put(self, data: bytes, media_type: str) -> str:
        """Store ``data`` (once); its sha256 hex digest."""
        digest = hashlib.sha256(data).hexdigest()
        target = self.path(digest, media_type)
        if self.get(digest, media_type) is None:  # absent, or damaged: written (again)
            write_bytes(target, data)
        return digest

    def get(self, sha256: str, media_type: str) -> bytes | None:
        """The bytes of ``sha256`` when its file holds them (None: absent, unreadable, or bytes
        that do not hash to the name)."""
        try:
            data = self.path(sha256, media_type).read_bytes()
        except OSError:
            return None
        return data if hashlib.sha256(data).hexdigest() == sha256 else None


def put_outputs(blobs: BlobStore, store: Store, key: str, files: Iterable[OutputFile]) -> None:
    """Store an answer's files: the bytes first (by hash), then their rows in ``outputs`` (so
    the answer stored next names files that exist)."""
    for f in files:
        digest = blobs.put(f.data, f.media_type)
        store.put_output(key, f.name, digest, f.media_type, len(f.data))
