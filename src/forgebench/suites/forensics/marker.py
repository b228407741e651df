"""What makes a folder a Forensics dataset: its marker files and the check
:meth:`ForensicsSuite.detect` runs on every dataset a command is given (before it knows the
suite), so it imports nothing beyond the standard library (no pydantic models, unlike
:mod:`.contract`)."""

from __future__ import annotations

import json
from pathlib import Path

SUITE = "forensics"
MARKER_FILE = "dataset.json"
BENCHMARK_FILE = "benchmark.txt"
"""Names the folder's suite for :func:`forgebench.suites.detect` (``forensics``)."""


def is_forensics_dataset(root: Path) -> bool:
    """True when ``root`` is a Forensics dataset folder (``benchmark.txt`` or ``dataset.json``
    says so)."""
    bench = root / BENCHMARK_FILE
    if bench.is_file():
        try:
            return bench.read_text(encoding="utf-8").strip() == SUITE
        except (OSError, UnicodeDecodeError):
            return False
    marker = root / MARKER_FILE
    if not marker.is_file():
        return False
    try:
        return bool(json.loads(marker.read_text(encoding="utf-8")).get("suite") == SUITE)
    except (OSError, ValueError, AttributeError):
        return False
