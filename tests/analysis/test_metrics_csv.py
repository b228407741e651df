"""metrics.csv on a hand-built run: every expected number is worked out below."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from forgebench.suites.mandela.frame import load_frame
from forgebench.suites.mandela.metrics import COLUMNS, compute_metrics, write_metrics
from support import hand_run as HR

ORWELL = {"name": "George Orwell", "aliases": ["Orwell"], "role": "photographer at the left edge"}


@pytest.fixture
def run(tmp_path: Path) -> Path:
    mi = HR.make_item
    items = [
        mi("F1", seed_id="s1", family="K1", saliency="C2", domain="A1", entity=ORWELL),
        mi("F2", seed_id="s2", family="K1", saliency="C3", domain="A1", entity=ORWELL),
        mi("F3", seed_id="s3", family="K2", saliency="C1", domain="A2"),
        mi("F4", seed_id="s3", family="K0", control_for="K2", saliency="C1", domain="A2"),
        mi("E1", seed_id="s4", family="K1", k1_type="absent_celebrity", variant="erase", saliency="C1",
           domain="A5", erased={"name": "Joseph Stalin", "aliases": ["Stalin"]}),
        mi("E2", seed_id="s5", family="K1", k1_type="absent_celebrity", variant="erase", saliency="C1",
           domain="A5", erased={"name": "Buzz Aldrin"}),
        mi("S1", seed_id="s4", family="K1", k1_type="date_impossible", variant="swap", saliency="C1",
           domain="A5", entity=ORWELL),
        mi("K01", seed_id="s4", family="K0", control_for="K1", variant="k0", saliency="C1", domain="A5"),
        mi("R1", seed_id="s1", label="authentic", domain="A1"),
        mi("R2", seed_id="s2", label="authentic", domain="A1"),
        mi("R3", seed_id="s3", label="authentic", domain="A2"),
    ]  # fmt: skip
    m = "m1"
    rows = [
        # L0 full
        (m, "F1", "L0", "full", "FAKE. Orwell (died 1950) stands at the left."),
        (m, "F2", "L0", "full", "REAL. Looks fine."),
        (m, "F3", "L0", "full", "**FAKE** - a smartphone."),
        (m, "F4", "L0", "full", "FAKE. Artefacts."),
        (m, "E1", "L0", "full", "REAL. This is Stalin at Yalta."),
        (m, "E2", "L0", "full", "FAKE. The astronaut is not Buzz Aldrin."),
        (m, "S1", "L0", "full", "FAKE. Someone was added."),
        (m, "K01", "L0", "full", ("error", "HTTP 500")),
        (m, "R1", "L0", "full", "REAL"),
        (m, "R2", "L0", "full", "FAKE"),
        (m, "R3", "L0", "full", "The image is real."),
        # L1 full
        *[(m, i, "L1", "full", "FAKE.") for i in ("F1", "F2", "F3", "F4", "E1", "E2", "S1")],
        (m, "K01", "L1", "full", "REAL."),
        (m, "R1", "L1", "full", "REAL."),
        (m, "R2", "L1", "full", "FAKE."),
        (m, "R3", "L1", "full", "FAKE."),
        # L1 de-recognition conditions on peripheral_K1 (F1, F2 and their originals R1, R2)
        (m, "F1", "L1", "full_caption", "FAKE"),
        (m, "F2", "L1", "full_caption", "REAL"),
        (m, "R1", "L1", "full_caption", "REAL"),
        (m, "R2", "L1", "full_caption", "FAKE"),
        (m, "F1", "L1", "crop_caption", "FAKE"),
        (m, "F2", "L1", "crop_caption", "FAKE"),
        (m, "R1", "L1", "crop_caption", "REAL"),
        (m, "R2", "L1", "crop_caption", "REAL"),
        # L-adv on authentic
        (m, "R1", "L-adv", "full", "REAL. It is not AI-generated."),
        (m, "R2", "L-adv", "full", "FAKE."),
        # L2, FACE, TEXT, RECOG, EVENT
        (m, "E1", "L2", "full", "Joseph Stalin sits on the right, next to Churchill."),
        (m, "E2", "L2", "full", "I cannot identify the astronaut."),
        (m, "E1", "FACE", "face_original", "Yes, this is Joseph Stalin."),
        (m, "E1", "FACE", "face_replacement", "No."),
        (m, "E2", "FACE", "face_original", "No, this is not him."),
        (m, "E2", "FACE", "face_replacement", "No."),
        (m, "S1", "TEXT", "none", "NO. Orwell died in 1950."),
        (m, "F1", "TEXT", "none", "YES. He could have been."),
        (m, "F1", "RECOG", "full", "Yes, the 1986 World Cup final."),
        (m, "F2", "RECOG", "full", "NOT RECOGNISED"),
        (m, "R1", "RECOG", "full", "NOT RECOGNISED."),
        (m, "F1", "EVENT", "none", "KNOWN\nArgentina won."),
        # a second model, no grades
        ("m2", "F1", "L0", "full", "FAKE"),
        ("m2", "R1", "L0", "full", "REAL"),
    ]
    grades = [
        (m, "F1", "L0", "full", 4, "graded"),
        (m, "F2", "L0", "full", 0, "auto"),
        (m, "F3", "L0", "full", 3, "graded"),
        (m, "F4", "L0", "full", 1, "graded"),
        (m, "E1", "L0", "full", 0, "auto"),
        (m, "E2", "L0", "full", 3, "graded"),
        (m, "S1", "L0", "full", None, "unscored"),
        (m, "F1", "L1", "full", 4, "graded"),
        (m, "F2", "L1", "full", 3, "graded"),
        (m, "F3", "L1", "full", 4, "graded"),
        (m, "F4", "L1", "full", 1, "graded"),
        (m, "E1", "L1", "full", 3, "graded"),
        (m, "E2", "L1", "full", 3, "graded"),
        (m, "S1", "L1", "full", 3, "graded"),
        (m, "K01", "L1", "full", 0, "auto"),
    ]
    HR.build_run(tmp_path / "run", items, rows, grades)
    return tmp_path / "run"


def _table(run_dir: Path) -> dict[tuple[str, str, str, str, str], tuple[float, int, str]]:
    path = write_metrics(run_dir)
    with path.open() as fh:
        reader = csv.DictReader(fh)
        assert reader.fieldnames == COLUMNS
        return {
            (r["model"], r["probe"], r["condition"], r["subset"], r["metric"]): (
                float(r["value"]),
                int(r["n"]),
                r["judge"],
            )
            for r in reader
            if r["benchmark"] == "mandela"
        }


EXPECTED = {
    # L0 full, all 8 forged / 3 authentic. FAKE on F1 F3 F4 E2 S1 = 5/8; K01 errored (a miss).
    ("m1", "L0", "full", "all", "det"): (62.5, 8),
    ("m1", "L0", "full", "all", "auth"): (100 / 3, 3),  # R1 only; R3 "The image is real." is a miss
    ("m1", "L0", "full", "all", "bal"): ((62.5 + 100 / 3) / 2, 11),
    ("m1", "L0", "full", "all", "miss"): (100 * 2 / 11, 11),  # K01 (error), R3 (first word)
    ("m1", "L0", "full", "all", "det_parsed"): (100 * 5 / 7, 7),
    ("m1", "L0", "full", "all", "auth_parsed"): (50.0, 2),
    ("m1", "L0", "full", "all", "bal_parsed"): ((100 * 5 / 7 + 50) / 2, 9),
    ("m1", "L0", "full", "all", "kgr"): (37.5, 8),  # F1 E4, F3 E3, E2 E3 over all 8 forged
    ("m1", "L0", "full", "all", "e4"): (12.5, 8),
    ("m1", "L0", "full", "all", "unscored"): (1.0, 8),  # S1 (a count; n = forged items)
    ("m1", "L0", "full", "K1", "det"): (60.0, 5),  # F1 F2 E1 E2 S1 -> F1 E2 S1
    ("m1", "L0", "full", "K1", "kgr"): (40.0, 5),
    ("m1", "L0", "full", "K2", "kgr"): (100.0, 1),
    ("m1", "L0", "full", "K0", "det"): (50.0, 2),  # F4 FAKE, K01 miss
    ("m1", "L0", "full", "K0", "kgr"): (0.0, 2),
    ("m1", "L0", "full", "K0", "miss"): (50.0, 2),
    ("m1", "L0", "full", "A1", "bal"): (50.0, 4),  # F1 det, F2 not; R1 right, R2 wrong
    ("m1", "L0", "full", "A2", "det"): (100.0, 2),
    ("m1", "L0", "full", "A2", "auth"): (0.0, 1),
    ("m1", "L0", "full", "A5", "det"): (50.0, 4),
    ("m1", "L0", "full", "C1", "det"): (100 * 4 / 6, 6),
    ("m1", "L0", "full", "C2", "det"): (100.0, 1),
    ("m1", "L0", "full", "C3", "det"): (0.0, 1),
    ("m1", "L0", "full", "erase", "det"): (50.0, 2),
    ("m1", "L0", "full", "swap", "det"): (100.0, 1),
    ("m1", "L0", "full", "triple_k0", "det"): (0.0, 1),
    ("m1", "L0", "full", "erase", "named"): (100.0, 2),  # "Stalin" (E1), "Buzz Aldrin" (E2)
    ("m1", "L0", "full", "erase", "named_real"): (50.0, 2),  # E1 names him and says REAL
    ("m1", "L0", "full", "erase", "erase_swap_ratio"): (0.5, 2),
    ("m1", "L0", "full", "peripheral", "det"): (50.0, 2),
    ("m1", "L0", "full", "peripheral", "auth"): (100 / 3, 3),  # Table 19: all authentic
    ("m1", "L0", "full", "peripheral_K1", "bal"): (50.0, 4),  # F1 F2 + originals R1 R2
    # L1 full: FAKE on all 7 but K01; E3+ on F1 F2 F3 E1 E2 S1
    ("m1", "L1", "full", "all", "kgr"): (75.0, 8),
    ("m1", "L1", "full", "all", "gap"): (37.5, 8),
    ("m1", "L1", "full", "peripheral_K1", "bal"): (75.0, 4),  # det 2/2, auth R1 only
    ("m1", "L1", "full_caption", "peripheral_K1", "det"): (50.0, 2),
    ("m1", "L1", "full_caption", "peripheral_K1", "cap"): (-50.0, 2),
    ("m1", "L1", "crop_caption", "peripheral_K1", "bal"): (100.0, 4),
    ("m1", "L1", "crop_caption", "peripheral_K1", "pen"): (25.0, 4),
    ("m1", "L-adv", "full", "all", "auth"): (50.0, 2),
    ("m1", "L2", "full", "erase", "l2_names"): (50.0, 2),
    ("m1", "L2", "full", "erase", "l2_cannot"): (50.0, 2),
    ("m1", "L0", "full", "l2_named", "det"): (0.0, 1),  # E1 said REAL under L0
    ("m1", "L0", "full", "l2_cannot", "det"): (100.0, 1),  # E2 said FAKE
    ("m1", "FACE", "face_replacement", "face_pass", "face_pass"): (50.0, 2),  # E1 passes
    ("m1", "L0", "full", "face_pass", "real"): (100.0, 1),
    ("m1", "L0", "full", "face_pass", "named"): (100.0, 1),
    ("m1", "TEXT", "none", "named_insertion", "text_knows"): (50.0, 2),
    ("m1", "RECOG", "full", "forged", "recog"): (50.0, 2),  # F1 yes, F2 no
    ("m1", "RECOG", "full", "authentic", "recog"): (0.0, 1),  # R1 no
    ("m1", "RECOG", "full", "peripheral", "recog"): (50.0, 2),
    ("m1", "EVENT", "none", "all", "known"): (100.0, 1),
    ("m2", "L0", "full", "all", "det"): (100.0, 1),
    ("m2", "L0", "full", "all", "bal"): (100.0, 2),
}


def test_every_worked_number(run: Path) -> None:
    table = _table(run)
    for key, (value, n) in EXPECTED.items():
        assert key in table, f"missing {key}"
        got_v, got_n, _ = table[key]
        assert got_v == pytest.approx(value), key
        assert got_n == n, key


def test_judge_column_only_on_graded_numbers(run: Path) -> None:
    table = _table(run)
    assert table[("m1", "L0", "full", "all", "kgr")][2] == "hand"
    assert table[("m1", "L1", "full", "all", "gap")][2] == "hand"
    assert table[("m1", "L0", "full", "all", "det")][2] == ""
    # no grades -> no graded numbers: m2 has none, nor L1 under full_caption
    assert not any(k[0] == "m2" and k[4] in ("kgr", "e4") for k in table)
    assert ("m1", "L1", "full_caption", "peripheral_K1", "kgr") not in table
    assert ("m1", "L-adv", "full", "all", "det") not in table


def test_second_judge_changes_graded_metrics_only(run: Path) -> None:
    from forgebench.run.store import Store
    from forgebench.suites.mandela.judge import grade

    first = _table(run)
    with Store.open(run, create=False) as store:
        rows = store.connection.execute(
            "SELECT task_key, level, status FROM grades WHERE judge='hand'"
        ).fetchall()
        store.put_judgements(
            grade(k, "strict", 0 if lvl is not None else None, s, None, "strict")
            for k, lvl, s in rows
        )
    with pytest.raises(ValueError, match="several judges"):
        write_metrics(run)
    second = {k: v for k, v in _table_for(run, "strict").items()}
    for key, (value, n, judge) in first.items():
        if judge:
            assert second[key][2] == "strict"
        else:
            assert second[key] == (value, n, judge), key
    assert second[("m1", "L0", "full", "all", "kgr")][0] == 0.0


def _table_for(
    run_dir: Path, judge: str
) -> dict[tuple[str, str, str, str, str], tuple[float, int, str]]:
    frame = load_frame(run_dir, judge)
    out = compute_metrics(frame, judge)
    return {
        (r.model, r.probe, r.condition, r.subset, r.metric): (float(r.value), int(r.n), r.judge)
        for r in out.itertuples(index=False)
    }


def test_frame_columns_and_strict_rows(run: Path) -> None:
    frame = load_frame(run)
    for col in ("task_key", "model", "item_id", "probe", "condition", "text", "finish_reason", "verdict",
                "correct", "level", "grade_status", "judge", "names_erased", "names_principal",
                "input_tokens", "output_tokens", "latency_s", "seed_id", "label", "family",
                "analysis_family", "control_for", "k1_type", "variant", "domain", "saliency",
                "peripheral", "peripheral_k1", "named_insertion"):  # fmt: skip
        assert col in frame.columns, col
    k01 = frame[(frame.item_id == "K01") & (frame.probe == "L0")].iloc[0]
    assert (k01.verdict, k01.status, k01.miss_why) == ("MISS", "error", "error")
    assert frame.loc[frame.item_id == "K01", "analysis_family"].iloc[0] == "K1"
    r1 = frame[(frame.item_id == "R1") & (frame.probe == "L0") & (frame.model == "m1")].iloc[0]
    assert bool(r1.correct) and not r1.peripheral and bool(r1.seed_peripheral_k1)
    assert frame[frame.probe == "TEXT"].correct.isna().all()
