"""Table 9's paired test counts what the ``l2_names`` metric counts.

The identity test of ``paired_tests.csv`` (L2, crop vs full, ``peripheral_K1``) must use the
metric's event and population: an answer naming a principal figure of the scene, on the
peripheral people-family forgeries whose scene has principal figures, misses counting as not
naming. Its b and c are recomputed here from the exported rows (``has_principal`` is an export
column), independently of the code under test, and b - c must equal the metric's own change.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pandas as pd

from forgebench import api
from forgebench.suites.mandela.metrics import write_metrics
from support import hand_run as HR

PRINCIPALS = ["Winston Churchill", "Joseph Stalin"]


def _run(root: Path) -> Path:
    mi = HR.make_item
    items = [  # P1..P6: peripheral K1 with principal figures; N1, N2 without
        mi(f"P{i}", seed_id=f"p{i}", family="K1", saliency="C2", principal_figures=PRINCIPALS)
        for i in range(1, 7)
    ] + [mi(f"N{i}", seed_id=f"n{i}", family="K1", saliency="C3") for i in range(1, 3)]
    says = {
        "P": "Winston Churchill and Joseph Stalin are seated in front.",
        "O": "The man on the left is Franklin Roosevelt.",  # names someone, not a principal
        "C": "I cannot identify the people in this image.",
        "M": "",  # a miss
    }
    plan = {  # P1..P6 then N1, N2
        "full": "PPPOPC" + "OO",
        "crop": "OCPPMP" + "CO",
    }
    ids = [f"P{i}" for i in range(1, 7)] + ["N1", "N2"]
    rows = [
        ("m", item, "L2", cond, says[a])
        for cond, answers in plan.items()
        for item, a in zip(ids, answers, strict=True)
    ]
    run = root / "run"
    HR.build_run(run, items, rows)
    write_metrics(run)
    return run


def test_identity_test_counts_principal_naming_on_items_with_principal_figures(
    tmp_path: Path,
) -> None:
    run = _run(tmp_path)
    with (run / "paired_tests.csv").open() as fh:
        tests = [r for r in csv.DictReader(fh) if r["metric"] == "l2_names"]
    assert len(tests) == 1
    t = tests[0]
    # full names a principal on P1 P2 P3 P5, crop on P3 P4 P6: only full = P1 P2 P5, only crop =
    # P4 P6 ("O" names a non-principal, "C" names nobody, the miss names nobody); N1, N2 (no
    # principal figures) are outside the population though their answers name someone.
    assert (int(t["b"]), int(t["c"]), int(t["n"])) == (3, 2, 6)

    metrics = pd.read_csv(run / "metrics.csv")
    l2 = metrics[(metrics["metric"] == "l2_names") & (metrics["subset"] == "peripheral_K1")]
    full = l2[l2["condition"] == "full"].iloc[0]
    crop = l2[l2["condition"] == "crop"].iloc[0]
    assert full["n"] == crop["n"] == int(t["n"])
    change = (full["value"] - crop["value"]) * full["n"] / 100
    assert round(change) == int(t["b"]) - int(t["c"])


def test_every_paired_row_recounts_from_the_export(tmp_path: Path) -> None:
    run = _run(tmp_path)
    rows = pd.read_csv(api.export(run, "csv", tmp_path / "export.csv").files[0])
    assert "has_principal" in rows.columns
    pop = rows[(rows["probe"] == "L2") & rows["peripheral_k1"] & rows["has_principal"]]
    named = {
        cond: dict(zip(g["item_id"], g["names_principal"].fillna(False).astype(bool), strict=True))
        for cond, g in pop.groupby("condition")
    }
    both = set(named["full"]) & set(named["crop"])
    b = sum(named["full"][i] and not named["crop"][i] for i in both)
    c = sum(named["crop"][i] and not named["full"][i] for i in both)
    with (run / "paired_tests.csv").open() as fh:
        (t,) = [r for r in csv.DictReader(fh) if r["metric"] == "l2_names"]
    assert (int(t["b"]), int(t["c"]), int(t["n"])) == (b, c, len(both))
