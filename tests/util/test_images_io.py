"""Image checks, EXIF transposition of boxes and the Appendix C normalisation."""

from __future__ import annotations

import itertools
import zlib
from pathlib import Path

import pytest
from PIL import Image, ImageOps

from forgebench.util.images import (
    ImageCheckError,
    inspect_image,
    normalize_image,
    scale_box,
    target_size,
    transpose_box,
)
from support.textured import write_image


@pytest.mark.parametrize("orientation", range(1, 9))
def test_boxes_follow_the_pixels_under_every_exif_orientation(orientation: int) -> None:
    stored = Image.new("L", (50, 30), 0)
    box = (7, 4, 19, 11)
    stored.paste(255, box)
    exif = stored.getexif()
    exif[0x0112] = orientation
    stored.info["exif"] = exif.tobytes()
    upright = ImageOps.exif_transpose(stored)
    assert upright is not None
    assert transpose_box(box, orientation, stored.size) == upright.getbbox()


def test_scaling_rounds_outward_and_keeps_containment_and_bounds() -> None:
    src, dst = (2000, 1333), target_size((2000, 1333))
    assert dst == (1280, 853)
    boxes = [(0, 0, 2000, 1333), (1, 1, 2, 2), (999, 500, 1001, 501), (1999, 1332, 2000, 1333)]
    for box in boxes:
        x0, y0, x1, y1 = scale_box(box, src, dst)
        assert 0 <= x0 < x1 <= dst[0] and 0 <= y0 < y1 <= dst[1]
        assert x0 <= box[0] * dst[0] / src[0] and x1 >= box[2] * dst[0] / src[0]
    for outer, inner in itertools.permutations(boxes, 2):
        if (
            outer[0] <= inner[0]
            and outer[1] <= inner[1]
            and outer[2] >= inner[2]
            and outer[3] >= inner[3]
        ):
            so, si = scale_box(outer, src, dst), scale_box(inner, src, dst)
            assert so[0] <= si[0] and so[1] <= si[1] and so[2] >= si[2] and so[3] >= si[3]
    assert scale_box((0, 0, 2000, 1333), src, dst) == (0, 0, 1280, 853)


def test_target_size_only_downscales_and_sets_the_longest_side() -> None:
    assert target_size((1280, 720)) == (1280, 720)
    assert target_size((640, 480)) == (640, 480)
    assert target_size((1000, 4000)) == (320, 1280)
    assert target_size((5000, 2)) == (1280, 1)


def test_inspect_image_reports_missing_unrecognised_and_truncated_files(tmp_path: Path) -> None:
    good = write_image(tmp_path / "a.jpg", size=(40, 30))
    info = inspect_image(good)
    assert (info.size, info.format, info.orientation) == ((40, 30), "JPEG", None)
    with pytest.raises(ImageCheckError, match="file not found"):
        inspect_image(tmp_path / "missing.jpg")
    (tmp_path / "text.png").write_text("hello")
    with pytest.raises(ImageCheckError, match="not a recognised image file"):
        inspect_image(tmp_path / "text.png")
    (tmp_path / "cut.jpg").write_bytes(good.read_bytes()[:300])
    with pytest.raises(ImageCheckError, match="cannot be decoded"):
        inspect_image(tmp_path / "cut.jpg")


