"""The viewer's items: each item's card with its pictures, and the pictures each answer made.

Pictures go under ``RUN/report/img/`` (:mod:`.site_images`). An item's variants come from its
suite (its viewer facet's ``views``) as encoded bytes, an image file, or the variant a task shows; a
variant is written once per report whoever asks for it (items and answers share
:attr:`Pictures.seen`, keyed by variant id) and is found in the run's variant cache before it is
rendered again.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from forgebench.models.base import ImageRef
from forgebench.report.facets import ItemCard
from forgebench.report.site_data import ViewerData
from forgebench.report.site_images import (
    bytes_view,
    diff_heatmap,
    file_view,
    picture,
    safe_name,
    thumb_and_view,
)
from forgebench.run.images import VariantCache, VariantSpec


def dataset_roots(data: ViewerData, given: Path | None) -> tuple[Path | None, dict[str, Path]]:
    """The dataset folder of the run and, for a run holding several benchmarks, each one's
    (``meta.datasets``, recorded by ``run``); a folder given explicitly is used for every item."""
    if given is not None:
        return given, {}
    recorded = data.meta.get("datasets")
    by_benchmark = {
        str(bm): Path(path)
        for bm, path in (recorded.items() if isinstance(recorded, dict) else ())
        if isinstance(path, str) and Path(path).is_dir()
    }
    return _dataset_root(data), by_benchmark


def _dataset_root(data: ViewerData) -> Path | None:
    settings = data.meta.get("settings")
    candidates = [data.meta.get("dataset"), data.meta.get("dataset_root")]
    if isinstance(settings, dict):
        candidates.append(settings.get("dataset"))
    for value in candidates:
        if isinstance(value, str) and Path(value).is_dir():
            return Path(value)
        if isinstance(value, dict):
            for sub in ("root", "path"):
                if isinstance(value.get(sub), str) and Path(value[sub]).is_dir():
                    return Path(value[sub])
    return None


@dataclass(frozen=True)
class AskedImage:
    """The picture the item's tasks under ``condition`` showed (their ``index``-th image), as
    the run recorded it: found among the item's answers by condition, so no source file is read
    or hashed to name it; ``spec`` makes the variant when no task of the run showed it."""

    condition: str
    spec: Callable[[], VariantSpec]
    index: int = 0


VariantViews = Callable[
    [Path, dict[str, Any]], Iterator[tuple[str, "bytes | Path | VariantSpec | AskedImage"]]
]
"""``views(dataset_root, item) -> (label, picture)``: the suite's extra pictures of an item, each
as encoded bytes, an image file, the :class:`~forgebench.run.images.VariantSpec` a task shows
(looked up by its variant id: rendered only when neither this report nor the run's variant cache
holds it) or an :class:`AskedImage` (what the item's tasks under a condition showed)."""
TaskImages = Callable[[str], tuple[ImageRef, ...]]
"""``shown(condition) -> images``: what the item's tasks under ``condition`` showed (() when
none was asked)."""


@dataclass
class Pictures:
    """Where the pictures of one report go and what is written already."""

    out: Path
    cache: VariantCache
    """The run's variant cache (``settings.cache_dir``), read for pictures tasks showed."""
    seen: dict[str, str | None] = field(default_factory=dict)
    """Variant id -> its picture, written once and shared by items and answers."""

    def asked(self, want: AskedImage, shown: TaskImages | None) -> str | None:
        """The picture of ``want``: the task's own image when the run recorded one whose bytes
        are still there, else its variant (:meth:`variant`)."""
        refs = shown(want.condition) if shown is not None else ()
        if len(refs) > want.index:
            ref = refs[want.index]
            if ref.variant_id in self.seen:
                return self.seen[ref.variant_id]
            if ref.path.is_file():
                rel = file_view(ref.path, self.out, safe_name(ref.variant_id))
                self.seen[ref.variant_id] = rel
                return rel
        return self.variant(want.spec())

    def variant(self, spec: VariantSpec) -> str | None:
        ref = self.cache.ref(spec)
        if ref is None:
            return None
        if ref.variant_id not in self.seen:
            name = safe_name(ref.variant_id)
            rel = file_view(ref.path, self.out, name) if ref.path.is_file() else None
            if rel is None:
                src = spec.source.read_bytes()
                data = spec.render(src, str(spec.source)) if spec.render is not None else src
                rel = bytes_view(data, self.out, name)
            self.seen[ref.variant_id] = rel
        return self.seen[ref.variant_id]


def cache_of(meta: Mapping[str, Any]) -> VariantCache:
    settings = meta.get("settings")
    recorded = settings.get("cache_dir") if isinstance(settings, dict) else None
    return VariantCache(recorded if isinstance(recorded, str) else None)


def _variants(
    root: Path,
    item: dict[str, Any],
    stem: str,
    warnings: list[str],
    views_of: VariantViews | None,
    pics: Pictures,
    own: Mapping[Path, str],
    shown: TaskImages | None,
) -> dict[str, str]:
    """Views of the item's variants (crops, mirrors, face canvases, frames), from its suite; an
    image file that is the item's own picture reuses its view (``own``)."""
    views: dict[str, str] = {}
    if views_of is None:
        return views
    try:
        for label, data in views_of(root, item):
            rel: str | None
            if isinstance(data, AskedImage):
                rel = pics.asked(data, shown)
            elif isinstance(data, VariantSpec):
                rel = pics.variant(data)
            elif isinstance(data, Path):
                rel = own.get(data) or file_view(data, pics.out, f"{stem}.{safe_name(label)}")
            else:
                digest = hashlib.sha256(data).hexdigest()[:12]
                rel = bytes_view(data, pics.out, f"{stem}.{safe_name(label)}.{digest}")
            if rel is not None:
                views[label] = rel
    except Exception as exc:  # a broken variant must not hide the rest of the report
        warnings.append(f"{item.get('id')}: variants not rendered: {exc}")
    return views


def _first_image(item: Mapping[str, Any]) -> str | None:
    """The item's picture (a multi-image item's first), relative to its dataset folder."""
    first = item.get("image") or next(iter(item.get("images") or []), None)
    return str(first) if first else None


def picture_sources(
    item: Mapping[str, Any], root: Path | None, original: Mapping[str, Any] | None
) -> tuple[Path | None, Path | None]:
    """The item's picture file and its original's (each None where there is none to show)."""
    first = _first_image(item)
    if root is None or not first:
        return None, None
    ofirst = _first_image(original) if original is not None else None
    return root / first, (root / ofirst if ofirst else None)


PREFETCH_THREADS = 4
"""Most threads :func:`ahead_on_threads` uses (one per core up to this: each holds a decoded
picture or two, and Pillow's decoders, scalers and encoders run without the GIL)."""

J = TypeVar("J")


def ahead_on_threads(make: Callable[[J], object], jobs: Sequence[J]) -> None:
    """``make(job)`` for every job on several threads, ahead of a pass that makes the same
    pictures in order and then finds them made (every writer here skips a picture already made
    and writes atomically, so one a thread could not finish is simply made again there). Errors
    are left to that pass, which meets them in its own order and reports them as before. With
    one core (or one job) nothing runs here."""
    workers = min(PREFETCH_THREADS, os.cpu_count() or 1, len(jobs))
    if workers < 2:
        return

    def attempt(job: J) -> None:
        try:
            make(job)
        except Exception:  # met again, in order, by the pass after this
            return

    with ThreadPoolExecutor(workers, thread_name_prefix="forgebench-pictures") as pool:
        for _ in pool.map(attempt, jobs):
            pass


PREFETCH_MIN_BYTES = 64 << 10
"""Smaller pictures are left to the ordered pass: they are nearly always placed as they are (a
link, no decoding), which threads would not speed up (measured on a Forensics run of 10,000
small pictures: made ahead as well, the report took 0.4-2 s longer)."""


def _worth_ahead(src: Path, osrc: Path | None) -> bool:
    """Whether a thread has decoding to do for this item: a difference heatmap, or a picture
    large enough that it is likely scaled and encoded again."""
    if osrc is not None:
        return True
    try:
        return os.stat(src).st_size >= PREFETCH_MIN_BYTES
    except OSError:
        return False


def prefetch_pictures(jobs: Sequence[tuple[Path, str, Path | None]], out: Path) -> None:
    """Each ``(picture, item id, original)``'s thumbnail, view and difference heatmap, made on
    threads (:func:`ahead_on_threads`) before :func:`item_record` goes through the items; only
    where there is decoding to do (:func:`_worth_ahead`)."""
    first: dict[str, tuple[Path, str, Path | None]] = {}
    for src, item_id, osrc in jobs:  # one job a file name, the first item's, as the page's
        stem = safe_name(item_id)  # pass keeps the first picture made under a name
        first.setdefault(stem, (src, stem, osrc))
    unique = [job for job in first.values() if _worth_ahead(job[0], job[2])]

    def make(job: tuple[Path, str, Path | None]) -> None:
        src, stem, osrc = job
        if src.is_file():
            picture(src, out, stem)
            if osrc is not None and osrc.is_file():
                diff_heatmap(src, osrc, out, stem)

    ahead_on_threads(make, unique)


def item_record(
    item: dict[str, Any],
    card: ItemCard,
    root: Path | None,
    pics: Pictures,
    original: Mapping[str, Any] | None,
    warnings: list[str],
    views_of: VariantViews | None = None,
    shown: TaskImages | None = None,
) -> dict[str, Any]:
    """An item's card as the page shows it: its suite's details rows, picture caption and
    outline, its pictures and (``original``: the item its suite pairs it with) the original
    beside it with a difference heatmap."""
    stem = safe_name(item["id"])
    rec: dict[str, Any] = {
        "id": item["id"],
        "rows": [[label, text] for label, text in card.rows if text],
        "caption": card.caption,
        "outline": list(card.outline) if card.outline is not None else None,
        "img": {},
    }
    src, osrc = picture_sources(item, root, original)
    if src is None or root is None:
        return rec
    if not src.is_file():
        warnings.append(f"{item['id']}: image {src} not found")
        return rec
    out = pics.out
    rec["img"], size = picture(src, out, stem)
    rec["_own"] = {src: rec["img"]["view"]}
    if size:
        rec["size"] = list(size)
    if original is not None and osrc is not None and osrc.is_file():
        rec["img"]["original"] = thumb_and_view(osrc, out, safe_name(original["id"]))["view"]
        heat = diff_heatmap(src, osrc, out, stem)
        if heat:
            rec["img"]["diff"] = heat
    rec["img"]["variants"] = _variants(
        root, item, stem, warnings, views_of, pics, rec["_own"], shown
    )
    return rec


AnswerPictures = Callable[[str, str], list[tuple[str, str]]]
"""``pictures(model, item id) -> [(label, path relative to the report)]``: what an answer made."""


def made_pictures(
    by_benchmark: Mapping[str, AnswerPictures] | None,
    benchmark: str,
    model: str,
    item_id: str,
    warnings: list[str],
) -> list[list[str]]:
    """The pictures the answer of ``model`` to item ``item_id`` of ``benchmark`` made, as its
    suite wrote them ([] for none; ask only for answers there are)."""
    made_of = (by_benchmark or {}).get(benchmark)
    if made_of is None:
        return []
    try:
        return [[label, rel] for label, rel in made_of(model, item_id)]
    except Exception as exc:  # a broken picture must not hide the rest of the report
        warnings.append(f"{item_id} ({model}): answer pictures not rendered: {exc}")
        return []
