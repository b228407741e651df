"""Atomic writes: a reader sees the old file or the new one, never half; ``durable=False`` (for
caches whose entries check themselves) skips only the fsync."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from forgebench.util import atomic


def test_a_durable_write_is_fsynced_and_a_cache_write_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(atomic.os, "fsync", lambda fd: (synced.append(fd), real(fd)))
    atomic.write_bytes(tmp_path / "a" / "durable.bin", b"one")
    assert len(synced) == 1
    atomic.write_bytes(tmp_path / "a" / "cache.bin", b"two", durable=False)
    assert len(synced) == 1
    assert (tmp_path / "a" / "durable.bin").read_bytes() == b"one"
    assert (tmp_path / "a" / "cache.bin").read_bytes() == b"two"
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == ["cache.bin", "durable.bin"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "entry.bin"
    target.write_bytes(b"old")
    for durable in (True, False):
        with pytest.raises(RuntimeError), atomic.atomic_open(target, "wb", durable=durable) as fh:
            fh.write(b"new, half written")
            raise RuntimeError("disk full")
        assert target.read_bytes() == b"old"
        assert [p.name for p in tmp_path.iterdir()] == ["entry.bin"]
