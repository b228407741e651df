"""PIXAR's packed label cache: a later pass reads the maps it stored instead of decoding the
pair, gives the same labels, notices a rewritten file, stays under its bound and is removed by
``forgebench cache clean``; ``metrics`` on a PIXAR run labels through it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from forgebench.cli import app
from forgebench.construct.pixels import labels_u8
from forgebench.suites.pixar import labeling
from forgebench.suites.pixar import pairs as pairs_module
from forgebench.suites.pixar.labeling import LabelCache, pair_labels
from forgebench.suites.pixar.pairs import encode_label_png, read_rgb
from support.pixar_loc import BOXES, box_pairs, exact_or_prose, serve_loc

TAUS = [0.05, 0.2]


def _pair(folder: Path, seed: int, size: int = 96) -> tuple[Path, Path]:
    rng = np.random.default_rng(seed)
    o = rng.integers(0, 256, (size, size + 8, 3), dtype=np.uint8)
    e = o.copy()
    e[10:40, 20:60] = 255 - e[10:40, 20:60]
    e[50:60, 5:15] = np.clip(e[50:60, 5:15].astype(int) + 60, 0, 255).astype(np.uint8)
    po, pe = folder / f"o{seed}.png", folder / f"e{seed}.png"
    cv2.imwrite(str(po), o)
    cv2.imwrite(str(pe), e)
    return po, pe


def test_a_later_pass_reads_the_cache_and_gives_the_same_labels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    po, pe = _pair(tmp_path, 1)
    expected = [m != 0 for m in labels_u8(read_rgb(po), read_rgb(pe), TAUS)]
    cache = LabelCache(tmp_path / "cache")
    first = pair_labels(po, pe, TAUS, cache)
    assert [np.array_equal(a, b) for a, b in zip(first, expected, strict=True)] == [True, True]
    assert len(list(cache.dir.glob("*/*.bin"))) == 2

    def no_decoding(path: object) -> np.ndarray:
        raise AssertionError("decoded although cached")

    monkeypatch.setattr(labeling, "read_rgb", no_decoding)
    later = pair_labels(po, pe, TAUS, cache)
    assert all(
        a.dtype == bool and np.array_equal(a, b) for a, b in zip(later, expected, strict=True)
    )


def test_a_rewritten_file_or_a_damaged_entry_is_computed_again(tmp_path: Path) -> None:
    po, pe = _pair(tmp_path, 2)
    cache = LabelCache(tmp_path / "cache")
    pair_labels(po, pe, TAUS, cache)
    other_o, _ = _pair(tmp_path, 3)  # another picture
    po.write_bytes(other_o.read_bytes())  # the original rewritten in place
    fresh = [m != 0 for m in labels_u8(read_rgb(po), read_rgb(pe), TAUS)]
    got = pair_labels(po, pe, TAUS, cache)
    assert all(np.array_equal(a, b) for a, b in zip(got, fresh, strict=True))
    for p in cache.dir.glob("*/*.bin"):
        p.write_bytes(b"FBL1 damaged")
    again = pair_labels(po, pe, TAUS, cache)
    assert all(np.array_equal(a, b) for a, b in zip(again, fresh, strict=True))


def test_a_torn_entry_is_a_miss_and_is_written_again(tmp_path: Path) -> None:
    po, pe = _pair(tmp_path, 5)
    cache = LabelCache(tmp_path / "cache")
    expected = pair_labels(po, pe, TAUS, cache)
    entries = sorted(cache.dir.glob("*/*.bin"))
    whole = [p.read_bytes() for p in entries]
    keys = [cache.key(po, pe, t) for t in TAUS]
    for p, data in zip(entries, whole, strict=True):  # a power cut mid-write: a short file
        p.write_bytes(data[: len(data) // 2])
    assert [cache.entry(k) for k in keys] == [None, None]
    again = pair_labels(po, pe, TAUS, cache)
    assert all(np.array_equal(a, b) for a, b in zip(again, expected, strict=True))
    assert [p.read_bytes() for p in entries] == whole
    # a whole zlib stream of the wrong length (a map of another size) is a miss, not a padded map
    h, w = expected[0].shape
    short = np.packbits(np.ones(h * w - 8 * 3, np.uint8)).tobytes()
    header = labeling._MAGIC + labeling.struct.pack("<IIII", h, w, h, w)
    cache._path(keys[0]).write_bytes(header + labeling.zlib.compress(short))
    assert cache.entry(keys[0]) is None and cache.entry(keys[1]) is not None


def test_the_cache_stays_under_its_bound(tmp_path: Path) -> None:
    cache = LabelCache(tmp_path / "cache", max_bytes=3_000)
    for seed in range(12):
        po, pe = _pair(tmp_path, 10 + seed)
        pair_labels(po, pe, TAUS, cache)
    assert 0 < cache.size_bytes() <= 3_000


def test_cache_clean_removes_the_label_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FORGEBENCH_CACHE", str(tmp_path / "cache"))
    po, pe = _pair(tmp_path, 4)
    cache = LabelCache()
    pair_labels(po, pe, TAUS, cache)
    assert cache.dir.is_relative_to(tmp_path / "cache") and cache.size_bytes() > 0
    res = CliRunner().invoke(app, ["cache", "clean"])
    assert res.exit_code == 0, res.output
    assert cache.size_bytes() == 0 and not list(cache.dir.glob("*/*.bin"))


def test_metrics_labels_through_the_cache_and_labels_a_rewritten_pair_again(
    fake_openai: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pairs, run = tmp_path / "pairs", tmp_path / "run"
    server = serve_loc(fake_openai, box_pairs(pairs), exact_or_prose)
    runner = CliRunner()
    res = runner.invoke(
        app, ["run", str(pairs), "--out", str(run), "--model", f"exact=openai/exact@{server.url}"]
    )
    assert res.exit_code == 0, res.output
    monkeypatch.setenv("FORGEBENCH_CACHE", str(tmp_path / "cache"))
    assert runner.invoke(app, ["metrics", str(run)]).exit_code == 0
    labels = run / "pixar" / "labels"
    first = (run / "metrics.csv").read_bytes(), {p.name: p.read_bytes() for p in labels.iterdir()}
    for stem in BOXES:  # the truth as PIXAR defines it, decoded without any cache
        o, e = (read_rgb(pairs / side / f"{stem}.png") for side in ("original", "edited"))
        assert first[1][f"{stem}.png"] == encode_label_png(labels_u8(o, e, [0.05])[0])
    assert len(list(LabelCache().dir.glob("*/*.bin"))) == len(BOXES)

    decoded: list[str] = []  # the pairs' images decoded (every reader goes through _decode)
    real = pairs_module._decode

    def counting(path: Path, flags: int, *, rgb: bool = False) -> np.ndarray:
        if path.is_relative_to(pairs):
            decoded.append(path.name)
        return real(path, flags, rgb=rgb)

    monkeypatch.setattr(pairs_module, "_decode", counting)
    assert runner.invoke(app, ["metrics", str(run)]).exit_code == 0
    assert decoded == []  # every label came from the cache ...
    assert (run / "metrics.csv").read_bytes() == first[0]  # ... and gives the same bytes
    assert {p.name: p.read_bytes() for p in labels.iterdir()} == first[1]

    original = pairs / "original" / "a.png"
    (pairs / "edited" / "a.png").write_bytes(original.read_bytes())  # pair a: no edit any more
    assert runner.invoke(app, ["metrics", str(run)]).exit_code == 0
    assert sorted(decoded) == ["a.png", "a.png"]  # only the rewritten pair is decoded again
    assert not cv2.imdecode(np.frombuffer((labels / "a.png").read_bytes(), np.uint8), 0).any()
    assert (run / "metrics.csv").read_bytes() != first[0]  # not served stale
