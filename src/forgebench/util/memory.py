"""Keeping a long, image-heavy process's resident memory near what it really holds.

glibc's allocator raises its mmap threshold each time a large block is freed, after which
buffers of several MB (onnxruntime's and OpenCV's per-call tensors) come from the heap, fragment
it and are never given back; it also gives each thread its own arena. Measured on the demo's
OCR (44 images, one thread): peak 0.57-0.62 GB with the defaults, 0.40 GB with a fixed 4 MiB
threshold and 0.37 GB with 1 MiB, for 20-30% more CPU time in OCR (the pages of each large
buffer are mapped anew); on the whole demo (1 MiB): peak 0.62 -> 0.57 GB, the verifier stage
about 10% more CPU.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

M_MMAP_THRESHOLD = -3
M_ARENA_MAX = -8
MMAP_THRESHOLD = 1 << 20
"""Blocks of this size or more are mapped and unmapped on their own (the threshold stays fixed)."""
ARENA_MAX = 2
"""Allocator arenas shared by all threads."""

_claimed = False


def claim_process() -> None:
    """Say that this process is the ``forgebench`` script's own (its entry point calls this):
    process-wide settings such as :func:`bound_heap`'s are then forgebench's to choose. A Python
    session that calls forgebench's commands itself (``typer.testing.CliRunner``, a notebook)
    keeps its own, since glibc's dynamic mmap threshold cannot be turned back on once fixed."""
    global _claimed
    _claimed = True


def process_claimed() -> bool:
    """Whether :func:`claim_process` was called in this process."""
    return _claimed


def bound_heap() -> bool:
    """Fix glibc's mmap threshold and cap its arenas for this process (no-op elsewhere; True when
    applied). Call it early, before the threads and buffers it is meant for."""
    if not sys.platform.startswith("linux"):
        return False
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(M_ARENA_MAX, ARENA_MAX))


def trim() -> None:
    """Give the allocator's free pages back to the system (glibc ``malloc_trim``; no-op
    elsewhere): worth it between a process's stages, where one stage's freed buffers would
    otherwise stay resident under the next one's."""
    if not sys.platform.startswith("linux"):
        return
    name = ctypes.util.find_library("c")
    if name is None:
        return
    try:
        ctypes.CDLL(name).malloc_trim(0)
    except (OSError, AttributeError):
        return
