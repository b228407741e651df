"""How long builtin/verifier's tools take per image on the demo benchmark (measured, not asserted).

Builds the demo dataset and its KB in a temporary folder, then times, per full image: canonical-
scene matching (SIFT + FLANN + RANSAC, both orientations), face detection and embedding (YuNet +
SFace) and OCR (RapidOCR), plus the one-off start-up (scene index and portrait gallery). Prints
the median wall and the total wall and CPU seconds per tool (CPU of the thread each tool runs
on), with the machine's load; the demo asks one analysis per image variant. The allocator is set
up as the demo's (:func:`forgebench.util.memory.bound_heap`), whose mapped buffers are part of
what the tools cost there.

    .venv/bin/python benchmarks/verifier_speed.py [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
from PIL import Image

from forgebench.demo.build import build_demo
from forgebench.demo.kb import build_demo_kb
from forgebench.suites.mandela.verifier import faces, ocr, threads
from forgebench.suites.mandela.verifier.kb import load_kb
from forgebench.suites.mandela.verifier.model import Verifier
from forgebench.util.memory import bound_heap


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--keep", type=Path, help="Build the demo here and keep it.")
    args = ap.parse_args()
    bound_heap()
    with tempfile.TemporaryDirectory() as tmp:
        out = args.keep or Path(tmp)
        dataset = build_demo(out)
        kb = build_demo_kb(out)
        t0 = time.perf_counter()
        verifier = Verifier(load_kb(kb))
        verifier.gallery  # noqa: B018 - both are built on first use: counted here, as start-up
        verifier.scenes._ready()
        start = time.perf_counter() - t0
        times: dict[str, list[float]] = {"scene": [], "faces": [], "ocr": []}
        cpu = dict.fromkeys(times, 0.0)
        clocks = {
            "scene": time.thread_time,  # matched on this thread
            "faces": lambda: threads.VISION.cpu_seconds() or 0.0,
            "ocr": lambda: threads.OCR.cpu_seconds() or 0.0,
        }
        for line in (dataset / "items.jsonl").read_text().splitlines():
            item = json.loads(line)
            with Image.open(dataset / item["image"]) as im:
                rgb = np.asarray(im.convert("RGB")).copy()
            for name, fn in (
                ("scene", verifier.scenes.match),
                ("faces", faces.detect_faces),
                ("ocr", ocr.read_text),
            ):
                t, c = time.perf_counter(), clocks[name]()
                fn(rgb)
                times[name].append(time.perf_counter() - t)
                cpu[name] += clocks[name]() - c
        n = len(times["scene"])
        print(f"start-up (scene index + gallery): {start:.2f} s")
        for name, ts in times.items():
            print(
                f"{name:6s} median {statistics.median(ts):.3f} s  total {sum(ts):.1f} s, "
                f"{cpu[name]:.1f} CPU-s ({cpu[name] / n:.3f} per image; {n} images)"
            )
        total = sum(sum(ts) for ts in times.values())
        print(
            f"all tools: {total / n:.2f} s, {sum(cpu.values()) / n:.2f} CPU-s per image "
            f"(load {os.getloadavg()[0]:.1f})"
        )


if __name__ == "__main__":
    main()
