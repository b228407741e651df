"""libspng decodes only the PNG files on which it and OpenCV agree, and gives OpenCV's pixels;
every other file (other formats, damaged, truncated, oriented, animated) is left to OpenCV, so a
damaged file is still refused rather than decoded into wrong pixels."""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image, PngImagePlugin

from forgebench.suites.pixar.pairs import PairsError, read_rgb
from forgebench.util import png

pytestmark = pytest.mark.skipif(not png.available(), reason="the fastpng extra (pyspng)")


def _picture(h: int = 48, w: int = 64, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(0, 256, (h, w, 3), dtype=np.uint8)  # RGB


def _cv_png(rgb: np.ndarray, *params: int) -> bytes:
    ok, buf = cv2.imencode(".png", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), list(params))
    assert ok
    return buf.tobytes()


def _pil_png(img: Image.Image, **kw: object) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG", **kw)
    return buf.getvalue()


def _opencv_rgb(data: bytes) -> np.ndarray | None:
    bgr = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    return None if bgr is None else cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)


def _chunks(data: bytes) -> list[tuple[bytes, int, int]]:
    out, pos = [], 8
    while pos < len(data):
        n = struct.unpack(">I", data[pos : pos + 4])[0]
        out.append((data[pos + 4 : pos + 8], pos, n))
        pos += 12 + n
    return out


def _with_chunk(data: bytes, kind: bytes, body: bytes) -> bytes:
    """``data`` with a chunk (correct CRC) inserted after IHDR."""
    chunk = struct.pack(">I", len(body)) + kind + body
    chunk += struct.pack(">I", zlib.crc32(kind + body))
    return data[:33] + chunk + data[33:]


def test_plain_rgb_pngs_decode_to_opencvs_pixels() -> None:
    rgb = _picture()
    info = PngImagePlugin.PngInfo()
    info.add(b"gAMA", struct.pack(">I", 100_000))
    info.add(b"sBIT", bytes([5, 6, 5]))
    files = {
        "opencv": _cv_png(rgb),
        "opencv, level 0": _cv_png(rgb, cv2.IMWRITE_PNG_COMPRESSION, 0),
        "pillow, gAMA + sBIT": _pil_png(Image.fromarray(rgb), pnginfo=info),
        "pillow, tRNS": _pil_png(Image.fromarray(rgb), transparency=(1, 2, 3)),
        "pillow, iCCP": _pil_png(Image.fromarray(rgb), icc_profile=b"\0" * 64),
        "many IDAT chunks": _pil_png(Image.fromarray(_picture(300, 500, 1))),
    }
    for name, data in files.items():
        got = png.rgb8(data)
        assert got is not None, name
        want = _opencv_rgb(data)
        assert got.dtype == np.uint8 and got.shape == want.shape and np.array_equal(got, want), name


def test_other_files_are_left_to_opencv() -> None:
    rgb = _picture()
    good = _cv_png(rgb)
    idat = next((p, n) for kind, p, n in _chunks(good) if kind == b"IDAT")
    bad_crc = bytearray(good)
    bad_crc[idat[0] + 8 + 5] ^= 0x01  # a damaged byte: the chunk's CRC no longer matches
    bad_ihdr = bytearray(good)
    bad_ihdr[29] ^= 0x01  # the IHDR CRC itself
    ok, jpeg = cv2.imencode(".jpg", rgb)
    assert ok
    others = {
        "grey": _pil_png(Image.fromarray(rgb[:, :, 0])),
        "rgba": _pil_png(Image.fromarray(np.dstack([rgb, rgb[:, :, :1]]))),
        "palette": _pil_png(Image.fromarray(rgb).convert("P")),
        "16-bit": _cv_png(rgb.astype(np.uint16) * 257),
        "jpeg": jpeg.tobytes(),
        "damaged IDAT": bytes(bad_crc),
        "damaged IHDR": bytes(bad_ihdr),
        "truncated": good[: len(good) - 20],
        "no IEND": good[: len(good) - 12],
        "trailing bytes": good + b"junk",
        "eXIf (turned by OpenCV)": _with_chunk(good, b"eXIf", b"MM\0*\0\0\0\x08\0\0"),
        "acTL (animated)": _with_chunk(good, b"acTL", struct.pack(">II", 1, 0)),
        "empty": b"",
    }
    for name, data in others.items():
        assert png.plain_rgb8(data) is None, name
        assert png.rgb8(data) is None, name


def test_read_rgb_refuses_a_damaged_png_that_libspng_alone_would_decode(tmp_path: Path) -> None:
    good = _cv_png(_picture(64, 64, 2))
    _kind, pos, n = [c for c in _chunks(good) if c[0] == b"IDAT"][-1]
    bad = bytearray(good)
    bad[pos + 8 + n // 2] ^= 0x10
    import pyspng

    assert pyspng.load(bytes(bad)).shape == (64, 64, 3)  # wrong pixels, no error
    path = tmp_path / "damaged.png"
    path.write_bytes(bytes(bad))
    with pytest.raises(PairsError, match="not a decodable image"):
        read_rgb(path)
    path.write_bytes(good)
    assert np.array_equal(read_rgb(path), _opencv_rgb(good))


def test_without_libspng_opencv_decodes_everything(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = _cv_png(_picture(32, 40, 3))
    path = tmp_path / "a.png"
    path.write_bytes(data)
    monkeypatch.setattr(png, "_decoder", lambda: None)
    assert not png.available() and png.rgb8(data) is None
    assert np.array_equal(read_rgb(path), _opencv_rgb(data))
