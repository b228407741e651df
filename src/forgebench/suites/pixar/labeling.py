"""Write PIXAR pixel-label maps for a set of (original, edited) pairs, all or nothing.

Layout: one tau -> ``OUT/<edited stem>.png``; several -> ``OUT/tau<tau>/<edited stem>.png``.
Maps are computed into a hidden temporary folder inside ``OUT`` and moved into place only when
every pair succeeded, so a failure (an undecodable image, a full disk) leaves ``OUT`` as it was.
Decoding and labelling run on an executor (``run/executor.py``: this process, or Ray workers that
return the PNG bytes); this process alone writes them.

:class:`LabelCache` keeps every label map computed, packed (one bit a pixel, deflated), in the
cache folder (``$FORGEBENCH_CACHE/pixar-labels``, removed by ``forgebench cache clean``), so a
later pass over the same pairs reads a few kilobytes instead of decoding two images. A map costs
at most ``H * W / 8`` bytes before deflating (128 KiB at 1024 x 1024; an edit region compresses
to well under 10 KiB); the folder is held under ``max_bytes`` (256 MiB by default), the oldest
maps going first. Entries are renamed into place whole but not fsynced (a cache): a power cut
may leave a torn one, which reads as a miss. Each entry carries a checksum over its name (the
key), its header and its packed map: an entry whose header (a size field) or bits were changed,
or that was copied under another key's name, fails it and is computed again, never used; an
entry of an older format (``FBL2``, no checksum) is stale the same way. A
map is found again by the two files' path, size, modification time and inode and the
threshold: a file rewritten in place gets a new modification time, so a new map.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import struct
import zlib
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from forgebench.construct.pixels import labels_u8, parse_taus, tau_dirname, threshold_count
from forgebench.run.executor import LocalExecutor
from forgebench.run.images import default_cache_dir
from forgebench.suites.pixar.pairs import Pair, PairsError, encode_label_png, read_rgb
from forgebench.util.atomic import clean_stale, temp_name, write_bytes

if TYPE_CHECKING:
    from forgebench.run.executor import Executor


def label_paths(stem: str, taus: Sequence[float], out_dir: Path) -> list[Path]:
    """Where the label maps of one pair go, one path per tau."""
    if len(taus) == 1:
        return [out_dir / f"{stem}.png"]
    return [out_dir / tau_dirname(t) / f"{stem}.png" for t in taus]


LABEL_CACHE_FOLDER = "pixar-labels"
LABEL_CACHE_BYTES = 256 * 2**20
"""Default bound of the label cache's folder."""
_MAGIC = b"FBL3"
"""Format (and label definition) version of a cached map; another one is a miss. The header
holds the map's height and width and the edited image's decoded height and width (scoring
needs the size of the raster a model answers on, which can differ from the original's); then
:data:`_CHECK_BYTES` of checksum (:func:`_check`), then the deflated bits."""
_HEADER = struct.Struct("<IIII")
_CHECK_BYTES = 16


def _check(key: str, header: bytes, packed: bytes) -> bytes:
    """The checksum of one entry: its key, header and packed map (BLAKE2b, 16 bytes)."""
    h = hashlib.blake2b(key.encode(), digest_size=_CHECK_BYTES)
    h.update(header)
    h.update(packed)
    return h.digest()


