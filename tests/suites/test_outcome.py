"""``Suite.outcome``: right or wrong per answer, keyed by task, on a real run of each benchmark
(the rows a paired comparison of two runs reads), checked against what the store holds and
against the accuracy ``metrics`` wrote."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from forgebench import api
from forgebench.run.generate import GenerationSettings
from forgebench.run.store import Store
from forgebench.suites import get
from support.interop_runs import ask_artefact_l0, forensics_run
from support.mandela_data import write_mandela_dataset
from support.pixar_loc import box_pairs, exact_or_prose, serve_loc


def test_mandela_an_answer_is_right_when_its_verdict_is_the_items_label(tmp_path: Path) -> None:
    run = tmp_path / "run"
    ask_artefact_l0(write_mandela_dataset(tmp_path / "ds", seeds=1), run, tmp_path / "cache")
    rows = get("mandela").outcome(run, None)  # the verdicts parsed first, as metrics does
    with Store.open(run, create=False) as store:
        items = store.items("mandela")
        verdicts = {r.key: r.verdict for r in store.records("mandela")}
    assert len(rows) == len(verdicts) == 2 and {r.probe for r in rows} == {"L0"}
    for r in rows:
        label = items[r.item_id]["label"]
        assert r.right == (
            (verdicts[r.task_key], label) in {("FAKE", "forged"), ("REAL", "authentic")}
        )
    assert {r.right for r in rows} == {True, False}  # builtin/artefact is right only on some


def test_forensics_an_answer_is_right_when_its_letter_is_the_answer(tmp_path: Path) -> None:
    _ds, run = forensics_run(tmp_path)
    rows = get("forensics").outcome(run, None)
    # rows 0 and 1 name the right option (a letter, the option's text); 2 refuses, 3 hedges
    assert {r.item_id: r.right for r in rows} == {"0": True, "1": True, "2": False, "3": False}
    acc = [line.split(",") for line in (run / "metrics.csv").read_text().splitlines()]
    [value] = [
        float(c[6]) for c in acc if c[:6] == ["forensics", "vlm", "MCQ", "full", "all", "acc"]
    ]
    assert value == 100.0 * sum(r.right for r in rows) / len(rows)


def test_pixar_an_answer_is_right_with_iou_of_one_half(
    tmp_path: Path, fake_openai: Callable[..., Any]
) -> None:
    pairs, run = tmp_path / "pairs", tmp_path / "run"
    server = serve_loc(fake_openai, box_pairs(pairs), exact_or_prose)
    models = [f"exact=openai/exact@{server.url}", f"mixed=openai/mixed@{server.url}"]
    api.run(pairs, run, models, GenerationSettings(cache_dir=tmp_path / "cache"))
    before = get("pixar").outcome(run, None)
    assert before and not any(r.right for r in before)  # not read by metrics yet: wrong
    api.metrics(run)
    rows = get("pixar").outcome(run, None)
    assert {(r.model, r.item_id) for r in rows} == {(r.model, r.item_id) for r in before}
    # an exact box is right; model mixed answers pair b with prose: no region, wrong
    assert {(r.model, r.item_id) for r in rows if not r.right} == {("mixed", "b")}
    with Store.open(run, create=False) as store:
        keys = {r.key for r in store.records("pixar")}
    assert {r.task_key for r in rows} == keys
