"""Fixtures of the analysis tests: synthetic row-level frames with known effects."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from support.modules import file_module


def load_synth() -> ModuleType:
    """The synthetic-run helper module (``tests/analysis/_synth_run.py``)."""
    return file_module("forgebench_tests_synth_run", Path(__file__).with_name("_synth_run.py"))


@pytest.fixture(scope="session")
def synth() -> ModuleType:
    return load_synth()
