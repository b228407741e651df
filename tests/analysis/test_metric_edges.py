"""Edge cases of metrics.csv, each worked out by hand on a small real run store."""

from __future__ import annotations

from pathlib import Path

import pytest

from forgebench.suites.mandela.frame import load_frame
from forgebench.suites.mandela.metrics import compute_metrics
from support import hand_run as HR


def _table(run: Path, judge: str | None = None) -> dict[tuple[str, ...], tuple[float, int]]:
    out = compute_metrics(load_frame(run, judge), judge)
    return {
        (r.probe, r.condition, r.subset, r.metric): (float(r.value), int(r.n))
        for r in out.itertuples(index=False)
    }


def _triples(n_swap: int, swap_hits: int) -> tuple[list[dict], list[tuple]]:
    mi = HR.make_item
    items, rows = [], []
    for i in range(n_swap):
        items.append(mi(f"S{i}", seed_id=f"s{i}", family="K1", k1_type="date_impossible",
                        variant="swap", saliency="C1", domain="A5"))  # fmt: skip
        rows.append(("m", f"S{i}", "L0", "full", "FAKE." if i < swap_hits else "REAL."))
    for i in range(2):
        items.append(mi(f"E{i}", seed_id=f"s{i}", family="K1", k1_type="absent_celebrity",
                        variant="erase", saliency="C1", domain="A5",
                        erased={"name": "Joseph Stalin"}))  # fmt: skip
        rows.append(("m", f"E{i}", "L0", "full", "FAKE." if i == 0 else "REAL."))
    return items, rows


@pytest.mark.parametrize(("hits", "ratio"), [(1, None), (2, (50.0 / 20.0, 2))])
def test_erase_swap_ratio_withheld_at_ten_percent_swap_detection(
    tmp_path: Path, hits: int, ratio: tuple[float, int] | None
) -> None:
    items, rows = _triples(10, hits)
    HR.build_run(tmp_path / "r", items, rows)
    t = _table(tmp_path / "r")
    assert t[("L0", "full", "swap", "det")] == (10.0 * hits, 10)
    got = t.get(("L0", "full", "erase", "erase_swap_ratio"))
    assert got == (pytest.approx(ratio[0]), ratio[1]) if ratio else got is None


def test_kgr_rows_for_a_subset_whose_only_forgery_is_ungraded(tmp_path: Path) -> None:
    mi = HR.make_item
    items = [
        mi("F1", family="K1", saliency="C2"),
        mi("F2", family="K2", saliency="C2"),  # answered FAKE, never graded
        mi("R1", label="authentic"),
    ]
    rows = [
        ("m", "F1", "L0", "full", "FAKE. A person was added."),
        ("m", "F2", "L0", "full", "FAKE."),
        ("m", "R1", "L0", "full", "REAL."),
    ]
    HR.build_run(tmp_path / "r", items, rows, [("m", "F1", "L0", "full", 3, "graded")])
    t = _table(tmp_path / "r", "hand")
    assert t[("L0", "full", "K2", "det")] == (100.0, 1)
    assert t[("L0", "full", "K2", "kgr")] == (0.0, 1)  # ungraded counts as not E3+
    assert t[("L0", "full", "K2", "e4")] == (0.0, 1)
    assert t[("L0", "full", "K1", "kgr")] == (100.0, 1)
    assert t[("L0", "full", "all", "kgr")] == (50.0, 2)
    assert t[("L0", "full", "all", "ungraded")] == (1.0, 2)
    subsets_with = {
        m: {k[2] for k in t if k[:2] == ("L0", "full") and k[3] == m} for m in ("det", "kgr")
    }
    assert subsets_with["kgr"] == subsets_with["det"]


def test_recog_splits_forged_and_authentic(tmp_path: Path) -> None:
    mi = HR.make_item
    items = [mi("F1", family="K1"), mi("F2", family="K1"), mi("R1", label="authentic")]
    rows = [
        ("m", "F1", "RECOG", "full", "RECOGNISED. The 1986 final."),
        ("m", "F2", "RECOG", "full", "NOT RECOGNISED"),
        ("m", "R1", "RECOG", "full", "RECOGNISED"),
    ]
    HR.build_run(tmp_path / "r", items, rows)
    t = _table(tmp_path / "r")
    assert t[("RECOG", "full", "forged", "recog")] == (50.0, 2)
    assert t[("RECOG", "full", "authentic", "recog")] == (100.0, 1)
    assert ("RECOG", "full", "all", "recog") not in t
