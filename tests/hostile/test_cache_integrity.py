"""Caches verify what they return (issue 37, group 7): a damaged or edited entry of the index
of source digests (``sources.sqlite``), of the image-variant cache, of ``pixar-labels`` or of the
verifier's tool cache is computed again, never used.

- two images recorded under one digest in ``sources.sqlite``: each question is still sent its
  own picture (original and derived);
- one flipped hex digit in a stored digest: a resume sends (and pays for) nothing;
- a cached variant file holding another variant's bytes: rendered again, the right one sent;
- a changed size field in a ``pixar-labels`` entry's header: the labels and size are computed
  again (the F1 stays right), and an entry of the format before checksums is stale;
- a changed value in a verifier tool-cache file: a miss, computed again.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import sqlite3
import sys
import time
import types
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from forgebench.models.base import Request, Response, Usage
from forgebench.models.registry import register_provider
from forgebench.models.spec import ModelConfig
from forgebench.run import images, source_index
from forgebench.run.generate import GenerationSettings, run_generation
from forgebench.run.images import VariantCache, VariantSpec
from forgebench.run.source import Loaded, Selection
from forgebench.run.source_index import INDEX_FILE, row_checksum
from forgebench.run.tasks import Question

SENT: list[tuple[str, str, str]] = []
"""(item id, condition, sha256 of the image bytes) of every request the recording model got."""


def _png(color: tuple[int, int, int]) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (4, 4), color).save(buf, format="PNG")
    return buf.getvalue()


def _invert(data: bytes, what: str) -> bytes:
    with Image.open(io.BytesIO(data)) as im:
        out = Image.eval(im.convert("RGB"), lambda v: 255 - v)
    buf = io.BytesIO()
    out.save(buf, format="PNG")
    return buf.getvalue()


class TwoPictures:
    """Items ``a`` and ``b``, each its own picture, asked once as is and once inverted."""

    name = "pictures"

    def load(self, path: Path, selection: Selection) -> Loaded:
        return Loaded(root=path, items=[{"id": "a"}, {"id": "b"}])

    def questions(
        self,
        loaded: Loaded,
        selection: Selection,
        cache: VariantCache,
        *,
        render_images: bool = True,
    ) -> Iterator[Question]:
        for item in ("a", "b"):
            for condition, render in (("full", None), ("inverted", _invert)):
                spec = VariantSpec(
                    loaded.root / f"{item}.png", condition, renderer="t1", render=render
                )
                refs = cache.ensure_all([spec], render=render_images)
                yield Question(item, "Q", condition, "what is shown?", "q/v1", images=refs)


class Recorder:
    def __init__(self, config: ModelConfig) -> None:
        self.name = config.name

    async def generate(self, request: Request) -> Response:
        b64 = request.images_b64[0] if request.images_b64 else None
        data = base64.b64decode(b64) if b64 else request.images[0].path.read_bytes()
        meta = request.meta
        SENT.append((meta["item_id"], meta["condition"], hashlib.sha256(data).hexdigest()))
        return Response(text="a picture", usage=Usage(None, None))

    async def aclose(self) -> None:
        return None


@pytest.fixture(autouse=True)
def recorder(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    module = types.ModuleType("forgebench_tests_recorder")
    module.create = Recorder  # type: ignore[attr-defined]
    sys.modules[module.__name__] = module
    register_provider("builtin/recorder", module.__name__)
    monkeypatch.setattr(source_index, "SETTLE_S", -60.0)  # the tiny files count as settled
    SENT.clear()
    yield
    del sys.modules[module.__name__]


def _dataset(root: Path) -> dict[str, bytes]:
    root.mkdir()
    pictures = {"a": _png((200, 10, 10)), "b": _png((10, 10, 200))}
    old = time.time() - 3600
    for item, data in pictures.items():
        (root / f"{item}.png").write_bytes(data)
        os.utime(root / f"{item}.png", (old, old))
    return pictures


def _expected(pictures: dict[str, bytes]) -> set[tuple[str, str, str]]:
    def sha(d: bytes) -> str:
        return hashlib.sha256(d).hexdigest()

    return {
        (item, cond, sha(data if cond == "full" else _invert(data, item)))
        for item, data in pictures.items()
        for cond in ("full", "inverted")
    }


def _run(tmp_path: Path, run_dir: str) -> int:
    """One ``run`` in a new process's state (no in-process memo); the number of requests sent."""
    for memo in ("_SOURCE_MEMO", "_RECORDED"):
        getattr(images, memo, {}).clear()
    before = len(SENT)
    config = ModelConfig(spec="builtin/recorder", concurrency=1)
    settings = GenerationSettings(cache_dir=tmp_path / "cache")
    res = run_generation(TwoPictures(), tmp_path / "ds", tmp_path / run_dir, [config], settings)
    assert res.remaining == 0
    return len(SENT) - before


