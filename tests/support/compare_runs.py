"""Run B of the compare and leaderboard tests (``tests/results/conftest.py`` makes both runs once
per test process): model ``vlm`` on the Forensics release of :mod:`support.forensics_data`, answered by
a replay file; run A answers as that module's replay does (items 0 and 1 right), run B has item 0
now wrong and items 2 and 3 now right."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from forgebench import api
from forgebench.run.generate import GenerationSettings

B_SAYS = {"0": "B", "1": "A", "2": "B", "3": "A"}
"""Run B's answers: item 0 now wrong (right -> wrong), 2 and 3 now right (wrong -> right)."""


def run_b_of(root: Path, dataset: Path, first: int | None = None) -> Path:
    """Run B on ``dataset``, or on a copy of it holding its ``first`` items only."""
    if first is not None:
        part = root / f"dataset_first_{first}"
        shutil.copytree(dataset, part)
        lines = (part / "items.jsonl").read_text().splitlines(keepends=True)
        (part / "items.jsonl").write_text("".join(lines[:first]))
        dataset = part
    replay = root / "answers_b.jsonl"
    replay.write_text(
        "".join(
            json.dumps({"item_id": i, "probe": "MCQ", "condition": "full", "text": t}) + "\n"
            for i, t in B_SAYS.items()
        )
    )
    run = root / ("run_b" if first is None else "run_b_part")
    api.run(
        dataset,
        run,
        [f"vlm=replay/{replay}"],
        GenerationSettings(cache_dir=root / "cache"),
    )
    api.metrics(run)
    return run