class LabelCache:
    """Packed label maps of (original, edited, tau), on disk (see the module docstring)."""

    def __init__(self, folder: str | Path | None = None, max_bytes: int = LABEL_CACHE_BYTES):
        if folder is None:
            folder = default_cache_dir() / LABEL_CACHE_FOLDER
        self.dir = Path(folder)
        self.max_bytes = max_bytes
        self._bytes: int | None = None  # the folder's size, counted at the first write

    def key(self, original: str | Path, edited: str | Path, tau: float) -> str:
        """The map's name: the files' identity on disk and the threshold count."""
        h = hashlib.sha256(_MAGIC + str(threshold_count(tau)).encode())
        for p in (original, edited):
            st = os.stat(p)
            h.update(
                f"\0{os.path.abspath(p)}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}".encode()
            )
        return h.hexdigest()[:40]

    def _path(self, key: str) -> Path:
        return self.dir / key[:2] / f"{key}.bin"

    def get(self, key: str) -> np.ndarray | None:
        """The boolean map stored under ``key`` (None: not cached, or unreadable)."""
        entry = self.entry(key)
        return None if entry is None else entry[0]

    def entry(self, key: str) -> tuple[np.ndarray, tuple[int, int]] | None:
        """The boolean map stored under ``key`` and the edited image's (height, width)."""
        try:
            data = self._path(key).read_bytes()
            if data[:4] != _MAGIC:
                return None  # absent, another format (an older one: stale), or damaged
            end = 4 + _HEADER.size
            header, check = data[4:end], data[end : end + _CHECK_BYTES]
            packed = data[end + _CHECK_BYTES :]
            if check != _check(key, header, packed):
                return None  # a changed header or map, or another key's entry: recomputed
            h, w, eh, ew = _HEADER.unpack(header)
            bits = np.frombuffer(zlib.decompress(packed), dtype=np.uint8)
            if bits.size != (h * w + 7) // 8:
                return None
            return np.unpackbits(bits, count=h * w).reshape(h, w).view(bool), (eh, ew)
        except (OSError, ValueError, zlib.error, struct.error):
            return None

    def put(self, key: str, label: np.ndarray, edited: tuple[int, int] | None = None) -> None:
        """Store a map (uint8 255/0 or boolean) and the edited image's (height, width) (default:
        the map's); a full disk only skips the caching."""
        h, w = label.shape
        eh, ew = edited if edited is not None else (h, w)
        packed = zlib.compress(np.packbits(label != 0).tobytes(), 1)
        header = _HEADER.pack(h, w, eh, ew)
        data = _MAGIC + header + _check(key, header, packed) + packed
        path = self._path(key)
        try:
            write_bytes(path, data, durable=False)  # a torn entry reads as a miss
        except OSError:
            return
        if self._bytes is None:
            self._bytes = self.size_bytes()
        else:
            self._bytes += len(data)
        if self._bytes > self.max_bytes:
            self._prune()

    def _files(self) -> list[Path]:
        return [p for p in self.dir.glob("*/*.bin") if p.is_file()] if self.dir.is_dir() else []

    def size_bytes(self) -> int:
        """Bytes the cached maps take."""
        total = 0
        for p in self._files():
            with contextlib.suppress(OSError):
                total += p.stat().st_size
        return total

    def _prune(self) -> None:
        """Remove the oldest maps until the folder holds at most 80% of ``max_bytes``."""
        files = []
        for p in self._files():
            with contextlib.suppress(OSError):
                st = p.stat()
                files.append((st.st_mtime_ns, st.st_size, p))
        total = sum(size for _, size, _ in files)
        for _, size, p in sorted(files):
            if total <= 0.8 * self.max_bytes:
                break
            with contextlib.suppress(OSError):
                p.unlink()
                total -= size
        self._bytes = total


def pair_labels(
    original: str | Path,
    edited: str | Path,
    taus: Sequence[float],
    cache: LabelCache | None = None,
) -> list[np.ndarray]:
    """The boolean label maps of one pair, one per tau: from ``cache`` when it holds them all,
    else decoded (``read_rgb``: libspng for plain RGB PNGs) and computed, and
    stored there."""
    return sized_pair_labels(original, edited, taus, cache)[0]


def sized_pair_labels(
    original: str | Path,
    edited: str | Path,
    taus: Sequence[float],
    cache: LabelCache | None = None,
) -> tuple[list[np.ndarray], tuple[int, int]]:
    """:func:`pair_labels` and the edited image's decoded (height, width), cached with them."""
    keys = [cache.key(original, edited, t) for t in taus] if cache is not None else []
    if cache is not None:
        hits = [cache.entry(k) for k in keys]
        if hits and all(h is not None for h in hits):
            return [h[0] for h in hits if h is not None], hits[0][1]  # type: ignore[index]
    before, after = read_rgb(original), read_rgb(edited)
    size = (int(after.shape[0]), int(after.shape[1]))
    maps = [m.view(bool) for m in labels_u8(before, after, taus)]
    if cache is not None:
        for k, m in zip(keys, maps, strict=True):
            cache.put(k, m, size)
    return maps, size


def label_pngs(files: tuple[str, str], taus: tuple[float, ...]) -> list[bytes]:
    """The label-map PNG bytes of one (original, edited) pair, one per tau (runs on workers)."""
    return [encode_label_png(m) for m in pair_labels(files[0], files[1], taus)]


def write_labels(
    pairs: Sequence[Pair],
    taus: Sequence[float],
    out_dir: str | Path,
    on_pair: Callable[[Pair], None] | None = None,
    executor: Executor | None = None,
) -> list[Path]:
    """Compute and write every label map; returns the final paths. Raises :class:`PairsError`."""
    taus = parse_taus(taus)
    runner = executor if executor is not None else LocalExecutor()
    jobs = [(str(p.original), str(p.edited)) for p in pairs]
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise PairsError(f"{out}: exists and is not a folder")
    created = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    clean_stale(out, "labels")  # what a killed call left
    tmp = out / temp_name("labels", "staging")
    tmp.mkdir()
    final: list[Path] = []
    ok = False
    try:
        staged: list[tuple[Path, Path]] = []
        results = runner.map(partial(label_pngs, taus=tuple(taus)), jobs)
        for pair, pngs in zip(pairs, results, strict=True):
            for png, dest in zip(pngs, label_paths(pair.stem, taus, out), strict=True):
                src = tmp / dest.relative_to(out)
                src.parent.mkdir(parents=True, exist_ok=True)
                src.write_bytes(png)
                staged.append((src, dest))
            if on_pair is not None:
                on_pair(pair)
        for src, dest in staged:
            dest.parent.mkdir(parents=True, exist_ok=True)
            src.replace(dest)
            final.append(dest)
        ok = True
    except OSError as exc:
        raise PairsError(f"{out}: cannot write label maps ({exc.strerror or exc})") from exc
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if not ok and created:
            shutil.rmtree(out, ignore_errors=True)
    return final
