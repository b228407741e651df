"""The allocator settings the demo uses: freed large buffers leave the process's memory."""

from __future__ import annotations

import subprocess
import sys

import pytest

_CODE = """
import ctypes, sys
from forgebench.util.memory import bound_heap, trim
def rss():
    for line in open('/proc/self/status'):
        if line.startswith('VmRSS'):
            return int(line.split()[1]) // 1024
def touched(n):
    buf = ctypes.create_string_buffer(n)
    ctypes.memset(buf, 1, n)
    return buf
if sys.argv[1] == "bound":
    assert bound_heap()
big = touched(16 << 20)  # freeing a mapped 16 MB block raises glibc's own threshold to 16 MB
del big
base = rss()
bufs = [touched(4 << 20) for _ in range(8)]
pin = touched(1000)  # a live block after them: the heap cannot shrink from its top
held = rss()
del bufs
freed = rss()
trim()
print(base, held, freed, rss())
"""


def _run(mode: str) -> tuple[int, int, int, int]:
    out = subprocess.run(
        [sys.executable, "-c", _CODE, mode], capture_output=True, text=True, check=True
    )
    base, held, freed, trimmed = (int(v) for v in out.stdout.split())
    return base, held, freed, trimmed


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_bounded_heap_gives_freed_buffers_back_where_the_default_keeps_them() -> None:
    base, held, freed, trimmed = _run("default")
    assert held - base >= 30
    assert freed - base >= 28  # the default allocator keeps them resident ...
    assert trimmed - base < 8  # ... until trimmed
    base, held, freed, _ = _run("bound")
    assert held - base >= 30
    assert freed - base < 8  # mapped on their own, unmapped when freed
