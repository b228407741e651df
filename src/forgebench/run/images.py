"""The content-addressed image-variant cache and a bounded base64 encoder (DESIGN.md).

Variant bytes live once, on disk, at ``<dir>/<id[:2]>/<id>.<ext>``; the run store keeps only the
variant id. ``full`` variants are never copied: their :class:`ImageRef` points at the dataset's
own file. Ids are computed from the source file's sha256 (memoised per path, mtime and size), so
asking for an id never renders; a derived variant is rendered only when its file is absent.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from forgebench.run.tasks import ImageRef
from forgebench.suites.mandela.conditions import (
    ConditionError,
    extension_for,
    image_condition,
    media_type_of,
    render_from_bytes,
    source_path,
    variant_id_from_digest,
    variant_params,
)
from forgebench.suites.mandela.contract import Dataset, Item

CACHE_ENV = "FORGEBENCH_CACHE"
"""Environment variable naming the variant cache folder."""

DERIVED_MEDIA_TYPE = "image/png"
"""Every derived variant is a PNG (``conditions.py``)."""


@dataclass(frozen=True)
class SourceInfo:
    """What the cache knows about a source file without rendering it."""

    sha256: str
    """Hex digest of the file's bytes."""
    media_type: str
    """The file's own media type."""


_SOURCE_MEMO: dict[tuple[str, int, int], SourceInfo] = {}
_SOURCE_MEMO_MAX = 200_000
_MEMO_LOCK = threading.Lock()


def source_info(path: Path) -> SourceInfo:
    """sha256 and media type of a source file, memoised per (path, mtime, size)."""
    try:
        st = path.stat()
    except OSError as exc:
        raise ConditionError(f"{path}: cannot read image ({exc.strerror or exc})") from None
    key = (str(path), st.st_mtime_ns, st.st_size)
    with _MEMO_LOCK:
        hit = _SOURCE_MEMO.get(key)
    if hit is not None:
        return hit
    data = path.read_bytes()
    info = SourceInfo(hashlib.sha256(data).hexdigest(), media_type_of(data, str(path)))
    with _MEMO_LOCK:
        if len(_SOURCE_MEMO) >= _SOURCE_MEMO_MAX:
            _SOURCE_MEMO.clear()
        _SOURCE_MEMO[key] = info
    return info


def default_cache_dir() -> Path:
    """``$FORGEBENCH_CACHE``, else ``~/.cache/forgebench/variants``."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env).expanduser()
    return Path.home() / ".cache" / "forgebench" / "variants"


class VariantCache:
    """Content-addressed variant files under one folder (created on first write)."""

    def __init__(self, directory: str | Path | None = None) -> None:
        self.dir = Path(directory).expanduser() if directory else default_cache_dir()
        self.renders = 0
        """Derived variants rendered by this cache object (reuse leaves it unchanged)."""

    def path_for(self, variant_id: str, media_type: str = DERIVED_MEDIA_TYPE) -> Path:
        """Where a derived variant's bytes live."""
        return self.dir / variant_id[:2] / f"{variant_id}.{extension_for(media_type)}"

    def ref(self, dataset: Dataset, item: Item, condition: str) -> ImageRef | None:
        """The variant's reference, computed from source bytes only (nothing rendered or written).

        For derived conditions the path may not exist yet; :meth:`ensure` creates it.
        """
        path = source_path(dataset.root, item, condition)
        if path is None:
            return None
        info = source_info(path)
        vid = variant_id_from_digest(info.sha256, condition, variant_params(item, condition))
        if image_condition(condition) == "full":
            return ImageRef(variant_id=vid, path=path, media_type=info.media_type)
        return ImageRef(variant_id=vid, path=self.path_for(vid), media_type=DERIVED_MEDIA_TYPE)

    def ensure(self, dataset: Dataset, item: Item, condition: str) -> ImageRef | None:
        """The variant's reference, rendering and storing its bytes if they are not cached."""
        ref = self.ref(dataset, item, condition)
        if ref is None or ref.path.is_file():
            return ref
        src = source_path(dataset.root, item, condition)
        assert src is not None
        variant = render_from_bytes(src.read_bytes(), item, condition, what=str(src))
        assert variant is not None
        if variant.id != ref.variant_id:  # the file changed between hashing and reading
            _SOURCE_MEMO.clear()
            ref = ImageRef(variant.id, self.path_for(variant.id), variant.media_type)
        self._write(ref.path, variant.data)
        self.renders += 1
        return ref

    def _write(self, path: Path, data: bytes) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            with tmp.open("wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            tmp.replace(path)
        finally:
            if tmp.exists():
                tmp.unlink()

    def _files(self) -> list[Path]:
        if not self.dir.is_dir():
            return []
        return [p for p in self.dir.rglob("*") if p.is_file()]

    def size_bytes(self) -> int:
        """Total bytes of the cached files."""
        return sum(p.stat().st_size for p in self._files())

    def clean(self) -> tuple[int, int]:
        """Remove every cached file: ``(files removed, bytes freed)``."""
        files = self._files()
        freed = 0
        for p in files:
            freed += p.stat().st_size
            p.unlink()
        if self.dir.is_dir():
            for d in sorted((d for d in self.dir.rglob("*") if d.is_dir()), reverse=True):
                with contextlib.suppress(OSError):
                    d.rmdir()
        return len(files), freed


class B64Cache:
    """Base64 strings of variants, least-recently-used first out, at most ``max_bytes`` held.

    Each variant is encoded at most once while it stays cached; a single variant larger than
    the bound is encoded on every request and never held.
    """

    def __init__(self, max_bytes: int) -> None:
        if max_bytes < 0:
            raise ValueError("max_bytes must be >= 0")
        self.max_bytes = max_bytes
        self.encodes = 0
        """Number of encodings done (a cache hit leaves it unchanged)."""
        self._data: OrderedDict[str, str] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    @property
    def size(self) -> int:
        """Characters currently held (base64 is ASCII: one byte each)."""
        return self._size

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, variant_id: object) -> bool:
        return variant_id in self._data

    def get(self, ref: ImageRef) -> str:
        """The base64 text of the variant's bytes."""
        with self._lock:
            hit = self._data.get(ref.variant_id)
            if hit is not None:
                self._data.move_to_end(ref.variant_id)
                return hit
        text = base64.b64encode(ref.path.read_bytes()).decode("ascii")
        with self._lock:
            self.encodes += 1
            if len(text) > self.max_bytes or ref.variant_id in self._data:
                return text
            self._data[ref.variant_id] = text
            self._size += len(text)
            while self._size > self.max_bytes:
                _, old = self._data.popitem(last=False)
                self._size -= len(old)
        return text
