"""The viewer's pictures: what a browser shows as it is is placed without re-encoding (its own
thumbnail when small), anything else is scaled to JPEG views; nothing is half-written."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from forgebench.report.site_images import THUMB_SIDE, VIEW_SIDE, file_view, picture, safe_name


def _image(path: Path, size: tuple[int, int], fmt: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, (200, 40, 90)).save(path, format=fmt)
    return path


def test_a_small_png_is_placed_as_it_is_and_is_its_own_thumbnail(tmp_path: Path) -> None:
    src = _image(tmp_path / "ds" / "a.png", (64, 48), "PNG")
    rel, size = picture(src, tmp_path / "report", "a")
    assert size == (64, 48)
    assert rel == {"thumb": "img/view/a.png", "view": "img/view/a.png"}
    assert (tmp_path / "report" / rel["view"]).read_bytes() == src.read_bytes()
    assert not list((tmp_path / "report" / "img" / "view").glob(".*"))  # no temporary left


def test_a_mid_sized_jpeg_keeps_its_bytes_and_gets_a_scaled_thumbnail(tmp_path: Path) -> None:
    src = _image(tmp_path / "ds" / "b.jpg", (800, 400), "JPEG")
    rel, _ = picture(src, tmp_path / "report", "b")
    assert rel["view"] == "img/view/b.jpg"
    assert (tmp_path / "report" / rel["view"]).read_bytes() == src.read_bytes()
    with Image.open(tmp_path / "report" / rel["thumb"]) as im:
        assert im.format == "JPEG" and max(im.size) == THUMB_SIDE


def test_large_or_unusual_pictures_are_scaled_to_jpeg(tmp_path: Path) -> None:
    big = _image(tmp_path / "ds" / "c.png", (2000, 1000), "PNG")
    rel, size = picture(big, tmp_path / "report", "c")
    assert size == (2000, 1000)
    with Image.open(tmp_path / "report" / rel["view"]) as im:
        assert im.format == "JPEG" and im.size == (VIEW_SIDE, VIEW_SIDE // 2)
    tiff = _image(tmp_path / "ds" / "d.tif", (50, 50), "TIFF")  # browsers do not show TIFF
    view = file_view(tiff, tmp_path / "report", "d")
    assert view == "img/var/d.jpg"
    with Image.open(tmp_path / "report" / view) as im:
        assert im.format == "JPEG"


def test_an_unreadable_file_has_no_view(tmp_path: Path) -> None:
    bad = tmp_path / "ds" / "e.png"
    bad.parent.mkdir(parents=True)
    bad.write_bytes(b"not an image")
    assert file_view(bad, tmp_path / "report", "e") is None


def test_a_placed_picture_is_kept_while_fresh_and_replaced_when_its_source_is_newer(
    tmp_path: Path,
) -> None:
    import os

    src = _image(tmp_path / "ds" / "f.png", (32, 32), "PNG")
    view = tmp_path / "report" / "img" / "var" / "f.png"
    assert file_view(src, tmp_path / "report", "f") == "img/var/f.png"
    first = view.stat().st_ino
    assert file_view(src, tmp_path / "report", "f") == "img/var/f.png"  # fresh: kept
    assert view.stat().st_ino == first
    # a newer source (a new file under the same name) replaces the placed picture whole
    newer = _image(tmp_path / "ds" / "g.png", (32, 32), "PNG")
    Image.new("RGB", (32, 32), (0, 255, 0)).save(newer, format="PNG")
    os.replace(newer, src)
    later = view.stat().st_mtime + 5
    os.utime(src, (later, later))
    assert file_view(src, tmp_path / "report", "f") == "img/var/f.png"
    assert view.read_bytes() == src.read_bytes()
    with Image.open(view) as im:
        assert im.getpixel((0, 0)) == (0, 255, 0)
    assert not list(view.parent.glob(".*"))  # no temporary left


def test_safe_names_keep_letters_of_any_script_and_differ_for_different_ids() -> None:
    import hashlib

    def digest(item_id: str) -> str:
        return hashlib.sha1(item_id.encode("utf-8")).hexdigest()[:8]

    assert safe_name("HS-IMG_01/a b.png") == f"HS-IMG_01_a_b_png-{digest('HS-IMG_01/a b.png')}"
    assert safe_name("Ünïcode 漢字/٣") == f"Ünïcode_漢字_٣-{digest('Ünïcode 漢字/٣')}"
    long = "x" * 70 + "/" + "é" * 10
    assert safe_name(long) == f"{'x' * 60}-{digest(long)}"
    assert safe_name("a/b") != safe_name("a_b")  # same cleaned stem, told apart by the digest
    assert safe_name("") == f"-{digest('')}"