def _chunk(kind: bytes, data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + kind + data + zlib.crc32(kind + data).to_bytes(4, "big")


def _chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    out, at = [], 8
    while at < len(png):
        n = int.from_bytes(png[at : at + 4], "big")
        out.append((png[at + 4 : at + 8], png[at + 8 : at + 8 + n]))
        at += 12 + n
    return out


def _png(chunks: list[tuple[bytes, bytes]]) -> bytes:
    return b"\x89PNG\r\n\x1a\n" + b"".join(_chunk(kind, data) for kind, data in chunks)


def _exif_chunk(orientation: int) -> tuple[bytes, bytes]:
    exif = Image.Exif()
    exif[0x0112] = orientation
    return b"eXIf", exif.tobytes(8).removeprefix(b"Exif\x00\x00")


def _xmp_chunk(orientation: int) -> tuple[bytes, bytes]:
    xmp = f'<x:xmpmeta><rdf:Description tiff:Orientation="{orientation}"/></x:xmpmeta>'
    return b"iTXt", b"XML:com.adobe.xmp\x00\x00\x00\x00\x00" + xmp.encode()


def test_a_header_read_of_a_png_finds_the_orientation_a_full_decode_finds(tmp_path: Path) -> None:
    """``decode=False`` (the run's preflight, the KB check) reads a PNG's orientation from its
    chunks without decoding the pixels, unless a chunk after them may hold it: then it decodes,
    as Pillow does, and reports what a full decode reports, whichever chunk holds it."""
    plain = write_image(tmp_path / "plain.png", size=(40, 30)).read_bytes()
    head, *pixels, end = _chunks(plain)
    layouts = {
        "bare": [head, *pixels, end],
        "exif_first": [head, _exif_chunk(6), *pixels, end],
        "xmp_first": [head, _xmp_chunk(8), *pixels, end],
        "exif_after": [head, *pixels, _exif_chunk(6), end],
        "xmp_after": [head, *pixels, _xmp_chunk(3), end],
        "text_after": [head, *pixels, (b"tEXt", b"Comment\x00hi"), end],
        "both": [head, _exif_chunk(6), *pixels, _xmp_chunk(3), end],
    }
    expected = {"bare": None, "exif_first": 6, "xmp_first": 8, "exif_after": 6,
                "xmp_after": 3, "text_after": None, "both": 6}  # fmt: skip
    for name, chunks in layouts.items():
        path = tmp_path / f"{name}.png"
        path.write_bytes(_png(chunks))
        with Image.open(path) as im:
            im.load()
            assert im.getexif().get(0x0112) == expected[name], name  # Pillow, decoding
        full, header = inspect_image(path), inspect_image(path, decode=False)
        assert full == header and header.orientation == expected[name], name
        # pixels that do not decode: the header read passes where it need not decode them
        broken = tmp_path / f"{name}_broken.png"
        broken.write_bytes(_png([(k, b"\x00" * len(d) if k == b"IDAT" else d) for k, d in chunks]))
        with pytest.raises(ImageCheckError, match="cannot be decoded"):
            inspect_image(broken)
        if name in ("bare", "exif_first", "xmp_first", "both"):  # "both": its eXIf comes first
            assert inspect_image(broken, decode=False) == header
        else:
            with pytest.raises(ImageCheckError, match="cannot be decoded"):
                inspect_image(broken, decode=False)
    cut = tmp_path / "cut.png"  # the chunks end early: decoded, and refused as before
    cut.write_bytes(plain[: len(plain) // 2])
    with pytest.raises(ImageCheckError, match="cannot be decoded"):
        inspect_image(cut, decode=False)


def test_normalize_flattens_alpha_onto_white_and_is_deterministic(tmp_path: Path) -> None:
    rgba = Image.new("RGBA", (20, 10), (0, 0, 0, 0))
    rgba.paste((255, 0, 0, 255), (0, 0, 10, 10))
    rgba.save(tmp_path / "a.png")
    first = normalize_image(tmp_path / "a.png", tmp_path / "a.jpg")
    data = (tmp_path / "a.jpg").read_bytes()
    normalize_image(tmp_path / "a.png", tmp_path / "b.jpg")
    assert (tmp_path / "b.jpg").read_bytes() == data
    assert first.size == (20, 10) and first.scale == 1.0
    with Image.open(tmp_path / "a.jpg") as im:
        assert im.mode == "RGB"
        r, g, b = im.getpixel((15, 5))  # type: ignore[misc]
        assert min(r, g, b) > 240  # transparent -> white
        r, g, b = im.getpixel((5, 5))  # type: ignore[misc]
        assert r > 200 and g < 60 and b < 60