def _edit_index(tmp_path: Path, item: str, digest: str, *, forge_checksum: bool = False) -> None:
    """Set the digest recorded for ``item``'s picture (whichever table this version uses)."""
    path = os.path.abspath(tmp_path / "ds" / f"{item}.png")
    with sqlite3.connect(tmp_path / "cache" / INDEX_FILE) as con:
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        table = "entries" if "entries" in tables else "sources"
        con.execute(f"UPDATE {table} SET sha256=? WHERE path=?", (digest, path))
        if forge_checksum:  # someone who also recomputes the row's checksum
            row = con.execute(
                "SELECT size, mtime_ns, ctime_ns, ino, dev, media_type FROM entries WHERE path=?",
                (path,),
            ).fetchone()
            check = row_checksum(path, *row[:5], digest, row[5])
            con.execute("UPDATE entries SET checksum=? WHERE path=?", (check, path))


def _recorded(tmp_path: Path, item: str) -> str:
    path = os.path.abspath(tmp_path / "ds" / f"{item}.png")
    with sqlite3.connect(tmp_path / "cache" / INDEX_FILE) as con:
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        table = "entries" if "entries" in tables else "sources"
        return str(con.execute(f"SELECT sha256 FROM {table} WHERE path=?", (path,)).fetchone()[0])


@pytest.mark.parametrize("forge_checksum", [False, True])
def test_two_images_under_one_digest_are_each_sent_their_own_picture(
    tmp_path: Path, forge_checksum: bool
) -> None:
    pictures = _dataset(tmp_path / "ds")
    assert _run(tmp_path, "first") == 4
    assert set(SENT) == _expected(pictures)
    _edit_index(tmp_path, "b", _recorded(tmp_path, "a"), forge_checksum=forge_checksum)
    SENT.clear()
    assert _run(tmp_path, "second") == 4  # a new run folder: every question asked again
    assert set(SENT) == _expected(pictures)  # b's questions show b, never a's picture
    assert _recorded(tmp_path, "b") == hashlib.sha256(pictures["b"]).hexdigest()  # repaired


def test_a_flipped_digit_in_a_stored_digest_sends_nothing_on_resume(tmp_path: Path) -> None:
    _dataset(tmp_path / "ds")
    assert _run(tmp_path, "run") == 4
    right = _recorded(tmp_path, "a")
    flipped = ("1" if right[7] != "1" else "2").join((right[:7], right[8:]))
    _edit_index(tmp_path, "a", flipped)
    assert _run(tmp_path, "run") == 0  # every answer stored under the same keys: nothing paid
    with sqlite3.connect(tmp_path / "run" / "run.sqlite") as con:
        assert con.execute("SELECT COUNT(*) FROM tasks").fetchone()[0] == 4  # none superseded
    assert _recorded(tmp_path, "a") == right


def test_a_cached_variant_holding_other_bytes_is_rendered_again(tmp_path: Path) -> None:
    pictures = _dataset(tmp_path / "ds")
    assert _run(tmp_path, "first") == 4
    files = sorted((tmp_path / "cache").glob("*/*.png"))
    assert len(files) == 2  # the two inverted variants
    a_file, b_file = files
    a_file.write_bytes(b_file.read_bytes())  # one variant's file holds the other's picture
    SENT.clear()
    assert _run(tmp_path, "second") == 4
    assert set(SENT) == _expected(pictures)
    assert a_file.read_bytes() != b_file.read_bytes()  # written again with its own bytes


