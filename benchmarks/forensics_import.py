"""Import a synthetic release-format TSV and print rows/s, file size and peak memory.

    PYTHONPATH=src python benchmarks/forensics_import.py [--rows 3000] [--side 256]

Rows carry distinct JPEG images (random texture, ``--side`` px), every tenth row references a
later row's image, every twentieth is a three-frame list. Peak RSS (``ru_maxrss``) is printed
beside the file size: the import streams, so memory stays far below the file. Measured, not
asserted.
"""

from __future__ import annotations

import argparse
import base64
import csv
import io
import os
import resource
import tempfile
import time
from pathlib import Path

import numpy as np
from PIL import Image

from forgebench.suites.forensics.tsv_import import import_release_tsv


def _jpeg(rng: np.random.Generator, side: int) -> str:
    arr = rng.integers(0, 256, (side, side, 3), dtype=np.uint8)
    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, format="JPEG", quality=90)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def write_tsv(path: Path, rows: int, side: int) -> None:
    rng = np.random.default_rng(0)
    cats = ["human_entiresynthesis_diffusion_visibleimage_category", "nonhuman_real_none_visibleimage_seg",
            "human_faceswaponeface_encoderdecoder_video_temporal"]  # fmt: skip
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, delimiter="\t", lineterminator="\n")
        w.writerow(["index", "image", "question", "A", "B", "C", "D", "answer", "category"])
        for i in range(rows):
            if i % 10 == 5 and i + 1 < rows:
                image = str(i + 1)  # a reference to a later row
            elif i % 20 == 0:
                image = repr([_jpeg(rng, side) for _ in range(3)])
            else:
                image = _jpeg(rng, side)
            w.writerow([i, image, "What is the authenticity of the image?", "AI-generated",
                        "non AI-generated", "", "", "A", cats[i % 3]])  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=3000)
    ap.add_argument("--side", type=int, default=256)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tsv = Path(tmp) / "ForensicsBench.tsv"
        write_tsv(tsv, args.rows, args.side)
        size = tsv.stat().st_size
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        t0 = time.perf_counter()
        summary = import_release_tsv(tsv, Path(tmp) / "ds")
        elapsed = time.perf_counter() - t0
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        f"rows: {summary.items:,}  images: {summary.images:,}  references: {summary.references:,}"
    )
    print(
        f"TSV size: {size / 1e6:.1f} MB; import {elapsed:.1f} s ({summary.items / elapsed:,.0f} rows/s)"
    )
    print(f"peak RSS: {peak / 1024:.0f} MB (before the import: {before / 1024:.0f} MB)")
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
