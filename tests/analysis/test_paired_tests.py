"""RUN/paired_tests.csv on a hand-built run: b, c, n worked out below, p from scipy's binomtest."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from forgebench.suites.mandela.metrics import write_metrics
from forgebench.suites.mandela.paired_tests import COLUMNS
from support import hand_run as HR


def test_paired_tests_csv(tmp_path: Path) -> None:
    from scipy.stats import binomtest  # here, not in every worker's collection (0.8 s)

    mi = HR.make_item
    items = [mi(f"P{i}", seed_id=f"s{i}", family="K1", saliency="C2") for i in range(1, 6)]
    items += [mi(f"Q{i}", seed_id=f"q{i}", family="K2", saliency="C3") for i in range(1, 4)]
    items += [mi("C1", seed_id="c", family="K1", saliency="C1"), mi("R1", label="authentic")]
    v = {"F": "FAKE.", "R": "REAL.", "E": ("error", "HTTP 500")}
    plan = {  # answers per condition for P1..P5, Q1..Q3, C1 (central: in no test)
        "full": "FFRRF" + "FRF" + "F",
        "full_caption": "RFFFE" + "FFR" + "R",
        "crop_caption": "FFFFF" + "RRF" + "R",
        "mirror": "FRRRF" + "FFF" + "F",
        "crop": "RRRFF" + "RRF" + "F",
    }
    ids = [f"P{i}" for i in range(1, 6)] + [f"Q{i}" for i in range(1, 4)] + ["C1"]
    rows = [
        ("m", item, "L1", cond, v[a])
        for cond, answers in plan.items()
        for item, a in zip(ids, answers, strict=True)
    ]
    rows.append(("m", "R1", "L1", "full", "REAL."))
    HR.build_run(tmp_path / "run", items, rows)
    write_metrics(tmp_path / "run")
    with (tmp_path / "run" / "paired_tests.csv").open() as fh:
        reader = csv.DictReader(fh)
        assert tuple(reader.fieldnames or ()) == COLUMNS
        got = {(r["condition"], r["subset"], r["baseline_condition"]): r for r in reader}
    want = {
        # P: full F F R R F; full_caption R F F F (miss): b = P1, P5; c = P3, P4
        ("full_caption", "peripheral_K1", "full"): (2, 2, 5),
        # crop_caption F F F F F: b = 0; c = P3, P4
        ("crop_caption", "peripheral_K1", "full"): (0, 2, 5),
        # crop R R R F F: b = P1, P2; c = P4
        ("crop", "peripheral_K1", "full"): (2, 1, 5),
        # Table 12, K2: full F R F; full_caption F F R: b = Q3, c = Q2; crop_caption R R F: b = Q1
        ("full_caption", "peripheral_K2", "full"): (1, 1, 3),
        ("crop_caption", "peripheral_K2", "full"): (1, 0, 3),
        # Table 19, all peripheral forgeries (P and Q): mirror F R R R F F F F; crop R R R F F R R F
        # b (mirror only) = P1, Q1, Q2; c (crop only) = P4
        ("crop", "peripheral", "mirror"): (3, 1, 8),
    }
    assert set(got) == set(want)
    for key, (b, c, n) in want.items():
        r = got[key]
        assert (int(r["b"]), int(r["c"]), int(r["n"])) == (b, c, n), key
        p = binomtest(min(b, c), b + c, 0.5).pvalue if b + c else 1.0
        assert float(r["p"]) == pytest.approx(p), key
        assert r["benchmark"] == "mandela" and r["probe"] == "L1" and r["metric"] == "det"
        assert r["judge"] == ""
