"""The rows a refactor must keep (issue 38, "Must hold"): the stored tasks, their keys and the
bytes of metrics.csv of the demo's Mandela and PIXAR parts and of runs of each benchmark equal
the reference files in ``tests/fixtures/rows/`` made before the change (``support/row_fixtures.py``
makes the runs and says how to regenerate the files when numbers change on purpose)."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.row_fixtures import RUNS, Rows, changes, make_rows, stored

REGENERATE = (
    "if this change is meant to change these rows, regenerate the fixtures in a commit of their "
    "own and list the changed rows: cd tests && ../.venv/bin/python -m support.row_fixtures --write"
)


@pytest.mark.parametrize("name", RUNS)
def test_tasks_keys_and_metrics_csv_are_those_of_the_fixtures(
    name: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    # the demo's Mandela and PIXAR parts read the session's demo dataset (build_demo, as the
    # row fixtures' own build makes it; tests/demo checks how it is built)
    demo = request.getfixturevalue("demo_dataset") if name in ("demo", "demo_pixar") else None
    fresh = make_rows(name, tmp_path, demo)
    found = changes(name, stored(name), fresh)
    assert not found, "\n".join([*found, REGENERATE])


def test_a_change_names_the_task_and_the_metrics_row_it_touched() -> None:
    before = stored("pixar")
    header, first, *rest = before.tasks.splitlines(keepends=True)
    moved = first.replace(",loc-", ",loc2-", 1)  # another prompt version of exact/a/LOC/full
    metrics_head, *metrics_rows = before.metrics.decode("utf-8").splitlines(keepends=True)
    value = metrics_rows[-1].replace(",33.333333333333336,", ",33.3,")  # mixed's miss rate
    after = Rows(
        tasks="".join([header, moved, *rest[:-1]]),  # and the last task gone
        metrics="".join([metrics_head, *metrics_rows[:-1], value]).encode("utf-8"),
    )
    lines = changes("pixar", before, after)
    assert len(lines) == 3
    assert lines[0] == (
        "pixar: task changed: pixar/exact/a/LOC/full: prompt_version 'loc-e32ec0640000' -> "
        "'loc2-e32ec0640000'"
    )
    gone_key = rest[-1].split(",")[5]
    assert lines[1].startswith(f"pixar: task removed: pixar/mixed/c/LOC/full: ['{gone_key}', ")
    assert lines[2] == (
        "pixar: metrics row changed: pixar/mixed/LOC/full/all/miss: "
        "value '33.333333333333336' -> '33.3'"
    )
    crlf = Rows(tasks=before.tasks, metrics=before.metrics.replace(b"\n", b"\r\n"))
    lines = changes("pixar", before, crlf)
    assert lines[0] == "pixar: metrics.csv: same rows, other bytes:" and len(lines) > 2
    assert changes("pixar", before, before) == []
