"""``forgebench compare``: two real Forensics runs answered by replay files, one answer flipped
each way; McNemar numbers checked against statsmodels; runs that share no item."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from forgebench import api
from forgebench.cli import app
from forgebench.results.compare import Side, pair_tests
from support.compare_runs import run_b_of
from support.forensics_data import FORENSICS_ROWS
from support.hand_run import build_run, make_item


def test_flipped_items_are_listed_with_both_answers_and_the_picture(
    two_runs: tuple[Path, Path, Path],
) -> None:
    root, run_a, run_b = two_runs
    out = root / "cmp"
    res = CliRunner().invoke(app, ["compare", str(run_a), str(run_b), "--out", str(out)])
    assert res.exit_code == 0, res.output
    [bm] = api.compare(run_a, run_b, out).benchmarks
    [test] = bm.tests
    assert (test.n, test.right_a, test.right_b, test.b, test.c) == (4, 2, 3, 1, 2)
    assert {(f.item_id, f.direction) for f in bm.flips} == {
        ("0", "right -> wrong"), ("2", "wrong -> right"), ("3", "wrong -> right"),
    }  # fmt: skip
    acc = {h.metric: (h.value_a, h.value_b, h.diff) for h in bm.headline}["acc"]
    assert acc == (50.0, 75.0, 25.0)
    page = (out / "index.html").read_text()
    said_a = {r[0]: r[5] for r in FORENSICS_ROWS}
    assert "I&#x27;m sorry, I can&#x27;t help with that." in page  # A's answer to item 2
    assert page.count('class="flip"') == 3 and "compared on the <b>4</b>" in page
    assert "an answer is right when the option letter read from it" in page
    assert said_a["3"].replace("A or B", "") and "Either A or B, hard to say." in page
    pics = [p for p in (out / "img").rglob("*") if p.is_file()]
    assert len(pics) == 3 and all(f'src="{p.relative_to(out)}"' in page for p in pics)
    flips = (out / "flips.csv").read_text().splitlines()
    assert len(flips) == 4 and flips[0].startswith("benchmark,model_a")
    assert "McNemar p=1.00" in res.output and "acc: 50.0 -> 75.0 (+25.0)" in res.output


def test_a_sampled_run_is_compared_on_the_items_both_hold(
    two_runs: tuple[Path, Path, Path],
) -> None:
    root, run_a, _ = two_runs
    sampled = run_b_of(root, root / "dataset", first=2)
    done = api.compare(run_a, sampled, root / "cmp_sample")
    [bm] = done.benchmarks
    assert (bm.items_a, bm.items_b, bm.items_both) == (4, 2, 2)
    assert bm.tests[0].n == 2
    assert "compared on the <b>2</b> both hold" in done.index.read_text()


def test_mcnemar_numbers_match_statsmodels() -> None:
    from statsmodels.stats.contingency_tables import mcnemar

    rng = np.random.default_rng(3)
    x, y = rng.random(60) < 0.7, rng.random(60) < 0.45
    qs = [(str(i), "MCQ", "full") for i in range(60)]
    side_a = Side({q: (f"a{i}", bool(v)) for i, (q, v) in enumerate(zip(qs, x, strict=True))})
    side_b = Side({q: (f"b{i}", bool(v)) for i, (q, v) in enumerate(zip(qs, y, strict=True))})
    [t] = pair_tests("forensics", "m", "m", side_a, side_b).tests
    table = [[int(np.sum(x & y)), int(np.sum(x & ~y))], [int(np.sum(~x & y)), int(np.sum(~x & ~y))]]
    want = mcnemar(table, exact=True)
    assert (t.b, t.c) == (table[0][1], table[1][0]) and t.b != t.c
    assert t.p == pytest.approx(want.pvalue, rel=1e-12) and t.p < 0.05


def test_runs_that_share_no_item_are_one_line_and_write_nothing(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    build_run(a, [make_item("x1")], [("m", "x1", "L0", "full", "FAKE")])
    build_run(b, [make_item("y1")], [("m", "y1", "L0", "full", "REAL")])
    out = tmp_path / "out"
    res = CliRunner().invoke(app, ["compare", str(a), str(b), "--out", str(out)])
    assert res.exit_code == 2
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "share no item" in lines[0], res.output
    assert not out.exists()


@pytest.mark.parametrize("verb", ["compare", "leaderboard"])
def test_a_store_of_a_newer_schema_is_one_line(tmp_path: Path, verb: str) -> None:
    from forgebench.run.store import Store
    from forgebench.run.store.schema import SCHEMA_VERSION

    a, b = tmp_path / "a", tmp_path / "b"
    for run in (a, b):
        build_run(run, [make_item("x1")], [("m", "x1", "L0", "full", "FAKE")])
    with Store.open(b, create=False) as store:  # as a newer forgebench would leave it
        store.meta_set("schema_version", SCHEMA_VERSION + 1)
    out = tmp_path / "out"
    args = [str(a), str(b), "--out", str(out)]
    res = CliRunner().invoke(app, [verb, *args])
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert res.exit_code == 2 and len(lines) == 1, res.output
    assert f"store schema version {SCHEMA_VERSION + 1} is newer" in lines[0]
    assert not out.exists()
