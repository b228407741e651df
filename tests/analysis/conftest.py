"""Fixtures of the analysis tests: synthetic row-level frames with known effects."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest


def load_synth() -> ModuleType:
    """The synthetic-run helper module (``tests/analysis/_synth_run.py``)."""
    name = "forgebench_tests_synth_run"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("_synth_run.py"))
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def synth() -> ModuleType:
    return load_synth()
