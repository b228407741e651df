"""The two Forensics runs the compare and leaderboard tests read (:mod:`support.compare_runs`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from forgebench import api
from forgebench.run.generate import GenerationSettings
from support.compare_runs import run_b_of
from support.forensics_data import write_forensics_release


@pytest.fixture(scope="session")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    root = tmp_path_factory.mktemp("compare")
    dataset, replay = write_forensics_release(root)
    run_a = root / "run_a"
    api.run(dataset, run_a, [f"vlm=replay/{replay}"], GenerationSettings(cache_dir=root / "cache"))
    api.metrics(run_a)
    return root, run_a, run_b_of(root, dataset)
