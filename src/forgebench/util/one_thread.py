"""A tool that always runs on the same thread.

Native inference libraries (onnxruntime, OpenCV's DNN and SIFT) keep per-thread scratch memory
and the C allocator gives each thread its own arena: a model called from whichever of the
runner's worker threads happens to pick up a task grows the process by a copy of that memory
per thread (measured on builtin/verifier's OCR: a 1.16 GB peak from six threads taking turns
under a lock, 0.65 GB from one thread, for the same images). :class:`OneThread` funnels every
call onto one long-lived thread, which also serialises them, as the tools' shared sessions need.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")


class OneThread:
    """Runs callables on its own single worker thread (started on first use), one at a time.

    A call made from that thread itself runs directly (a tool calling another tool on the same
    worker cannot deadlock).
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None
        self._thread: threading.Thread | None = None

    def _executor(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=self.name)
                self._thread = self._pool.submit(threading.current_thread).result()
            return self._pool

    def cpu_seconds(self) -> float | None:
        """CPU seconds the worker thread has used so far (None before it starts, or where the
        platform cannot say)."""
        thread = self._thread
        if thread is None or thread.ident is None or not thread.is_alive():
            return None
        try:
            return time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
        except (AttributeError, OSError):
            return None

    def call(self, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` on the worker thread; its result, or its exception re-raised here."""
        pool = self._executor()
        if threading.current_thread() is self._thread:
            return fn(*args)
        return pool.submit(fn, *args).result()
