"""Run-stage fixtures: a small Mandela dataset with real images, a model spec for the fake server."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from support.mandela_data import write_mandela_dataset


@pytest.fixture
def make_dataset(tmp_path: Path) -> Callable[[int], Path]:
    """``make_dataset(seeds)``: a dataset folder; ``--probes L0,L1 --conditions full`` gives
    4 tasks per seed."""

    def make(seeds: int) -> Path:
        return write_mandela_dataset(tmp_path / f"ds{seeds}", seeds)

    return make
