"""metrics.csv rows and the Table 2-5 layouts; the score_arrays / score_folder APIs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from forgebench.report.table import to_markdown
from forgebench.suites.pixar import (
    classification_table,
    localization_table,
    pixar_metrics_rows,
    score_arrays,
    tables_from_rows,
    write_tables,
)
from forgebench.suites.pixar.tamper_class import ImageClassAccumulator


def _results() -> dict:
    t = np.zeros((300, 300), bool)
    t[:200, :200] = True  # 40,000 px: medium
    s = np.where(t, 0.8, 0.1).astype(np.float32)
    s[:100, :200] = 0.3  # half of the truth missed
    res = score_arrays([("m", t, s), ("e", np.zeros((8, 8), bool), None)])
    res.update(top1=36.2, top5=77.0, n_semantic=1, css=0.75, n_css=1)
    return res


def test_score_arrays_percentages_and_missing() -> None:
    res = _results()
    assert res["missing"] == ["e"] and res["n_images"] == 2
    assert res["giou"] == pytest.approx((50.0 + 100.0) / 2)
    assert res["recall"] == pytest.approx(50.0) and res["precision"] == pytest.approx(100.0)
    assert res["by_size"]["medium"]["ciou"] == pytest.approx(50.0)
    assert "auc" in res  # the missing prediction became a zero score map


def test_metrics_rows_long_format() -> None:
    rows = pixar_metrics_rows(_results(), "builtin/artefact")
    assert {r["benchmark"] for r in rows} == {"pixar"}
    assert {r["probe"] for r in rows} == {"LOC"} and {r["condition"] for r in rows} == {"full"}
    assert {r["subset"] for r in rows} == {"all", "small", "medium"}  # no large images: no rows
    by = {(r["subset"], r["metric"]): r for r in rows}
    assert by[("all", "giou")]["value"] == pytest.approx(75.0) and by[("all", "giou")]["n"] == 2
    assert by[("medium", "recall")]["n"] == 1
    assert by[("all", "css")]["value"] == 0.75 and by[("all", "top5")]["value"] == 77.0
    assert all(r["judge"] == "" for r in rows)
    assert list(rows[0]) == ["benchmark", "model", "probe", "condition", "subset", "metric",
                             "value", "n", "judge"]  # fmt: skip


def test_tables_layouts_markdown_and_csv(tmp_path: Path) -> None:
    rows = pixar_metrics_rows(_results(), "A") + pixar_metrics_rows(
        {"giou": 16.1, "ciou": 18.1, "recall": 29.8, "f1": 30.6, "n_images": 3}, "B"
    )
    tables = tables_from_rows(rows)
    t2 = tables["pixar_table2"]
    assert [c.label for c in t2.columns] == ["Methods", "Top-1 Acc", "Top-5 Acc", "Recall", "F1-Score", "AUC",
                         "g-IoU", "IoU"]  # fmt: skip
    md = to_markdown(t2)
    assert "| B | — | — | 29.8 | 30.6 | — | 16.1 | 18.1 |" in md
    assert [c.label for c in tables["pixar_table3"].columns][1:] == [
        "Recall",
        "F1-Score",
        "AUC",
        "g-IoU",
        "IoU",
    ]
    t5 = localization_table({"Flux.2": {"top1": 37.1}}, "table5")
    assert t5.columns[0].label == "Source" and t5.rows[0][1].raw == 37.1
    written = write_tables(tables, tmp_path / "report")
    assert {p.name for p in written} >= {"pixar_table2.md", "pixar_table2.csv"}
    csv_text = (tmp_path / "report" / "pixar_table2.csv").read_text()
    assert csv_text.splitlines()[0].startswith("group,Methods,Top-1 Acc")  # report.table CSV
    with pytest.raises(ValueError, match="layout"):
        localization_table({}, "table9")


def test_table4_layout_from_confusion() -> None:
    acc = ImageClassAccumulator()
    for t, p in [("real", "real"), ("tampered", "tampered"), ("full_synthetic", "real")]:
        acc.add(t, p)
    t4 = classification_table({"X": acc.result()})
    assert [c.label for c in t4.columns][1:4] == [
        "Precision Real",
        "Precision Fake",
        "Precision Overall",
    ]
    # real: P 1/2, fake: P 1/1 -> overall 75
    assert [c.raw for c in t4.rows[0][1:4]] == [
        pytest.approx(50.0),
        pytest.approx(100.0),
        pytest.approx(75.0),
    ]
