"""OCR on the shared onnxruntime arena: the same lines as RapidOCR's own sessions, far fewer pages
mapped per image, and the arena's memory given back on release."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

from forgebench.suites.mandela.verifier import ocr, threads

from .conftest import World


def _raw(engine: object, rgb: np.ndarray) -> tuple[list[list[float]], list[str], list[float]]:
    out = engine(np.ascontiguousarray(rgb[..., ::-1]))  # type: ignore[operator]
    boxes = [] if out.boxes is None else np.asarray(out.boxes).tolist()
    return boxes, list(out.txts or ()), [float(s) for s in out.scores or ()]


def test_arena_sessions_read_exactly_what_rapidocr_reads(world: World) -> None:
    from rapidocr import RapidOCR

    ocr.read_text(world.plaque_fake)  # loads the engine's own sessions
    ours = ocr._get_engine()
    assert ours.cfg.Det.get("session") is not None  # the arena's sessions are the ones used
    plain = RapidOCR(params=ocr.ENGINE_PARAMS)
    images = [
        world.plaque_fake,
        world.plaque_real,
        np.ascontiguousarray(world.plaque_fake[:, ::-1]),
    ]
    for rgb in images:
        got = threads.OCR.call(_raw, ours, rgb)
        want = threads.OCR.call(_raw, plain, rgb)
        assert got == want  # boxes, text and scores bit for bit
    assert any("1971" in t for t in threads.OCR.call(_raw, ours, world.plaque_fake)[1])


_PROBE = """
import gc, resource, sys
import numpy as np
from forgebench.util.memory import bound_heap, trim
bound_heap()
from forgebench.suites.mandela.verifier import ocr, threads

def rss():
    for line in open('/proc/self/status'):
        if line.startswith('VmRSS'):
            return int(line.split()[1]) // 1024

def faults():
    return threads.OCR.call(lambda: resource.getrusage(resource.RUSAGE_THREAD).ru_minflt)

rgb = np.load(sys.argv[1])
ocr.read_text(rgb)
before = faults()
lines = ocr.read_text(rgb)
after = faults()
held = rss()
ocr.release()
gc.collect()
trim()
print(after - before, held - rss(), '|'.join(ln.text for ln in lines))
"""


def test_a_second_image_reuses_the_arena_and_release_gives_it_back(
    world: World, tmp_path: Path
) -> None:
    """Under the demo's allocator settings, RapidOCR's own sessions fault in ~49k fresh pages per
    read of this plaque and keep ~45 MB after release."""
    path = tmp_path / "plaque.npy"
    np.save(path, world.plaque_fake)
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, str(path)], capture_output=True, text=True, check=True
    )
    faults, freed_mb, text = out.stdout.split(maxsplit=2)
    assert "1971" in text
    assert int(faults) < 15_000
    assert int(freed_mb) >= 100
