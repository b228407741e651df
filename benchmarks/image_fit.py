"""What fitting images to a model's limits costs (issue 41, item 2; measured, not asserted).

Times, on one thread: reading an image's size from its header (what every image of a question
costs a model with limits, resized or not), and resizing a camera-sized photograph (4032 x 3024,
JPEG quality 92) and a large PNG (3000 x 2000) to each provider preset (``run/fit.py``), with the
bytes and sizes before and after.

    .venv/bin/python benchmarks/image_fit.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import io
import tempfile
import time
from pathlib import Path

import numpy as np
from PIL import Image

from forgebench.models.image_limits import PRESETS
from forgebench.run.fit import fit_bytes, measure


def _photo(w: int, h: int, fmt: str) -> bytes:
    """A smooth image with some noise (compresses like a photograph, not like pure noise)."""
    y, x = np.mgrid[0:h, 0:w]
    base = np.stack([(x * 255 // w), (y * 255 // h), ((x + y) * 255 // (w + h))], axis=-1)
    noise = np.random.default_rng(0).integers(-12, 13, size=base.shape)
    arr = np.clip(base + noise, 0, 255).astype(np.uint8)
    buf = io.BytesIO()
    Image.fromarray(arr, "RGB").save(buf, format=fmt, **({"quality": 92} if fmt == "JPEG" else {}))
    return buf.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i in range(200):
            path = Path(tmp) / f"{i}.png"
            Image.new("RGB", (64 + i, 48), (i, 0, 0)).save(path)
            paths.append(path)
        start = time.perf_counter()
        for path in paths:
            measure(path)
        per = (time.perf_counter() - start) / len(paths)
        print(f"header read (first time, per image): {per * 1e6:.0f} us")
    for name, (w, h, fmt, media) in {
        "photo 4032x3024 JPEG": (4032, 3024, "JPEG", "image/jpeg"),
        "PNG 3000x2000": (3000, 2000, "PNG", "image/png"),
    }.items():
        data = _photo(w, h, fmt)
        for preset, limits in PRESETS.items():
            if not limits().exceeded(w, h, len(data)):
                print(f"{name} ({len(data):,} B) -> {preset}: within its limits, sent as it is")
                continue
            best = float("inf")
            for _ in range(args.repeat):
                start = time.perf_counter()
                out = fit_bytes(data, limits(), media)
                best = min(best, time.perf_counter() - start)
            with Image.open(io.BytesIO(out)) as im:
                size = im.size
            print(
                f"{name} ({len(data):,} B) -> {preset}: {size[0]}x{size[1]}, {len(out):,} B, "
                f"{best * 1000:.0f} ms"
            )


if __name__ == "__main__":
    main()
