"""Forensics tables from metrics rows: Table 2, Tables 15-26 layout, Table 3."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from forgebench.report.table import Skipped, Table, to_markdown
from forgebench.suites.forensics.scores import metric_rows
from forgebench.suites.forensics.tables import (
    PAPER_CODE_TABLES,
    all_tables,
    per_type_tables,
    table2,
    table3,
)


def _metrics(conditions: list[str], models: tuple[str, ...] = ("good", "bad")) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    codes = ["HS-RGB-BC-ES-DF", "HS-NIR-BC-ES-GAN", "GS-VID-TL-FSS-ED", "GS-RGB-SLS-REAL-REAL"]
    frames = []
    for model, p in zip(models, (0.9, 0.3), strict=False):
        for cond in conditions:
            n = 400
            correct = rng.random(n) < p
            frames.append(pd.DataFrame({
                "model": model, "probe": "MCQ", "condition": cond, "item_id": np.arange(n).astype(str),
                "type_code": rng.choice(codes, n), "correct": correct,
                "letter": np.where(correct, "A", "B"), "step": "letter", "judge": "",
            }))  # fmt: skip
    return pd.DataFrame([asdict(r) for r in metric_rows(pd.concat(frames))])


def test_table2_rows_are_the_metrics_sorted_by_overall() -> None:
    m = _metrics(["full"])
    t = table2(m)
    assert isinstance(t, Table) and [c.label for c in t.columns][:2] == ["Model", "Overall"]
    assert [r[0].text for r in t.rows] == ["good", "bad"]
    overall = m[(m.model == "good") & (m.subset == "all") & (m.metric == "acc")]["value"].iloc[0]
    assert t.rows[0][1].raw == pytest.approx(overall)
    task = m[(m.model == "good") & (m.subset == "task") & (m.metric == "persp")]["value"].iloc[0]
    assert t.rows[0][4].raw == pytest.approx(task)
    assert "| good |" in to_markdown(t)


def test_per_type_tables_follow_the_paper_order() -> None:
    assert sum(len(t) for t in PAPER_CODE_TABLES) == 112
    tables = per_type_tables(_metrics(["full"]))
    assert [getattr(t, "number", None) for t in tables][:12] == list(range(15, 27))
    first = tables[0]
    assert isinstance(first, Table)
    assert [c.label for c in first.columns[1:3]] == ["HS-RGB-BC-ES-DF", "HS-NIR-BC-ES-GAN"]
    assert first.rows[0][1].text.endswith("%") and first.rows[0][3].text == "—"
    assert isinstance(tables[1], Skipped)  # none of part 2's codes were asked


def test_table3_mean_over_levels() -> None:
    conds = ["full", *(f"blur_{n}" for n in range(1, 6)), "noise_1"]
    m = _metrics(conds)
    t = table3(m)
    assert isinstance(t, Table)
    labels = [c.key for c in t.columns]
    assert labels[1:3] == ["Noise Mean", "Noise L1"]  # the paper's column order
    b = labels.index("Blur Mean")
    assert labels[b : b + 6] == ["Blur Mean", "Blur L1", "Blur L2", "Blur L3", "Blur L4", "Blur L5"]
    good = next(r for r in t.rows if r[0].text == "good")
    levels = [c.raw for c in good[b + 1 : b + 6]]
    assert good[b].raw == pytest.approx(sum(levels) / 5)  # type: ignore[arg-type]
    noise_mean = good[labels.index("Noise Mean")]
    assert noise_mean.text == "—"  # only level 1 was run
    assert isinstance(table3(_metrics(["full"])), Skipped)


def test_all_tables_skip_what_is_missing() -> None:
    out = all_tables(_metrics(["full"]))
    skipped = {t.number for t in out if isinstance(t, Skipped)}
    assert {3, 4, 13} <= skipped and 2 not in skipped


def test_figures_4_to_8(tmp_path: Path) -> None:
    from PIL import Image

    from forgebench.suites.forensics.figures import write_figures

    written = write_figures(_metrics(["full"]), tmp_path)
    names = sorted(p.name for p in written if p.suffix == ".png")
    assert names == [
        "forensics_fig4_semantic.png", "forensics_fig5_modality.png", "forensics_fig6_task.png",
        "forensics_fig7_type.png", "forensics_fig8_model.png",
    ]  # fmt: skip
    with Image.open(tmp_path / "forensics_fig6_task.png") as im:
        assert im.width > 500 and im.height > 300
    assert write_figures(_metrics(["blur_1"]), tmp_path / "none") == []


def test_report_section_files_and_html(tmp_path: Path) -> None:
    from forgebench.suites.forensics.report_section import write_report

    body, files, notes = write_report(_metrics(["full"]), tmp_path)
    names = {p.name for p in files}
    assert {"forensics_table_02.csv", "forensics_tables.md", "forensics_fig4_semantic.png"} <= names
    assert "<caption>Table 2." in body and "How the option letters were found" in body
    assert "<img src='figures/forensics_fig6_task.png'" in body
    assert any("table 3 skipped" in n for n in notes)
    assert "good" in (tmp_path / "forensics_tables.md").read_text()


def test_table12_baseline_on_the_same_items() -> None:
    from forgebench.suites.forensics.tables import table12

    m = _metrics(["full", "prefix"])
    t = table12(m)
    assert isinstance(t, Table)
    good = next(r for r in t.rows if r[0].text == "good")
    full = m[
        (m.model == "good") & (m.condition == "full") & (m.subset == "all") & (m.metric == "acc")
    ]
    pre = m[
        (m.model == "good") & (m.condition == "prefix") & (m.subset == "all") & (m.metric == "acc")
    ]
    assert good[1].raw == pytest.approx(float(full["value"].iloc[0]))  # prefix runs on every item
    assert good[2].raw == pytest.approx(float(pre["value"].iloc[0]))
    assert isinstance(table12(_metrics(["full"])), Skipped)


def test_tables_15_to_26_print_the_papers_cells_from_its_numbers() -> None:
    import csv as _csv

    fixture = Path(__file__).parent / "fixtures" / "seed002_per_type.tsv"
    with fixture.open(newline="") as fh:
        paper = list(_csv.DictReader(fh, delimiter="\t"))
    m = pd.DataFrame(
        [
            {"benchmark": "forensics", "model": r["model"], "probe": "MCQ", "condition": "full",
             "subset": r["type_code"], "metric": "acc", "value": float(r["acc"]), "n": 1, "judge": ""}
            for r in paper
        ]
        + [
            {"benchmark": "forensics", "model": x, "probe": "MCQ", "condition": "full",
             "subset": "all", "metric": "acc", "value": 0.0, "n": 1, "judge": ""}
            for x in {r["model"] for r in paper}
        ]
    )  # fmt: skip
    tables = per_type_tables(m)
    assert [t.number for t in tables] == list(range(15, 27))
    printed = {
        (row[0].text, col.label): cell.text
        for t in tables
        if isinstance(t, Table)
        for row in t.rows
        for col, cell in zip(t.columns[1:], row[1:], strict=True)
    }
    assert len(printed) == 25 * 112
    for r in paper:
        assert printed[(r["model"], r["type_code"])] == f"{r['acc']}%"
