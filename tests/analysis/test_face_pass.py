"""FACE pass rate (Table 8): the wrong-name control does not decide whether a pair passes."""

from __future__ import annotations

from pathlib import Path

import pytest

from forgebench.models.base import Response
from forgebench.run.store import Store
from forgebench.run.tasks import Question, make_task
from forgebench.suites.mandela.contract import Item
from forgebench.suites.mandela.frame import load_frame
from forgebench.suites.mandela.metrics import compute_metrics

ERASE = {
    "id": "e1", "seed_id": "s1", "image": "e1.png", "label": "forged", "family": "K1",
    "k1_type": "absent_celebrity", "variant": "erase", "domain": "A1", "noun": "photograph",
    "saliency": "C1", "event": {"label": "Yalta Conference", "date": "1945-02-04"},
    "erased": {"name": "Joseph Stalin", "aliases": ["Stalin"]},
    "faces": {"original": [0, 0, 10, 10], "replacement": [0, 0, 10, 10],
              "original_image": "o.png", "wrong_name": "Leon Trotsky"},
}  # fmt: skip


def _face_pass(tmp_path: Path, answers: dict[tuple[str, str], str]) -> float:
    with Store.open(tmp_path / "RUN") as store:
        store.put_items("mandela", [Item.model_validate(ERASE)])
        for (cond, source), text in answers.items():
            name = "Leon Trotsky" if source == "wrong_name" else "Joseph Stalin"
            q = Question(
                "e1",
                "FACE",
                cond,
                f"Is this {name}?",
                "FACE/v1",
                None,
                {"face": cond.removeprefix("face_"), "name_source": source},
                "mandela",
            )
            task = make_task(q, "m", {})
            store.put_tasks([task])
            store.put_answer(task.key, Response(text=text), 1, 0.1, {})
        l0 = make_task(
            Question("e1", "L0", "full", "Is this real?", "L0/v3", benchmark="mandela"), "m", {}
        )
        store.put_tasks([l0])
        store.put_answer(l0.key, Response(text="REAL."), 1, 0.1, {})
    m = compute_metrics(load_frame(tmp_path / "RUN"), None)
    row = m[(m["metric"] == "face_pass") & (m["subset"] == "face_pass")]
    assert len(row) == 1 and int(row["n"].iloc[0]) == 1
    return float(row["value"].iloc[0])


def test_rejecting_the_wrong_name_does_not_fail_the_pair(tmp_path: Path) -> None:
    answers = {
        ("face_original", "erased"): "YES. This is Stalin.",
        ("face_original", "wrong_name"): "NO. This is not Trotsky.",
        ("face_replacement", "erased"): "NO. Not him.",
    }
    assert _face_pass(tmp_path, answers) == 100.0


def test_a_replacement_accepted_as_the_erased_person_fails(tmp_path: Path) -> None:
    answers = {
        ("face_original", "erased"): "YES.",
        ("face_original", "wrong_name"): "NO.",
        ("face_replacement", "erased"): "YES. That is Stalin.",
    }
    assert _face_pass(tmp_path, answers) == 0.0


def test_wrong_name_rates_and_baseline_corrected_pass(tmp_path: Path) -> None:
    # four faces: (correct-name answer, wrong-name answer, replacement answer)
    plan = {
        "e1": ("YES.", "NO.", "NO."),  # pass
        "e2": ("YES.", "YES.", "NO."),  # pass, but says yes to the wrong name too
        "e3": ("YES.", "NO.", "YES."),  # fails on the replacement
        "e4": ("NO.", "NO.", "NO."),  # fails on the original
    }
    with Store.open(tmp_path / "RUN") as store:
        store.put_items(
            "mandela", [Item.model_validate({**ERASE, "id": i, "seed_id": i}) for i in plan]
        )
        for item, (right, wrong, repl) in plan.items():
            for cond, source, text in (
                ("face_original", "erased", right),
                ("face_original", "wrong_name", wrong),
                ("face_replacement", "erased", repl),
            ):
                q = Question(item, "FACE", cond, f"{cond} {source}", "FACE/v1", None,
                             {"face": cond.removeprefix("face_"), "name_source": source},
                             "mandela")  # fmt: skip
                task = make_task(q, "m", {})
                store.put_tasks([task])
                store.put_answer(task.key, Response(text=text), 1, 0.1, {})
            l0 = make_task(
                Question(item, "L0", "full", "Is this real?", "L0/v3", benchmark="mandela"), "m", {}
            )
            store.put_tasks([l0])
            store.put_answer(l0.key, Response(text="REAL."), 1, 0.1, {})
    m = compute_metrics(load_frame(tmp_path / "RUN"), None)
    got = {r.metric: (r.value, r.n) for r in m[m["probe"] == "FACE"].itertuples()}
    assert got["face_pass"] == (50.0, 4)
    assert got["face_wrong_yes"] == (25.0, 4)  # e2
    assert got["face_right_yes"] == (75.0, 4)  # e1, e2, e3
    assert got["face_pass_corrected"][0] == pytest.approx(50.0 * (1 - 0.25))
