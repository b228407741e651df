"""Facts read from a file, memoised in this process per (path, mtime, size).

The variant cache hashes a source image once (:func:`forgebench.run.images.source_info`) and the
image-limits step reads its size once (:func:`forgebench.run.fit.measure`); both ask the same
file again and again while a dataset is expanded item by item. A file rewritten in place has a
new mtime or size, so it is read again. The memo is bounded: past :attr:`FileMemo.max_entries`
it starts again (a dataset is expanded one item at a time, so its images are asked for again
while still recent; holding every image of a 63k-item release took 36 MB for nothing).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Generic, TypeVar

T = TypeVar("T")

Key = tuple[str, int, int]
"""(path, mtime in ns, size)."""


def file_key(path: Path, st: os.stat_result) -> Key:
    """The memo key of ``path`` as ``st`` describes it."""
    return (str(path), st.st_mtime_ns, st.st_size)


class FileMemo(Generic[T]):
    """A bounded, thread-safe memo of one fact per file version (see the module docstring)."""

    def __init__(self, max_entries: int = 4096) -> None:
        self.max_entries = max_entries
        self._values: dict[Key, T] = {}
        self._lock = threading.Lock()

    def get(self, key: Key) -> T | None:
        with self._lock:
            return self._values.get(key)

    def put(self, key: Key, value: T) -> None:
        with self._lock:
            if len(self._values) >= self.max_entries:
                self._values.clear()
            self._values[key] = value

    def clear(self) -> None:
        """Forget everything (a file changed under the memo; a test's new process)."""
        with self._lock:
            self._values.clear()

    def __len__(self) -> int:
        return len(self._values)
