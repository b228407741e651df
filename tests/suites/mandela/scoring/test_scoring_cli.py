"""The scoring commands end to end on a real run store: judge, metrics, calibrate, export."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from typer.testing import CliRunner

from forgebench.cli import app

ORWELL = {"name": "George Orwell", "aliases": ["Orwell"], "role": "photographer at the left edge"}
CONTRA = "George Orwell died in 1950, before the 1986 World Cup final (1986-06-29)"
ANSWERS = [
    "FAKE. George Orwell stands among the photographers at the left; he died in 1950.",
    "FAKE. George Orwell is among the photographers.",
    "FAKE. One photographer at the left edge looks pasted in.",
    "FAKE. The colours are off.",
    "REAL. Maradona in 1986.",
    "<think>hmm</think>FAKE. Orwell at the left edge, who died in 1950.",
]


@pytest.fixture
def run(tmp_path: Path, hand_run: Any) -> Path:
    items = [hand_run.make_item(f"F{i}", family="K1" if i < 5 else "K2", entity=ORWELL, contradiction=CONTRA)
             for i in range(len(ANSWERS))]  # fmt: skip
    items.append(hand_run.make_item("R1", label="authentic"))
    rows = [
        (m, f"F{i}", probe, "full", a)
        for m in ("m1", "m2")
        for probe in ("L0", "L1")
        for i, a in enumerate(ANSWERS)
    ]
    rows += [(m, "R1", p, "full", "REAL.") for m in ("m1", "m2") for p in ("L0", "L1", "L-adv")]
    hand_run.build_run(tmp_path / "run", items, rows)
    return tmp_path / "run"


def invoke(*args: str) -> Any:
    return CliRunner().invoke(app, [str(a) for a in args])


def test_judge_metrics_summary(run: Path) -> None:
    r = invoke("judge", run, "--judge", "builtin/rules")
    assert r.exit_code == 0, r.output
    assert "20 graded, 4 E0 without a call, 0 unscored" in r.output
    r = invoke("metrics", run)
    assert r.exit_code == 0, r.output
    assert "KGR by knowledge family" in r.output and "m1" in r.output and "m2" in r.output
    table = pd.read_csv(run / "metrics.csv", keep_default_na=False)
    kgr = table[
        (table.model == "m1")
        & (table.probe == "L0")
        & (table.subset == "all")
        & (table.metric == "kgr")
    ]
    # E3+: answers 0, 1 and 5 (names Orwell) over 6 forged items
    assert kgr.value.iloc[0] == pytest.approx(50.0) and kgr.judge.iloc[0] == "builtin/rules"
    again = invoke("judge", run, "--judge", "builtin/rules")
    assert "0 graded, 0 E0 without a call, 0 unscored, 24 already graded" in again.output


def test_calibrate_sample_blinded_and_score(run: Path) -> None:
    assert invoke("judge", run, "--judge", "builtin/rules").exit_code == 0
    r = invoke("calibrate", "sample", run, "--n", "10")
    assert r.exit_code == 0, r.output
    path = run / "calibration_sample.csv"
    rows = list(csv.DictReader(path.open()))
    assert len(rows) == 10 and all(row["human_level"] == "" for row in rows)
    assert "level" not in {k for k in rows[0] if k != "human_level"} and "reason" not in rows[0]
    assert {row["model"] for row in rows} == {"m1", "m2"}
    assert "hmm" not in "".join(row["answer"] for row in rows)
    # a human agrees with the judge except on one row, where the human says E4 and the judge E1
    from forgebench.suites.mandela.calibration_io import judge_levels

    levels = judge_levels(run, "builtin/rules")
    for i, row in enumerate(rows):
        row["human_level"] = f"E{levels[row['task_key']]}" if i else "4"
    rows[1]["human_level"] = ""
    graded = run / "human.csv"
    with graded.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    r = invoke("calibrate", "score", run, graded)
    assert r.exit_code == 0, r.output
    first = levels[rows[0]["task_key"]]
    exact = 100 * 8 / 9 if first != 4 else 100.0
    assert f"exact {exact:.1f}%" in r.output
    assert "skipped: 1 rows without a level" in r.output
    assert "Human" in r.output and "±1" in r.output


def test_calibrate_compares_two_judges(run: Path) -> None:
    assert invoke("judge", run, "--judge", "builtin/rules").exit_code == 0
    assert invoke("judge", run, "--judge", "other=builtin/rules").exit_code == 0
    r = invoke("calibrate", "score", run, "--judge", "builtin/rules", "--against-judge", "other")
    assert r.exit_code == 0, r.output
    assert "exact 100.0%" in r.output and "kappa 1.00" in r.output


def test_export_csv_and_parquet(run: Path, tmp_path: Path) -> None:
    assert invoke("judge", run, "--judge", "builtin/rules").exit_code == 0
    assert invoke("export", run, "--format", "csv").exit_code == 0
    df = pd.read_csv(run / "export.csv")
    assert len(df) == 30 and {
        "text",
        "verdict",
        "level",
        "judge_reason",
        "input_tokens",
        "latency_s",
    } <= set(df.columns)
    out = tmp_path / "x" / "rows.parquet"
    r = invoke("export", run, "--format", "parquet", "--out", out)
    assert r.exit_code == 0, r.output
    assert len(pd.read_parquet(out)) == 30


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("metrics", "{tmp}/nowhere"), "not a run directory"),
        (("export", "{run}", "--format", "xlsx"), "unknown format 'xlsx'"),
        (("metrics", "{run}", "--judge", "nobody"), "judge 'nobody' has no grades"),
        (("judge", "{run}", "--judge", "nonsense"), "bad model spec"),
        (
            ("calibrate", "score", "{run}", "{tmp}/missing.csv", "--judge", "builtin/rules"),
            "not found",
        ),
        (("calibrate", "score", "{run}"), "give HUMAN.csv"),
    ],
)
def test_user_errors_are_one_line(
    run: Path, tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    invoke("judge", run, "--judge", "builtin/rules")
    r = invoke(*(a.format(run=run, tmp=tmp_path) for a in args))
    assert r.exit_code != 0
    assert message in r.output
    assert "Traceback" not in r.output
    assert not (tmp_path / "nowhere").exists()
