"""An ``http/URL`` editor that answers junk is paid for once, not again and again: a reply that
arrived is priced as a delivered image whether or not it decodes, is not retried, its body is
read up to a limit, and its image header is checked against the dataset pixel limit before any
decoding (a decompression bomb, also inside ``image_b64``)."""

from __future__ import annotations

import base64
import json
import struct
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import skimage.data
from aiohttp import web
from PIL import Image

from .conftest import Server, cli

SPECS = [
    {"id": f"c{i}", "seed_id": "final86", "family": "K0", "operation": "recolour",
     "region": [20 + 60 * i, 300, 70 + 60 * i, 350], "entity": {"name": "tile"},
     "instruction": f"tile {i}"}
    for i in range(4)
]  # fmt: skip


def _seeds(root: Path) -> Path:
    from support.seed_folder import FACTS, SCENES  # the construction tests' seed records

    (root / "images").mkdir(parents=True)
    Image.fromarray(skimage.data.astronaut()).save(root / "images" / "final86.png")
    (root / "scenes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in SCENES))
    (root / "kb.jsonl").write_text("".join(json.dumps(r) + "\n" for r in FACTS))
    return root


def _png_header_only(width: int, height: int) -> bytes:
    """A PNG whose header claims ``width`` x ``height`` (a bomb's header; the data is short)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    idat = zlib.compress(b"\x00" * 4096)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def _reply(kind: str) -> Callable[[web.Request], Any]:
    async def handler(request: web.Request) -> web.StreamResponse:
        await request.read()
        if kind == "junk":
            return web.Response(body=b"this is not an image", content_type="image/png")
        if kind == "bomb":
            return web.Response(body=_png_header_only(12_000, 12_000), content_type="image/png")
        if kind == "b64bomb":
            b64 = base64.b64encode(_png_header_only(30_000, 30_000)).decode()
            return web.json_response({"image_b64": b64})
        # "huge": a body past the limit, streamed
        resp = web.StreamResponse(headers={"Content-Type": "image/png"})
        await resp.prepare(request)
        chunk = b"\x00" * (1 << 16)
        try:
            for _ in range(3 * 16):  # 3 MB
                await resp.write(chunk)
        except (ConnectionResetError, RuntimeError):
            pass
        return resp

    return handler


@pytest.mark.parametrize("kind", ["junk", "bomb", "b64bomb", "huge"])
def test_an_undecodable_reply_is_paid_once_and_counts_against_the_cap(
    kind: str, tmp_path: Path, hostile_server: Callable[..., Server]
) -> None:
    server = hostile_server({"/edit": _reply(kind)})
    specs = tmp_path / "specs.jsonl"
    specs.write_text("".join(json.dumps(s) + "\n" for s in SPECS))
    args = (
        "build", str(_seeds(tmp_path / "seeds")), str(specs), "--out", str(tmp_path / "b"),
        "--editor", f"http/{server.url}/edit", "--price-per-image", "1", "--max-cost", "2.5",
        "--concurrency", "1", "--max-reply-mb", "1",
    )  # fmt: skip
    res = cli(*args)
    assert ("Traceback" not in res.output and res.exception is None) or isinstance(
        res.exception, SystemExit
    ), res.output
    # the cap allows two images: two replies arrived, both priced, none asked for again
    assert len(server.hits) == 2, (server.hits, res.output)
    assert "spent 2.00" in res.output, res.output
    # the paid replies stay counted: the same cap in a later build starts no call
    again = cli(*args)
    assert len(server.hits) == 2 and "spent 2.00" in again.output, again.output
