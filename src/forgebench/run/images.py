"""The content-addressed image-variant cache and a bounded base64 encoder (DESIGN.md).

A suite describes each image it shows as a :class:`VariantSpec`: the source file, the image
condition and its parameters, the renderer's version tag, and (for derived images) the function
that renders the bytes. The variant id hashes the source's sha256, the condition, the parameters
and the renderer tag (:func:`variant_id_from_digest`).

A question showing several images (a video's frames) has one variant per image
(:meth:`VariantCache.ensure_all`), in order. Variant bytes live once, on disk, at ``<dir>/<id[:2]>/<id>.<ext>``; the run store keeps only the
variant id. Original images (``render`` None) are never copied: their :class:`ImageRef` points at
the dataset's own file. Ids are computed from the source file's sha256 (memoised per path, mtime
and size, and kept between prepares in the cache folder: ``source_index.py``), so asking for an
id never renders; a derived variant is rendered only when its file is absent or fails its check.

Every cache hit is verified before it is used: a derived variant's file is read and its sha256
compared with the digest recorded when it was rendered (``sources.sqlite``'s ``variants``
table), once per variant and process; a file that differs (damaged, truncated, another
variant's bytes) or has no record (a cache from before records) is rendered again, never sent.
The index of source digests checks its own rows (``source_index.py``), and the base64 of an
image is cached per variant id *and* file, so two files under one id never share an encoding.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from forgebench.errors import UserError
from forgebench.models.base import ImageRef
from forgebench.run.source_index import Identity, SourceIndex
from forgebench.run.tasks import canonical_json
from forgebench.util.atomic import write_bytes
from forgebench.util.file_memo import FileMemo, file_key
from forgebench.util.owned import MARKER, CacheClean, claim, clean_cache
from forgebench.util.paths import OutsideDataset, PathCheck

CACHE_ENV = "FORGEBENCH_CACHE"
"""Environment variable naming the variant cache folder."""

ORIGINAL = "original"
"""Renderer tag of an image shown as its source file's bytes, untouched (condition ``full``)."""

DERIVED_MEDIA_TYPE = "image/png"
"""Every derived variant is a PNG (``conditions.py``)."""


class ConditionError(UserError, ValueError):
    """An image cannot be shown under a condition (unreadable, no crop, a box outside it)."""


def _unreadable(path: Path, exc: OSError) -> ConditionError:
    return ConditionError(f"{path}: cannot read image ({exc.strerror or exc})")


def read_image(path: Path) -> bytes:
    """An image file's bytes; one that cannot be read is one :class:`ConditionError` line."""
    try:
        return path.read_bytes()
    except OSError as exc:
        raise _unreadable(path, exc) from None


def stat_image(path: Path) -> os.stat_result:
    """An image file's status (for its memo key); as :func:`read_image` when it cannot be read."""
    try:
        return path.stat()
    except OSError as exc:
        raise _unreadable(path, exc) from None


@dataclass(frozen=True)
class VariantSpec:
    """An image as a question shows it: the source and how to derive the shown bytes."""

    source: Path
    """The file the image is made from."""
    condition: str
    """The image condition hashed into the id (``full``, ``crop``, ``blur_3``, ...)."""
    params: dict[str, Any] = field(default_factory=dict)
    """Rendering parameters hashed into the id (boxes, levels, seeds)."""
    renderer: str = ORIGINAL
    """Renderer version tag hashed into the id (bump it when rendering changes)."""
    render: Callable[[bytes, str], bytes] | None = None
    """``render(source bytes, what) -> encoded bytes`` (PNG unless ``media_type`` says
    otherwise); None: the source file itself is shown."""
    media_type: str = "image/png"
    """Media type of rendered bytes."""


def extension_for(media_type: str) -> str:
    """``image/png`` -> ``png``; ``image/jpeg`` -> ``jpg``."""
    sub = media_type.split("/", 1)[-1].lower()
    return {"jpeg": "jpg", "svg+xml": "svg", "x-icon": "ico"}.get(sub, sub)


def media_type_of(data: bytes, what: str = "image") -> str:
    """The MIME type of encoded image bytes (reads the header only)."""
    from PIL import Image  # here: ``status``, ``tasks``, ``judge`` import this module, not Pillow

    try:
        with Image.open(io.BytesIO(data)) as im:
            fmt = im.format
    except Exception as exc:
        raise ConditionError(f"{what}: not a readable image ({exc})") from None
    mime = Image.MIME.get(fmt or "")
    if mime is None:
        raise ConditionError(f"{what}: image format {fmt!r} has no known media type")
    return mime


