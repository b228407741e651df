"""A plug-in benchmark (the toy suite of ``tests/suites/toy``, registered as a plug-in would be)
compares and ranks like the three: only its core (outcome, metrics rows) is used; it declares no
headline, so every metric of its rows on ``all`` is shown."""

from __future__ import annotations

import csv
import importlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from forgebench import api, suites
from forgebench.run.generate import GenerationSettings


@pytest.fixture
def toy() -> Iterator[Any]:
    suite = suites.register(importlib.import_module("suites.toy.suite").ToySuite())
    yield suite
    suites.unregister(suite.name)


def _toy_run(root: Path, ds: Path, name: str, says: list[str]) -> Path:
    replay = root / f"{name}.jsonl"
    replay.write_text(
        "".join(
            json.dumps({"item_id": str(i), "probe": "MCQ", "condition": "full", "text": t}) + "\n"
            for i, t in enumerate(says)
        )
    )
    run = root / name
    api.run(ds, run, [f"m=replay/{replay}"], GenerationSettings(cache_dir=root / "cache"))
    api.metrics(run)
    return run


def test_toy_runs_compare_and_rank(toy: Any, tmp_path: Path) -> None:
    ds = tmp_path / "toy"
    (ds / "img").mkdir(parents=True)
    rng = np.random.default_rng(2)
    with (ds / "toy.jsonl").open("w") as fh:
        for i in range(4):
            Image.fromarray(rng.integers(0, 255, (16, 16, 3), dtype=np.uint8)).save(
                ds / "img" / f"{i}.png"
            )
            row = {"id": str(i), "image": f"img/{i}.png", "question": "Which?",
                   "options": {"A": "a", "B": "b", "C": "c", "D": "d"}, "answer": "B"}  # fmt: skip
            fh.write(json.dumps(row) + "\n")
    one = _toy_run(tmp_path, ds, "one", ["B", "B", "A", "A"])
    two = _toy_run(tmp_path, ds, "two", ["A", "B", "B", "B"])
    done = api.compare(one, two, tmp_path / "cmp")
    [bm] = done.benchmarks
    [t] = bm.tests
    assert (bm.benchmark, t.n, t.b, t.c) == ("toy", 4, 1, 2)
    assert [(h.metric, h.value_a, h.value_b) for h in bm.headline] == [("acc", 50.0, 75.0)]
    assert done.index.read_text().count('class="flip"') == 3
    site = api.leaderboard([one, two], tmp_path / "site")
    with (site.out / "leaderboard.csv").open(newline="") as fh:
        rows = [(r["benchmark"], r["run"], r["acc"]) for r in csv.DictReader(fh)]
    assert rows == [("toy", "one", "50.0"), ("toy", "two", "75.0")]
