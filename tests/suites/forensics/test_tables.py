"""Forensics tables from metrics rows: Table 2, Tables 15-26 layout, Table 3."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from forgebench.report.table import Skipped, Table, to_markdown
from forgebench.suites.forensics.paper_codes import PAPER_CODE_TABLES
from forgebench.suites.forensics.scores import metric_rows
from forgebench.suites.forensics.tables import (
    all_tables,
    extraction_table,
    per_type_tables,
    table2,
    table3,
    table3_levels,
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
    assert [r[0].text for r in t.rows] == ["good", "bad", "Average"]
    overall = m[(m.model == "good") & (m.subset == "all") & (m.metric == "acc")]["value"].iloc[0]
    assert t.rows[0][1].raw == pytest.approx(overall)
    task = m[(m.model == "good") & (m.subset == "task") & (m.metric == "persp")]["value"].iloc[0]
    assert t.rows[0][4].raw == pytest.approx(task)
    assert "| good |" in to_markdown(t)
    # the block's average row is the mean of its models; the best model's cells are bold
    assert t.rows[2][1].raw == pytest.approx((t.rows[0][1].raw + t.rows[1][1].raw) / 2)
    assert t.rows[0][1].bold and not t.rows[1][1].bold and not t.rows[2][1].bold


def test_table2_blocks_follow_the_models_file_groups() -> None:
    m = _metrics(["full"], models=("good", "bad"))
    t = table2(m, {"bad": "proprietary", "good": "open"})
    assert isinstance(t, Table)
    assert [h for h, _ in t.sections] == [
        "Proprietary Large Vision Language Models",
        "Open-sourced Large Vision Language Models",
    ]
    assert [[r[0].text for r in rows] for _, rows in t.sections] == [["bad"], ["good"]]
    # one model per block: no average row; the best cell of a column is bold across blocks
    assert t.sections[1][1][0][1].bold and not t.sections[0][1][0][1].bold
    html = __import__("forgebench.report.table", fromlist=["to_html"]).to_html(t)
    assert '<tr class="section"><th colspan="7">Proprietary' in html and "<b>" in html


def test_per_type_tables_follow_the_paper_order() -> None:
    assert sum(len(t) for t in PAPER_CODE_TABLES) == 112
    tables = per_type_tables(_metrics(["full"]))
    assert [getattr(t, "number", None) for t in tables][:12] == list(range(15, 27))
    first = tables[0]
    assert isinstance(first, Table)
    assert [c.label for c in first.columns[1:3]] == ["HS-RGB-BC-ES-DF", "HS-NIR-BC-ES-GAN"]
    assert first.rows[0][1].text.endswith("%") and first.rows[0][3].text == "—"
    assert isinstance(tables[1], Skipped)  # none of part 2's codes were asked


def test_table3_as_printed_and_per_level() -> None:
    conds = ["full", *(f"blur_{n}" for n in range(1, 6)), "noise_1"]
    m = _metrics(conds)
    t = table3(m)
    assert isinstance(t, Table)
    # as the paper prints it: one mean per kind, in its column order, the clean column first
    assert [c.key for c in t.columns] == ["Model", "Clean", "Noise", "Blur"]
    levels_t = table3_levels(m)
    assert isinstance(levels_t, Table) and "addition" in levels_t.caption
    labels = [c.key for c in levels_t.columns]
    b = labels.index("Blur L0")
    assert labels[b : b + 6] == ["Blur L0", "Blur L1", "Blur L2", "Blur L3", "Blur L4", "Blur L5"]
    good_levels = next(r for r in levels_t.rows if r[0].text == "good")
    good = next(r for r in t.rows if r[0].text == "good")
    clean = m[
        (m.model == "good") & (m.condition == "full") & (m.subset == "all") & (m.metric == "acc")
    ]
    assert good[1].raw == pytest.approx(float(clean["value"].iloc[0]))
    assert good_levels[b].raw == good[1].raw  # level 0 is the clean accuracy
    levels = [c.raw for c in good_levels[b + 1 : b + 6]]
    assert good[3].raw == pytest.approx(sum(levels) / 5)  # type: ignore[arg-type]
    assert good[2].text == "—"  # noise: only level 1 was run
    assert isinstance(table3(_metrics(["full"])), Skipped)
    assert isinstance(table3_levels(_metrics(["full"])), Skipped)


def test_codes_outside_the_paper_are_other_types_not_a_paper_table() -> None:
    m = _metrics(["full"])
    extra = m[m["subset"] == "HS-RGB-BC-ES-DF"].assign(subset="XX-RGB-BC-ES-DF")
    tables = per_type_tables(pd.concat([m, extra]))
    other = [t for t in tables if isinstance(t, Table) and t.slug]
    assert [t.title for t in other] == ["Other type codes (part 1)"]
    assert [c.label for c in other[0].columns] == ["Model", "GS-VID-TL-FSS-ED", "XX-RGB-BC-ES-DF"]
    assert all(getattr(t, "number", 0) <= 26 for t in tables)


def test_extraction_table_shares_per_model() -> None:
    m = _metrics(["full"])
    t = extraction_table(m)
    assert isinstance(t, Table) and t.name == "forensics_extraction"
    good = next(r for r in t.rows if r[0].text == "good")
    shares = [c.raw for c in good[3:-1]]
    assert sum(float(v) for v in shares if v is not None) == pytest.approx(100.0)


def test_all_tables_skip_what_is_missing() -> None:
    out = all_tables(_metrics(["full"]))
    skipped = {t.number for t in out if isinstance(t, Skipped)}
    assert {3, 4, 13} <= skipped and 2 not in skipped


def test_figures_4_to_8(tmp_path: Path) -> None:
    from PIL import Image

    from forgebench.suites.forensics.figures import write_figures

    m = _metrics(["full", *(f"blur_{n}" for n in range(1, 6))])
    written = write_figures(m, tmp_path)
    names = sorted(p.name for p in written if p.suffix == ".png")
    assert names == [
        "forensics_fig2_overview.png", "forensics_fig4_semantic.png",
        "forensics_fig5_modality.png", "forensics_fig6_task.png", "forensics_fig7_type.png",
        "forensics_fig8_model.png", "forensics_robustness_levels.png",
        "forensics_type_heatmap.png",
    ]  # fmt: skip
    with Image.open(tmp_path / "forensics_fig6_task.png") as im:
        assert im.width > 500 and im.height > 300
    # every figure comes with the numbers it plots, equal to metrics.csv's
    task = pd.read_csv(tmp_path / "forensics_fig6_task.csv")
    assert set(task["model"]) == {"good", "bad"}
    want = m[(m.model == "good") & (m.condition == "full") & (m.subset == "task=BC")]
    got = task[(task["model"] == "good") & (task["perspective_value"] == "BC")]
    assert float(got["acc"].iloc[0]) == pytest.approx(float(want["value"].iloc[0]))
    curves = pd.read_csv(tmp_path / "forensics_robustness_levels.csv")
    assert sorted(set(curves["level"])) == [0, 1, 2, 3, 4, 5]
    heat = pd.read_csv(tmp_path / "forensics_type_heatmap.csv")
    assert len(heat) == 2 * 4  # two models x the four codes asked
    assert write_figures(_metrics(["prefix"]), tmp_path / "none") == []


def test_perspective_figure_puts_every_model_in_one_chart() -> None:
    from forgebench.suites.forensics.figures import perspective_figure

    made = perspective_figure(_metrics(["full"], models=("good", "bad")), "task")
    assert made is not None
    fig, _ = made
    (ax,) = [a for a in fig.axes if a.get_visible()]
    assert len(ax.containers) == 2  # one bar series per model, side by side
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["good", "bad"]


def test_report_section_files_and_html(tmp_path: Path) -> None:
    from forgebench.suites.forensics.report_section import write_report

    body, files, notes = write_report(_metrics(["full"]), tmp_path)
    names = {p.name for p in files}
    assert {
        "forensics_table_02.csv", "forensics_table_02.md", "forensics_table_02.tex",
        "forensics_extraction.csv", "forensics_tables.md", "forensics_fig4_semantic.png",
        "forensics_fig4_semantic.csv",
    } <= names  # fmt: skip
    assert "<caption>Table 2." in body and "How the option letters were found" in body
    assert "<img src='figures/forensics_fig6_task.png'" in body
    assert (
        "href='forensics_table_02.tex'" in body and "href='figures/forensics_fig6_task.csv'" in body
    )
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
