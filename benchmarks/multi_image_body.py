"""Request bodies with several images: bytes and build time of one OpenAI-compatible body.

A video question under ``multi_image`` sends its frames as separate ``image_url`` parts; under
``full`` the same frames arrive tiled into one PNG. This prints, for N frames (real JPEGs of
random-texture content), the body size and the time to encode it with the data URLs spliced in
(``encode_body``) and through the JSON encoder (``json.dumps(build_body(...))``), plus the
single tiled image for comparison. Figures only; nothing is asserted.

    python benchmarks/multi_image_body.py [--frames 8] [--size 512] [--repeat 20]
"""

from __future__ import annotations

import argparse
import io
import json
import tempfile
import time
from pathlib import Path

import numpy as np
from PIL import Image

from forgebench.models.base import ImageRef, Request
from forgebench.models.openai_body import build_body, encode_body
from forgebench.suites.forensics.studies import tile


def _frames(folder: Path, n: int, size: int) -> list[ImageRef]:
    rng = np.random.default_rng(0)
    refs = []
    for k in range(n):
        arr = rng.integers(0, 256, (size // 8, size // 8, 3), dtype=np.uint8)
        im = Image.fromarray(arr).resize((size, size), Image.Resampling.BILINEAR)
        path = folder / f"f{k}.jpg"
        im.save(path, format="JPEG", quality=90)
        refs.append(ImageRef(f"v{k}", path, "image/jpeg"))
    return refs


def _time(fn: object, repeat: int) -> float:
    assert callable(fn)
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--frames", type=int, default=8)
    ap.add_argument("--size", type=int, default=512)
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        refs = _frames(folder, args.frames, args.size)
        tiled = tile([Image.open(r.path) for r in refs])
        buf = io.BytesIO()
        tiled.save(buf, format="PNG", compress_level=1)
        (folder / "tiled.png").write_bytes(buf.getvalue())
        one = Request(
            prompt="Which frames are forged?",
            images=(ImageRef("t", folder / "tiled.png", "image/png"),),
        )
        many = Request(prompt="Which frames are forged?", images=tuple(refs))
        for label, req in (
            (f"multi_image ({args.frames} frames)", many),
            ("full (tiled PNG)", one),
        ):
            body = encode_body("m", req)
            spliced = _time(lambda req=req: encode_body("m", req), args.repeat)
            dumped = _time(lambda req=req: json.dumps(build_body("m", req)), args.repeat)
            print(
                f"{label:28s} body {len(body) / 1e6:7.2f} MB  encode_body {spliced:7.2f} ms  "
                f"json.dumps {dumped:7.2f} ms"
            )


if __name__ == "__main__":
    main()
