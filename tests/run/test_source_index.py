"""The index of source files kept in the cache folder between prepares: a settled file is read
once, a changed file is hashed again (whatever its writer did to its times and size), and a
cache that cannot be used only means hashing again."""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from pathlib import Path

import pytest

from forgebench.run import images, source_index
from forgebench.run.images import VariantCache, VariantSpec, source_info
from forgebench.run.source_index import INDEX_FILE, SourceIndex
from forgebench.util.file_memo import FileMemo

PNG_A = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360f8cf00000301010018dd8db00000000049454e44ae426082"
)


def _settle(path: Path) -> None:
    """Move the file's times into the past, as a dataset copied a while ago has them (the
    status-change time moves with the call; the index waits for it)."""
    old = time.time() - 3600
    os.utime(path, (old, old))


def _no_memo(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new process: the in-process memo is empty."""
    monkeypatch.setattr(images, "_SOURCE_MEMO", FileMemo())


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names of the source files hashed from here on."""
    seen: list[str] = []
    real = images.media_type_of

    def counting(data: bytes, what: str = "image") -> str:
        seen.append(Path(what).name)
        return real(data, what)

    monkeypatch.setattr(images, "media_type_of", counting)
    return seen


@pytest.fixture
def settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files count as settled at once (their ctime cannot be moved into the past)."""
    monkeypatch.setattr(source_index, "SETTLE_S", -60.0)


def test_a_second_prepare_reads_no_settled_file_and_gets_the_same_ids(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settled: None
) -> None:
    src = tmp_path / "ds" / "a.png"
    src.parent.mkdir()
    src.write_bytes(PNG_A)
    spec = VariantSpec(source=src, condition="full")
    seen = _reads(monkeypatch)
    first = VariantCache(tmp_path / "cache", root=tmp_path / "ds")
    ref = first.ref(spec)
    first.flush()
    assert seen == ["a.png"] and (tmp_path / "cache" / INDEX_FILE).is_file()
    _no_memo(monkeypatch)
    again = VariantCache(tmp_path / "cache", root=tmp_path / "ds").ref(spec)
    assert seen == ["a.png"]  # from the index, not from the file
    assert again == ref and again is not None and again.media_type == "image/png"
    assert source_info(src).sha256 == hashlib.sha256(PNG_A).hexdigest()


def test_a_rewritten_file_is_hashed_again_even_with_its_old_times_and_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settled: None
) -> None:
    src = tmp_path / "a.png"
    src.write_bytes(PNG_A)
    _settle(src)
    cache = VariantCache(tmp_path / "cache")
    before = cache.source_info(src)
    cache.flush()
    st = src.stat()
    other = bytearray(PNG_A)
    other[-20] ^= 0xFF  # same size, other bytes
    with src.open("r+b") as fh:  # rewritten in place: the same inode
        fh.write(bytes(other))
    os.utime(src, ns=(st.st_atime_ns, st.st_mtime_ns))  # the old modification time put back
    assert (src.stat().st_size, src.stat().st_mtime_ns, src.stat().st_ino) == (
        st.st_size, st.st_mtime_ns, st.st_ino
    )  # fmt: skip
    _no_memo(monkeypatch)
    after = VariantCache(tmp_path / "cache").source_info(src)
    assert after.sha256 == hashlib.sha256(bytes(other)).hexdigest() != before.sha256


def test_a_replaced_file_is_hashed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settled: None
) -> None:
    src, new = tmp_path / "a.png", tmp_path / "new.png"
    src.write_bytes(PNG_A)
    cache = VariantCache(tmp_path / "cache")
    cache.source_info(src)
    cache.flush()
    new.write_bytes(PNG_A[:-1] + b"\x83")
    shutil.copystat(src, new)
    os.replace(new, src)  # another inode under the same name
    _no_memo(monkeypatch)
    seen = _reads(monkeypatch)
    got = VariantCache(tmp_path / "cache").source_info(src)
    assert seen == ["a.png"] and got.sha256 == hashlib.sha256(PNG_A[:-1] + b"\x83").hexdigest()


def test_a_file_changed_a_moment_ago_is_not_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = tmp_path / "a.png"
    src.write_bytes(PNG_A)  # written now: two writes in one clock tick would look alike
    cache = VariantCache(tmp_path / "cache")
    cache.source_info(src)
    cache.flush()
    _no_memo(monkeypatch)
    seen = _reads(monkeypatch)
    VariantCache(tmp_path / "cache").source_info(src)
    assert seen == ["a.png"]


def test_a_damaged_or_unwritable_index_only_means_hashing_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settled: None
) -> None:
    src = tmp_path / "a.png"
    src.write_bytes(PNG_A)
    want = hashlib.sha256(PNG_A).hexdigest()
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / INDEX_FILE).write_bytes(b"not a database" * 100)
    cache = VariantCache(tmp_path / "cache")
    assert cache.source_info(src).sha256 == want
    cache.flush()  # the damaged file was replaced by a working one
    _no_memo(monkeypatch)
    seen = _reads(monkeypatch)
    assert VariantCache(tmp_path / "cache").source_info(src).sha256 == want and seen == []
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("x")
    index = SourceIndex(blocked)  # its folder is a file: nothing can be recorded
    _no_memo(monkeypatch)
    assert source_info(src, index).sha256 == want
    index.flush()
    assert seen == ["a.png"]


def test_cache_clean_removes_the_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settled: None
) -> None:
    src = tmp_path / "a.png"
    src.write_bytes(PNG_A)
    cache = VariantCache(tmp_path / "cache")
    cache.source_info(src)
    cache.flush()
    assert (tmp_path / "cache" / INDEX_FILE).is_file()
    cache.clean()
    assert not [p for p in (tmp_path / "cache").rglob("*") if p.is_file()]