# -- pixar-labels ---------------------------------------------------------------------------


def _pair(folder: Path) -> tuple[Path, Path]:
    rng = np.random.default_rng(7)
    o = rng.integers(0, 256, (24, 32, 3), dtype=np.uint8)
    e = o.copy()
    e[4:12, 6:20] = 255 - e[4:12, 6:20]
    po, pe = folder / "o.png", folder / "e.png"
    Image.fromarray(o).save(po)
    Image.fromarray(e).save(pe)
    return po, pe


def test_a_changed_size_field_in_a_label_entry_is_computed_again(tmp_path: Path) -> None:
    from forgebench.suites.pixar import labeling
    from forgebench.suites.pixar.labeling import LabelCache, sized_pair_labels

    po, pe = _pair(tmp_path)
    cache = LabelCache(tmp_path / "pixar-labels")
    maps, size = sized_pair_labels(po, pe, [0.05], cache)
    assert size == (24, 32)
    (entry,) = cache.dir.glob("*/*.bin")
    whole = entry.read_bytes()
    edited = bytearray(whole)
    edited[12:20] = labeling.struct.pack("<II", 240, 320)  # the edited image's size field
    entry.write_bytes(bytes(edited))
    again, again_size = sized_pair_labels(po, pe, [0.05], cache)
    assert again_size == (24, 32)  # scored on the raster the model answered on
    assert np.array_equal(again[0], maps[0])
    assert entry.read_bytes() == whole  # recomputed and written again
    # an entry of the format before checksums (FBL2: header then map) is stale, recomputed
    key = cache.key(po, pe, 0.05)
    packed = labeling.zlib.compress(np.packbits(maps[0]).tobytes())
    entry.write_bytes(b"FBL2" + labeling.struct.pack("<IIII", 24, 32, 240, 320) + packed)
    assert cache.entry(key) is None
    assert sized_pair_labels(po, pe, [0.05], cache)[1] == (24, 32)
    assert entry.read_bytes() == whole


# -- the verifier's tool cache --------------------------------------------------------------


def test_a_changed_tool_result_is_a_miss_and_is_written_again(tmp_path: Path) -> None:
    from forgebench.suites.mandela.verifier import toolcache
    from forgebench.suites.mandela.verifier.ocr import TextLine

    cache = toolcache.ToolCache(tmp_path, "kb", scenes=None)  # type: ignore[arg-type]
    lines = [TextLine("EXIT", (0, 0, 5, 5), 0.9)]
    cache.put("variant-1", "text", lines)
    stored = cache._path("variant-1", "text")
    assert cache.get("variant-1", "text") == lines
    stored.write_text(stored.read_text().replace("EXIT", "EXTT"), encoding="utf-8")
    assert cache.get("variant-1", "text") is toolcache.MISS  # never the changed text
    # another variant's entry copied under this name is a miss too
    cache.put("variant-2", "text", [TextLine("OPEN", (1, 1, 4, 4), 0.8)])
    stored.write_bytes(cache._path("variant-2", "text").read_bytes())
    assert cache.get("variant-1", "text") is toolcache.MISS
    stored.write_text("{not json", encoding="utf-8")  # a torn or garbled file
    assert cache.get("variant-1", "text") is toolcache.MISS
    cache.put("variant-1", "text", lines)  # what the verifier does after a miss
    assert cache.get("variant-1", "text") == lines


# -- content-addressed blobs ----------------------------------------------------------------


def test_a_damaged_blob_is_never_read_back_and_is_rewritten(tmp_path: Path) -> None:
    from forgebench.run.blobs import BlobStore

    blobs = BlobStore(tmp_path / "blobs")
    data = _png((1, 2, 3))
    digest = blobs.put(data, "image/png")
    target = blobs.path(digest, "image/png")
    target.write_bytes(_png((3, 2, 1)))  # another picture under this digest's name
    assert blobs.get(digest, "image/png") is None  # a kept step is rendered again, not reused
    assert blobs.put(data, "image/png") == digest
    assert target.read_bytes() == data and blobs.get(digest, "image/png") == data
