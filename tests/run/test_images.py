"""The content-addressed variant cache and the bounded base64 encoder."""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from forgebench.models.base import ImageRef
from forgebench.run.images import B64Cache, VariantCache, default_cache_dir
from forgebench.suites.mandela.conditions import render_variant, variant_spec
from forgebench.suites.mandela.contract import Dataset, load_dataset


@pytest.fixture
def ds(tmp_path: Path) -> Dataset:
    root = tmp_path / "ds"
    (root / "images").mkdir(parents=True)
    rng = np.random.default_rng(7)
    for name, fmt in (("a.jpg", "JPEG"), ("b.png", "PNG"), ("orig.png", "PNG")):
        arr = rng.integers(0, 256, size=(48, 64, 3), dtype=np.uint8)
        Image.fromarray(arr, "RGB").save(root / "images" / name, format=fmt)
    event = {"label": "E", "date": "1950"}
    items = [
        {"id": "a", "seed_id": "s", "image": "images/a.jpg", "label": "authentic",
         "domain": "A1", "noun": "photograph", "crop": [4, 4, 36, 28], "event": event},
        {"id": "b", "seed_id": "s", "image": "images/b.png", "label": "forged", "family": "K1",
         "k1_type": "absent_celebrity", "variant": "erase", "domain": "A1",
         "noun": "photograph", "saliency": "C2", "crop": [0, 0, 20, 20], "event": event,
         "erased": {"name": "P"},
         "faces": {"original": [2, 2, 18, 22], "replacement": [3, 3, 19, 23],
                   "original_image": "images/orig.png"}},
    ]  # fmt: skip
    (root / "items.jsonl").write_text("".join(json.dumps(i) + "\n" for i in items))
    return load_dataset(root)


def _files(d: Path) -> list[Path]:
    """The cache's entries (its ``.forgebench`` marker is no entry)."""
    found = d.rglob("*") if d.exists() else []
    return sorted(p for p in found if p.is_file() and p.name != ".forgebench")


def test_full_points_at_the_original_file_without_copying(ds: Dataset, tmp_path: Path) -> None:
    cache = VariantCache(tmp_path / "cache")
    ref = cache.ensure(variant_spec(ds.root, ds.get("a"), "full"))
    assert ref is not None
    assert ref.path == ds.root / "images" / "a.jpg"
    assert ref.media_type == "image/jpeg"
    v = render_variant(ds.root, ds.get("a"), "full")
    assert v is not None and ref.variant_id == v.id
    assert _files(tmp_path / "cache") == [] and cache.renders == 0
    assert cache.ensure(variant_spec(ds.root, ds.get("a"), "none")) is None


def test_derived_variants_are_stored_once_by_id(ds: Dataset, tmp_path: Path) -> None:
    cache = VariantCache(tmp_path / "cache")
    item = ds.get("b")
    ref = cache.ensure(variant_spec(ds.root, item, "crop"))
    assert ref is not None and cache.renders == 1
    assert ref.path == tmp_path / "cache" / ref.variant_id[:2] / f"{ref.variant_id}.png"
    v = render_variant(ds.root, item, "crop")
    assert v is not None and ref.path.read_bytes() == v.data and ref.variant_id == v.id
    mtime = ref.path.stat().st_mtime_ns
    assert (
        cache.ensure(variant_spec(ds.root, item, "crop_caption")) == ref
    )  # same image, no second render
    again = VariantCache(tmp_path / "cache")
    assert again.ensure(variant_spec(ds.root, item, "crop")) == ref
    assert cache.renders == 1 and again.renders == 0
    assert ref.path.stat().st_mtime_ns == mtime
    assert [p.name for p in _files(tmp_path / "cache")] == [ref.path.name]  # no temp files


