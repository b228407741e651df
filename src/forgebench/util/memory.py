"""Keeping a long, image-heavy process's resident memory near what it really holds.

glibc's allocator raises its mmap threshold each time a large block is freed, after which
buffers of several MB (onnxruntime's and OpenCV's per-call tensors) come from the heap, fragment
it and are never given back; it also gives each thread its own arena. Measured on the demo's
OCR (44 images, one thread): peak 0.57-0.62 GB with the defaults, 0.40 GB with a fixed 4 MiB
threshold, for about 20% more CPU time in OCR (the pages of each large buffer are mapped anew).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

M_MMAP_THRESHOLD = -3
M_ARENA_MAX = -8
MMAP_THRESHOLD = 4 << 20
"""Blocks of this size or more are mapped and unmapped on their own (the threshold stays fixed)."""
ARENA_MAX = 2
"""Allocator arenas shared by all threads."""


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
