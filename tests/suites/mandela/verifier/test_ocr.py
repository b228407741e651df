"""OCR on the shared onnxruntime arena: the same lines as RapidOCR's own sessions, fewer pages
mapped per read, and nothing of the arena held between reads."""

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
import resource, sys
import numpy as np
from rapidocr import RapidOCR
from forgebench.util.memory import bound_heap, trim
bound_heap()
from forgebench.suites.mandela.verifier import ocr, threads

def rss():
    for line in open('/proc/self/status'):
        if line.startswith('VmRSS'):
            return int(line.split()[1]) // 1024

def second_read_faults(read, engine, bgr):
    read(engine, bgr)
    before = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt
    read(engine, bgr)
    return resource.getrusage(resource.RUSAGE_THREAD).ru_minflt - before

rgb = np.load(sys.argv[1])
bgr = np.ascontiguousarray(rgb[..., ::-1])
ocr.read_text(np.zeros((64, 64, 3), np.uint8))  # loads the sessions
trim()
base = rss()
lines = ocr.read_text(rgb)
held = rss() - base
ours = threads.OCR.call(second_read_faults, ocr._run, ocr._get_engine(), bgr)
plain = RapidOCR(params=ocr.ENGINE_PARAMS)
theirs = threads.OCR.call(second_read_faults, lambda engine, bgr: engine(bgr), plain, bgr)
print(ours, theirs, held, '|'.join(ln.text for ln in lines))
"""


def test_a_read_maps_fewer_pages_and_holds_nothing_after_it(world: World, tmp_path: Path) -> None:
    """Under the demo's allocator settings (every buffer of 1 MiB or more mapped on its own), a
    read on the arena faults in about 34k fresh pages of this plaque against RapidOCR's 48k, and
    the arena's pages go back once the read is done (kept, they would hold ~100 MB)."""
    path = tmp_path / "plaque.npy"
    np.save(path, world.plaque_fake)
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, str(path)], capture_output=True, text=True, check=True
    )
    ours, theirs, held_mb, text = out.stdout.split(maxsplit=3)
    assert "1971" in text
    assert int(ours) < 0.8 * int(theirs)
    assert int(held_mb) < 40
