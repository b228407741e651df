"""The optional audit fields of an item (footprints, detector scores, face similarity): the
contract validates them, the frame carries them, and Table 15's "no border" columns use them."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from pydantic import ValidationError

from forgebench.suites.mandela.contract import Item
from forgebench.suites.mandela.frame import load_frame
from forgebench.suites.mandela.metrics import compute_metrics
from forgebench.suites.mandela.tables.inputs import Metrics, TableData, prepare
from forgebench.suites.mandela.tables.main import table_e4
from support import hand_run as HR

ARC = "insightface/buffalo_l"


def test_contract_accepts_and_validates_the_audit_fields() -> None:
    it = Item.model_validate(
        HR.make_item(
            "F1", family="K1", footprint=0.048, footprint_measured=0.03, npr_score=0.61,
            ufd_score=-1.2, face_similarity={"value": 0.38, "threshold": 0.35, "model": ARC},
        )
    )  # fmt: skip
    assert it.footprint == 0.048 and it.face_similarity is not None
    assert it.face_similarity.borderline  # |0.38 - 0.35| <= 0.05
    far = {"value": 0.62, "threshold": 0.35, "model": ARC}
    assert not Item.model_validate(
        HR.make_item("F2", face_similarity=far)
    ).face_similarity.borderline  # type: ignore[union-attr]
    edge = {"value": 0.30, "threshold": 0.35, "model": ARC}  # 0.05 in floating point: inclusive
    assert Item.model_validate(HR.make_item("F3", face_similarity=edge)).face_similarity.borderline  # type: ignore[union-attr]
    bad = [
        {"footprint": 1.5},
        {"footprint_measured": -0.1},
        {"npr_score": math.nan},
        {"ufd_score": "high"},
        {"face_similarity": {"value": 0.4, "model": ARC}},  # no threshold
        {"face_similarity": {"value": 0.4, "threshold": 0.35, "model": ""}},
        {"face_similarity": 0.4},
    ]
    for fields in bad:
        with pytest.raises(ValidationError):
            Item.model_validate(HR.make_item("X", **fields))


def test_frame_carries_them_and_table_15_drops_borderline_items(tmp_path: Path) -> None:
    mi = HR.make_item
    sims = {"P1": 0.36, "P2": 0.80, "P3": 0.31, "P4": None}  # P1, P3 borderline
    items = [
        mi(i, family="K1", saliency="C1", footprint=0.01 * (k + 1),
           **({"face_similarity": {"value": v, "threshold": 0.35, "model": ARC}} if v else {}))
        for k, (i, v) in enumerate(sims.items())
    ]  # fmt: skip
    answers = {"P1": "FAKE.", "P2": "FAKE.", "P3": "REAL.", "P4": "FAKE."}
    levels = {"P1": 3, "P2": 4, "P3": 0, "P4": 3}
    rows = [("m", i, p, "full", a) for i, a in answers.items() for p in ("L0", "L1")]
    grades = [("m", i, p, "full", lv, "graded") for i, lv in levels.items() for p in ("L0", "L1")]
    HR.build_run(tmp_path / "run", items, rows, grades)
    frame = load_frame(tmp_path / "run", "hand")
    l1 = frame[frame["probe"] == "L1"].set_index("item_id")
    assert l1.loc["P2", "footprint"] == pytest.approx(0.02)
    assert [l1.loc[i, "face_sim_border"] for i in sims] == [True, False, True, None]
    met = compute_metrics(frame, "hand")
    table = table_e4(prepare(TableData(metrics=Metrics(met, "hand"), groups={}, frame=frame)))
    cells = {
        c.label: cell
        for c, cell in zip(table.columns, table.rows[0], strict=True)
        if c.group == "K1 Det (L1)"
    }
    assert cells["all"].raw == 75.0  # P1, P2, P4 of four
    assert cells["no border"].raw == 100.0  # P2 and P4 (no similarity: kept), both detected
    kgr = [
        cell
        for c, cell in zip(table.columns, table.rows[0], strict=True)
        if c.group == "K1 KGR (L1)"
    ]
    assert [k.raw for k in kgr] == [75.0, 100.0]
    assert not table.notes
