"""Report pictures made ahead on threads against the same pictures made in order on one thread
(``forgebench.report.site_items.ahead_on_threads``): what a page's tests compare."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import TypeVar

import pytest

T = TypeVar("T")


def threads_then_one(
    monkeypatch: pytest.MonkeyPatch,
    module: ModuleType,
    write: Callable[[Path], T],
    threads_out: Path,
    one_out: Path,
) -> tuple[list[str], T, T]:
    """``write(threads_out)`` with the picture threads (as on a 4-core machine, so a one-core
    one has them too), then ``write(one_out)`` with one thread. Returns the name of the thread
    that made each of ``module._thumb``'s pictures (``forgebench-pictures`` for the threads,
    ``MainThread`` for the ordered pass) and both results."""
    from forgebench.report import site_items

    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    made: list[str] = []
    real = module._thumb

    def thumb(path: Path, out: Path) -> str | None:
        made.append(threading.current_thread().name.split("_")[0])
        return real(path, out)  # type: ignore[no-any-return]

    monkeypatch.setattr(module, "_thumb", thumb)
    threads = write(threads_out)
    monkeypatch.setattr(site_items, "PREFETCH_THREADS", 1)
    one = write(one_out)
    return made, threads, one


def files(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` by its relative path, with its bytes."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}