def variant_id_from_digest(
    source_sha256: str, condition: str, params: dict[str, Any], renderer: str
) -> str:
    """The variant id from the source's sha256 hex digest (no file access)."""
    payload = {
        "source": source_sha256,
        "condition": condition,
        "params": params,
        "renderer": renderer,
    }
    return hashlib.sha256(canonical_json(payload).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class SourceInfo:
    """What the cache knows about a source file without rendering it."""

    sha256: str
    """Hex digest of the file's bytes."""
    media_type: str
    """The file's own media type."""


_SOURCE_MEMO: FileMemo[SourceInfo] = FileMemo()
"""Each source file's digest and media type (about 600 bytes an entry)."""
_SOURCE_MEMO_MAX = _SOURCE_MEMO.max_entries
_MEMO_LOCK = threading.Lock()
_RECORDED: dict[tuple[str, str], str] = {}
"""Digests of the derived variants written in this process, by (cache folder, id): what the
index records at its next batch, for another cache object over the same folder meanwhile."""


def source_info(path: Path, index: SourceIndex | None = None) -> SourceInfo:
    """sha256 and media type of a source file, memoised per (path, mtime, size) in this process
    and, with ``index``, kept between processes (``source_index.py``)."""
    st = stat_image(path)
    key = file_key(path, st)
    hit = _SOURCE_MEMO.get(key)
    if hit is not None:
        return hit
    where = ident = None
    if index is not None:
        where, ident = os.path.abspath(path), Identity.of(st)
        known = index.get(where, ident)
        if known is not None:
            info = SourceInfo(*known)
            _SOURCE_MEMO.put(key, info)
            return info
    data = path.read_bytes()
    info = SourceInfo(hashlib.sha256(data).hexdigest(), media_type_of(data, str(path)))
    if index is not None and where is not None and ident is not None:
        index.put(where, ident, info.sha256, info.media_type)
    _SOURCE_MEMO.put(key, info)
    return info


def default_cache_dir() -> Path:
    """``$FORGEBENCH_CACHE``, else ``~/.cache/forgebench/variants``."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env).expanduser()
    return Path.home() / ".cache" / "forgebench" / "variants"


class VariantCache:
    """Content-addressed variant files under one folder (created on first write).

    With ``root`` (the dataset folder; the engine always gives it), a source that lies outside it
    (an absolute path, a ``..``, a link out) is refused with
    :class:`~forgebench.util.paths.OutsideDataset` before it is read: the one dataset-boundary
    rule of every suite, so a suite cannot send a file it was not given.
    """

    def __init__(self, directory: str | Path | None = None, *, root: Path | None = None) -> None:
        self.dir = Path(directory).expanduser() if directory else default_cache_dir()
        self.root = root
        self._check: PathCheck | None = None
        self._index = SourceIndex(self.dir)
        self._verified: set[str] = set()  # derived variants whose file was checked or written
        self.renders = 0
        """Derived variants rendered by this cache object (reuse leaves it unchanged)."""
        self._claimed = False
        self.rejected = 0
        """Cached derived variants whose bytes failed their check (rendered again)."""

    def path_for(self, variant_id: str, media_type: str = DERIVED_MEDIA_TYPE) -> Path:
        """Where a derived variant's bytes live."""
        return self.dir / variant_id[:2] / f"{variant_id}.{extension_for(media_type)}"

    def ref(self, spec: VariantSpec | None) -> ImageRef | None:
        """The variant's reference, computed from source bytes only (nothing rendered or written).

        For derived variants the path may not exist yet; :meth:`ensure` creates it.
        """
        if spec is None:
            return None
        if self.root is not None:
            if self._check is None:
                self._check = PathCheck(self.root)
            why = self._check.path_reason(spec.source)
            if why is not None:
                raise OutsideDataset(f"image {why}")
        info = self.source_info(spec.source)
        vid = variant_id_from_digest(info.sha256, spec.condition, spec.params, spec.renderer)
        if spec.render is None:
            return ImageRef(variant_id=vid, path=spec.source, media_type=info.media_type)
        return ImageRef(
            variant_id=vid, path=self.path_for(vid, spec.media_type), media_type=spec.media_type
        )

    def source_info(self, path: Path) -> SourceInfo:
        """:func:`source_info` through this cache folder's index of source files (a dataset
        prepared before is not read again)."""
        return source_info(path, self._index)

    def flush(self) -> None:
        """Write what the index of source files learnt (also done at exit, and in batches)."""
        self._index.flush()

    def ensure(self, spec: VariantSpec | None) -> ImageRef | None:
        """The variant's reference, rendering and storing its bytes if they are not cached."""
        ref = self.ref(spec)
        if spec is None or ref is None or spec.render is None or self._holds(ref):
            return ref
        source = read_image(spec.source)
        digest = hashlib.sha256(source).hexdigest()
        vid = variant_id_from_digest(digest, spec.condition, spec.params, spec.renderer)
        if vid != ref.variant_id:  # the file changed between hashing and reading
            _SOURCE_MEMO.clear()
            self._index.forget(os.path.abspath(spec.source))
            ref = ImageRef(vid, self.path_for(vid, spec.media_type), spec.media_type)
        data = spec.render(source, str(spec.source))
        self._write(ref.path, data)
        self._record(ref.variant_id, data)
        self.renders += 1
        return ref

    def holds(self, ref: ImageRef) -> bool:
        """Whether a derived variant's file is cached and intact (see :meth:`_holds`)."""
        return self._holds(ref)

    def _holds(self, ref: ImageRef) -> bool:
        """Whether ``ref``'s file is cached and its bytes are those recorded when it was
        rendered (checked once per variant in this object; False: render it again)."""
        if ref.variant_id in self._verified:
            return True
        try:
            data = ref.path.read_bytes()
        except OSError:
            return False  # absent (or unreadable): rendered
        recorded = self._index.variant_digest(ref.variant_id)
        if recorded is None:  # rendered by another cache object of this process, not flushed yet
            with _MEMO_LOCK:
                recorded = _RECORDED.get((str(self.dir), ref.variant_id))
        if recorded is None or hashlib.sha256(data).hexdigest() != recorded:
            if recorded is not None or data:
                self.rejected += 1
            return False
        self._verified.add(ref.variant_id)
        return True

    def _record(self, variant_id: str, data: bytes) -> None:
        """Record the digest of a derived variant's bytes just written."""
        digest = hashlib.sha256(data).hexdigest()
        self._index.put_variant(variant_id, digest)
        self._verified.add(variant_id)
        with _MEMO_LOCK:
            if len(_RECORDED) >= _SOURCE_MEMO_MAX:
                _RECORDED.clear()
            _RECORDED[(str(self.dir), variant_id)] = digest

    def ensure_all(
        self, specs: Iterable[VariantSpec], *, render: bool = True
    ) -> tuple[ImageRef, ...]:
        """The references of a question's images, in order (``Question.images``): each
        variant is cached on its own, so a frame shown in several questions is stored once.
        With ``render`` False nothing is rendered (:meth:`ref`)."""
        refs = (self.ensure(s) if render else self.ref(s) for s in specs)
        return tuple(r for r in refs if r is not None)

    def write_variant(self, path: Path, data: bytes) -> None:
        """Store a derived variant rendered elsewhere (an executor's worker) at its
        :meth:`ref` path."""
        self._write(path, data)
        self._record(path.stem, data)
        self.renders += 1

    def _write(self, path: Path, data: bytes) -> None:
        if not self._claimed:  # the folder, made here, carries the cache marker
            claim(self.dir, "cache")
            self._claimed = True
        write_bytes(path, data)

    def _files(self) -> list[Path]:
        if not self.dir.is_dir():
            return []
        return [p for p in self.dir.rglob("*") if p.is_file() and p.name != MARKER]

    def size_bytes(self) -> int:
        """Total bytes of the cached files."""
        return sum(p.stat().st_size for p in self._files())

    def clean(self) -> CacheClean:
        """Remove the cache's own entries (:func:`forgebench.util.owned.clean_cache`: only
        files named as its layout names them, no link followed); what was removed and left."""
        self._index.close()
        return clean_cache(self.dir)


class B64Cache:
    """Base64 strings of variants, least-recently-used first out, at most ``max_bytes`` held.

    Each variant is encoded at most once while it stays cached; a single variant larger than
    the bound is encoded on every request and never held. Entries are keyed by the variant id
    and its file: two files given one id (a damaged index) never share an encoding.
    """

    def __init__(self, max_bytes: int) -> None:
        if max_bytes < 0:
            raise ValueError("max_bytes must be >= 0")
        self.max_bytes = max_bytes
        self.encodes = 0
        """Number of encodings done (a cache hit leaves it unchanged)."""
        self._data: OrderedDict[tuple[str, str], str] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    @property
    def size(self) -> int:
        """Characters currently held (base64 is ASCII: one byte each)."""
        return self._size

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, variant_id: object) -> bool:
        return any(k[0] == variant_id for k in self._data)

    def cached(self, ref: ImageRef) -> str | None:
        """The variant's base64 text when it is held (None: :meth:`get` would encode it)."""
        key = (ref.variant_id, str(ref.path))
        with self._lock:
            hit = self._data.get(key)
            if hit is not None:
                self._data.move_to_end(key)
            return hit

    def get(self, ref: ImageRef) -> str:
        """The base64 text of the variant's bytes."""
        key = (ref.variant_id, str(ref.path))
        with self._lock:
            hit = self._data.get(key)
            if hit is not None:
                self._data.move_to_end(key)
                return hit
        text = base64.b64encode(ref.path.read_bytes()).decode("ascii")
        with self._lock:
            self.encodes += 1
            if len(text) > self.max_bytes or key in self._data:
                return text
            self._data[key] = text
            self._size += len(text)
            while self._size > self.max_bytes:
                _, old = self._data.popitem(last=False)
                self._size -= len(old)
        return text