def test_ref_computes_ids_without_rendering(ds: Dataset, tmp_path: Path) -> None:
    cache = VariantCache(tmp_path / "cache")
    refs = [
        cache.ref(variant_spec(ds.root, ds.get("b"), c))
        for c in ("crop", "mirror", "face_original")
    ]
    assert _files(tmp_path / "cache") == [] and cache.renders == 0
    ensured = [
        cache.ensure(variant_spec(ds.root, ds.get("b"), c))
        for c in ("crop", "mirror", "face_original")
    ]
    assert refs == ensured and cache.renders == 3
    assert len({r.variant_id for r in refs if r}) == 3


def test_an_edited_source_gets_a_new_id(ds: Dataset, tmp_path: Path) -> None:
    cache = VariantCache(tmp_path / "cache")
    item = ds.get("b")
    first = cache.ensure(variant_spec(ds.root, item, "mirror"))
    path = ds.image_path(item)
    im = Image.open(path).convert("RGB")
    im.putpixel((1, 1), (0, 0, 0))
    im.save(path)
    os.utime(path, ns=(1, 1))  # even with an odd mtime the (path, mtime, size) memo misses
    second = cache.ensure(variant_spec(ds.root, item, "mirror"))
    assert first is not None and second is not None and first.variant_id != second.variant_id
    assert cache.renders == 2 and len(_files(tmp_path / "cache")) == 2


def test_size_and_clean(ds: Dataset, tmp_path: Path) -> None:
    cache = VariantCache(tmp_path / "cache")
    done = cache.clean()
    assert cache.size_bytes() == 0 and (done.files, done.bytes) == (0, 0)
    for c in ("crop", "mirror", "face_original", "face_replacement"):
        cache.ensure(variant_spec(ds.root, ds.get("b"), c))
    size = cache.size_bytes()
    assert size == sum(p.stat().st_size for p in _files(tmp_path / "cache")) > 0
    done = cache.clean()
    assert (done.files, done.bytes, done.left) == (4, size, [])
    assert _files(tmp_path / "cache") == [] and cache.size_bytes() == 0
    assert (ds.root / "images" / "b.png").is_file()  # the dataset is never touched


def test_default_dir_follows_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("FORGEBENCH_CACHE", str(tmp_path / "env-cache"))
    assert VariantCache().dir == tmp_path / "env-cache" == default_cache_dir()
    monkeypatch.delenv("FORGEBENCH_CACHE")
    assert default_cache_dir() == Path.home() / ".cache" / "forgebench" / "variants"
    assert VariantCache(tmp_path / "x").dir == tmp_path / "x"


def _ref(tmp_path: Path, name: str, size: int) -> ImageRef:
    p = tmp_path / f"{name}.bin"
    p.write_bytes(bytes(range(256)) * (size // 256) + b"x" * (size % 256))
    return ImageRef(variant_id=name, path=p, media_type="image/png")


def test_b64_cache_encodes_once_and_stays_within_its_bound(tmp_path: Path) -> None:
    refs = [_ref(tmp_path, f"v{i}", 3000) for i in range(4)]  # 4000 base64 chars each
    cache = B64Cache(max_bytes=10_000)
    assert cache.get(refs[0]) == base64.b64encode(refs[0].path.read_bytes()).decode()
    cache.get(refs[0])
    assert cache.encodes == 1
    cache.get(refs[1])
    cache.get(refs[0])  # v0 is now the most recent
    cache.get(refs[2])  # 12,000 > 10,000: evicts the least recent, v1
    assert cache.size <= 10_000 and "v1" not in cache and "v0" in cache and "v2" in cache
    assert cache.encodes == 3
    cache.get(refs[1])
    assert cache.encodes == 4 and len(cache) == 2


def test_b64_cache_never_holds_an_oversized_variant(tmp_path: Path) -> None:
    big = _ref(tmp_path, "big", 9000)
    cache = B64Cache(max_bytes=1000)
    assert len(cache.get(big)) == 12_000
    cache.get(big)
    assert cache.encodes == 2 and len(cache) == 0 and cache.size == 0
    with pytest.raises(ValueError):
        B64Cache(-1)
