"""Scores: the Table 2 reproduction from Tables 15-26, and metrics rows on answers."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from forgebench.suites.forensics.scores import metric_rows, perspective_scores
from forgebench.suites.forensics.taxonomy import PERSPECTIVES, parse_type_code

FIXTURES = Path(__file__).parent / "fixtures"


def _read(name: str) -> list[dict[str, str]]:
    with (FIXTURES / name).open(newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def test_table2_perspective_columns_reproduced_from_tables_15_to_26() -> None:
    per_type: dict[str, dict[str, float]] = {}
    for r in _read("seed002_per_type.tsv"):
        per_type.setdefault(r["model"], {})[r["type_code"]] = float(r["acc"])
    table2 = {r["model"]: r for r in _read("seed002_table2.tsv")}
    assert len(per_type) == 25 and set(per_type) == set(table2)
    columns = dict(
        zip(PERSPECTIVES, ("semantic", "modality", "task", "type", "model_persp"), strict=True)
    )
    worst = 0.0
    for model, accs in per_type.items():
        assert len(accs) == 112
        got = perspective_scores(accs)
        for perspective, col in columns.items():
            worst = max(worst, abs(got[perspective] - float(table2[model][col])))
    assert worst <= 0.1


def test_every_type_code_of_the_paper_parses() -> None:
    codes = {r["type_code"] for r in _read("seed002_per_type.tsv")}
    for code in codes:
        tc = parse_type_code(code)
        assert str(tc) == code
        assert parse_type_code(str(tc)).category()  # has a release category string


def _answers(rng: np.random.Generator, n: int) -> pd.DataFrame:
    codes = ["HS-RGB-BC-ES-DF", "GS-RGB-BC-ES-GAN", "HS-RGB-SLS-FE&FT-ED&GR", "HS-VID-TL-FSS-ED"]
    steps = rng.choice(["letter", "text", "extractor", "refusal", "none"], size=n)
    letter = np.where(np.isin(steps, ["refusal", "none"]), "Z", rng.choice(list("ABZ"), size=n))
    truth = rng.choice(list("AB"), size=n)
    return pd.DataFrame(
        {
            "model": "m1",
            "probe": "MCQ",
            "condition": "full",
            "item_id": [str(i) for i in range(n)],
            "type_code": rng.choice(codes, size=n),
            "truth": truth,
            "letter": letter,
            "correct": letter == truth,
            "step": steps,
            "judge": np.where(steps == "extractor", "gpt-x", ""),
        }
    )


def test_metric_rows_agree_with_sklearn_and_the_perspective_rule() -> None:
    from sklearn.metrics import accuracy_score

    frame = _answers(np.random.default_rng(3), 500)
    rows = {(r.subset, r.metric): r for r in metric_rows(frame)}
    assert rows[("all", "acc")].value == pytest.approx(
        100 * accuracy_score(frame["truth"], frame["letter"])
    )
    assert rows[("all", "acc")].n == 500
    for code, g in frame.groupby("type_code"):
        assert rows[(code, "acc")].value == pytest.approx(
            100 * accuracy_score(g["truth"], g["letter"])
        )
    hs = frame[frame["type_code"].str.startswith("HS-")]
    assert rows[("semantic=HS", "acc")].value == pytest.approx(100 * hs["correct"].mean())
    # task: BC has two codes (their mean), SLS and TL one each; persp = mean of the three values
    acc = frame.groupby("type_code")["correct"].mean() * 100
    bc = (acc["HS-RGB-BC-ES-DF"] + acc["GS-RGB-BC-ES-GAN"]) / 2
    expect = (bc + acc["HS-RGB-SLS-FE&FT-ED&GR"] + acc["HS-VID-TL-FSS-ED"]) / 3
    assert rows[("task", "persp")].value == pytest.approx(expect)
    assert ("type=FE&FT", "acc") in rows and ("model=ED&GR", "acc") in rows
    shares = [rows[("all", m)].value for m in ("by_letter", "by_text", "by_extractor", "z")]
    assert sum(shares) == pytest.approx(100.0)
    assert rows[("all", "z")].value == pytest.approx(100 * (frame["letter"] == "Z").mean())
    assert {r.judge for r in rows.values()} == {"gpt-x"}
    assert {r.benchmark for r in rows.values()} == {"forensics"}


def test_judge_column_empty_when_rules_alone_decided() -> None:
    frame = _answers(np.random.default_rng(4), 200)
    frame = frame[frame["step"] != "extractor"]
    assert {r.judge for r in metric_rows(frame)} == {""}


def test_missing_column_is_an_error() -> None:
    with pytest.raises(ValueError, match="step"):
        metric_rows(pd.DataFrame({"model": [], "probe": [], "condition": []}))


def test_metrics_csv_rows_replace_only_forensics_rows_of_those_models(tmp_path: Path) -> None:
    from forgebench.results.metrics_csv import Scope, read_metrics, write_metrics
    from forgebench.suites.forensics.scores import write_forensics_metrics

    other = {"benchmark": "mandela", "model": "m1", "probe": "L0", "condition": "full",
             "subset": "all", "metric": "det", "value": 50.0, "n": 2, "judge": ""}  # fmt: skip
    write_metrics(tmp_path, [other], Scope.of("mandela"))
    frame = _answers(np.random.default_rng(5), 100)
    write_forensics_metrics(tmp_path, metric_rows(frame))
    write_forensics_metrics(tmp_path, metric_rows(frame))  # idempotent
    df = read_metrics(tmp_path / "metrics.csv")
    assert (df["benchmark"] == "mandela").sum() == 1
    fx = df[df["benchmark"] == "forensics"]
    assert len(fx) == len(metric_rows(frame))
    acc = fx[(fx["subset"] == "all") & (fx["metric"] == "acc")]["value"].iloc[0]
    assert acc == pytest.approx(100 * frame["correct"].mean())
