"""Shared test fixtures."""

from __future__ import annotations

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


# --- fake OpenAI-compatible server (tests/support/fake_openai.py; owner: runner) -----------------

import importlib.util as _ilu
import sys as _sys
from collections.abc import Callable as _Callable
from collections.abc import Iterator as _Iterator
from pathlib import Path as _Path
from typing import Any as _Any

import pytest

FAKE_OPENAI_SCRIPT = _Path(__file__).parent / "support" / "fake_openai.py"
"""Run it as a process: ``python FAKE_OPENAI_SCRIPT --port 0 ...`` prints the port."""


def _load_fake_openai() -> _Any:
    name = "forgebench_tests_fake_openai"
    if name not in _sys.modules:
        spec = _ilu.spec_from_file_location(name, FAKE_OPENAI_SCRIPT)
        assert spec is not None and spec.loader is not None
        module = _ilu.module_from_spec(spec)
        _sys.modules[name] = module
        spec.loader.exec_module(module)
    return _sys.modules[name]


@pytest.fixture
def fake_openai() -> _Iterator[_Callable[..., _Any]]:
    """Factory: ``fake_openai(latency_ms=5, fault_rate=0.15, seed=1)`` starts a loopback
    OpenAI-compatible server on a thread and returns it (``.url``, ``.script``, ``.hits``,
    ``.requests``, ...; see tests/support/fake_openai.py). Servers stop at teardown."""
    module = _load_fake_openai()
    servers: list[_Any] = []

    def start(**kwargs: _Any) -> _Any:
        server = module.FakeOpenAI(**kwargs).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
