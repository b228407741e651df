"""Repeats (``run --epochs N``, issue 41 item 1): epoch-1 keys are a one-epoch run's keys, a
resumed run asks only the new epoch, the spread and agreement rows are the numbers worked out
by hand, ``--epochs 0`` is refused with one line and nothing written.

Material: PIXAR's three planted-box pairs (``support/pixar_loc.py``) asked to a replay model
whose file answers by task key, so each epoch can answer differently."""

from __future__ import annotations

import csv
import json
import sqlite3
import statistics
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forgebench import api
from forgebench.cli import app
from forgebench.run.generate import GenerationSettings
from forgebench.run.store import Store
from support.pixar_loc import BOXES, box_pairs, exact_or_prose, loc_reply

Answer = Callable[[str, int], str]
"""``(stem, epoch) -> reply``."""


def _tasks(run: Path) -> list[tuple[str, str, int]]:
    with sqlite3.connect(run / "run.sqlite") as con:
        return con.execute(
            "SELECT key, item_id, epoch FROM tasks ORDER BY epoch, item_id"
        ).fetchall()


def _answer_by_key(run: Path, replay: Path, answer: Answer) -> None:
    """Write ``replay`` with one row per stored task of the run, keyed by its task key."""
    rows = [{"task_key": k, "text": answer(item, e)} for k, item, e in _tasks(run)]
    replay.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def _run(tmp: Path, name: str, epochs: int, answer: Answer, *, first: bool = True) -> Path:
    pairs, run, replay = tmp / "pairs", tmp / name, tmp / f"{name}.jsonl"
    if not pairs.exists():
        box_pairs(pairs)
    spec = [f"m=replay/{replay}"]
    if first:
        replay.write_text("", encoding="utf-8")
        prepare = GenerationSettings(cache_dir=tmp / "cache", prepare_only=True, epochs=epochs)
        api.run(pairs, run, spec, prepare)
    _answer_by_key(run, replay, answer)
    api.run(pairs, run, spec, GenerationSettings(cache_dir=tmp / "cache"), epochs=epochs)
    return run


def _metrics(run: Path) -> dict[tuple[str, str, str], tuple[float, int]]:
    with (run / "metrics.csv").open(newline="") as fh:
        return {
            (r["model"], r["condition"], r["metric"]): (float(r["value"]), int(r["n"]))
            for r in csv.DictReader(fh)
            if r["subset"] == "all"
        }


def _second_misses_b(stem: str, epoch: int) -> str:
    if epoch == 2 and stem == "b":
        return exact_or_prose("mixed", stem)  # prose: no box, a miss
    return loc_reply(BOXES[stem])


def test_two_epochs_store_twice_the_tasks_with_the_one_epoch_keys(tmp_path: Path) -> None:
    one = _run(tmp_path, "one", 1, _second_misses_b)
    two = _run(tmp_path, "two", 2, _second_misses_b)
    t1, t2 = _tasks(one), _tasks(two)
    assert len(t2) == 2 * len(t1) == 6
    assert [t for t in t2 if t[2] == 1] == t1  # epoch 1: the very keys of a one-epoch run
    assert {k for k, _i, e in t2 if e == 2}.isdisjoint({k for k, _i, _e in t1})
    with Store.open(two, create=False) as store:
        assert store.epochs() == [1, 2]
        assert len(store.pending("m")) == 0  # every epoch answered
    with sqlite3.connect(two / "run.sqlite") as con:
        assert con.execute("SELECT COUNT(*) FROM answers").fetchone()[0] == 6

    api.metrics(one)
    api.metrics(two)
    m1, m2 = _metrics(one), _metrics(two)
    assert not any(k[2].endswith(("_epoch_mean", "_epoch_sd", "epoch_agreement")) for k in m1)
    for key, value in m1.items():  # the existing rows keep their meaning: epoch 1
        assert m2[key] == value, key
    # epoch 2 scored alone: the same answers but b a miss (what the 'mixed' replay of the
    # PIXAR rows fixture answers)
    three = _run(tmp_path, "alone", 1, lambda s, _e: _second_misses_b(s, 2))
    api.metrics(three)
    m3 = _metrics(three)
    for metric in ("giou", "f1"):  # the headline metrics a LOC answer has (auc: score maps)
        a, b = m1[("m", "full", metric)][0], m3[("m", "full", metric)][0]
        assert m2[("m", "full", f"{metric}_epoch_mean")] == (pytest.approx((a + b) / 2), 2)
        sd = statistics.stdev([a, b])
        assert m2[("m", "full", f"{metric}_epoch_sd")] == (pytest.approx(sd), 2)
    assert m1[("m", "full", "giou")][0] != m3[("m", "full", "giou")][0]  # the epochs differ
    # a, c localised in both epochs; b in the first only: 2 of 3 items agree
    assert m2[("m", "full", "epoch_agreement")] == (pytest.approx(200 / 3), 3)
    spread_rows = [k for k in m2 if k not in m1]
    assert sorted(spread_rows) == sorted(
        [("m", "full", f"{m}_epoch_{s}") for m in ("giou", "f1") for s in ("mean", "sd")]
        + [("m", "full", "epoch_agreement")]
    )

    before = (two / "metrics.csv").read_bytes()
    api.metrics(two)  # scoring again gives the same bytes
    assert (two / "metrics.csv").read_bytes() == before


def test_resuming_a_one_epoch_run_with_two_asks_only_the_second(tmp_path: Path) -> None:
    run = _run(tmp_path, "run", 1, _second_misses_b)
    with sqlite3.connect(run / "run.sqlite") as con:
        first = dict(con.execute("SELECT task_key, created_at FROM answers"))
    pairs, replay = tmp_path / "pairs", tmp_path / "run.jsonl"
    prepare = GenerationSettings(cache_dir=tmp_path / "cache", prepare_only=True, epochs=2)
    api.run(pairs, run, [f"m=replay/{replay}"], prepare)
    _answer_by_key(run, replay, _second_misses_b)
    result = api.run(
        pairs, run, [f"m=replay/{replay}"], GenerationSettings(cache_dir=tmp_path / "cache"),
        epochs=2,
    )  # fmt: skip
    assert [(m.tasks, m.sent) for m in result.models] == [(6, 3)]  # only epoch 2 asked
    with sqlite3.connect(run / "run.sqlite") as con:
        after = dict(con.execute("SELECT task_key, created_at FROM answers"))
        epochs = dict(con.execute("SELECT key, epoch FROM tasks"))
    assert {k: v for k, v in after.items() if epochs[k] == 1} == first  # never asked again
    assert sorted(epochs[k] for k in after) == [1, 1, 1, 2, 2, 2]


@pytest.mark.parametrize("value", ["0", "-1"])
def test_epochs_below_one_is_one_line_and_nothing_written(tmp_path: Path, value: str) -> None:
    box_pairs(tmp_path / "pairs")
    out = tmp_path / "run"
    res = CliRunner().invoke(
        app, ["run", str(tmp_path / "pairs"), "--model", "builtin/artefact", "--out", str(out),
              "--epochs", value],
    )  # fmt: skip
    assert res.exit_code == 2, res.output
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "--epochs" in lines[0] and value in lines[0], res.output
    assert not out.exists()
    with pytest.raises(Exception, match="epochs"):
        GenerationSettings(epochs=0)


def test_spread_and_agreement_numbers() -> None:
    from forgebench.results.epochs import agreement, spread

    values = [40.0, 55.0, 61.0]
    mean, sd = spread(values)
    assert mean == pytest.approx(52.0) and sd == pytest.approx(float(statistics.stdev(values)))
    assert spread([7.0]) == (7.0, 0.0)
    k = ("m", "L0", "full")
    per_epoch = [
        {(*k, "1", "{}"): "REAL", (*k, "2", "{}"): "FAKE", (*k, "3", "{}"): "MISS"},
        {(*k, "1", "{}"): "REAL", (*k, "2", "{}"): "REAL", (*k, "3", "{}"): "MISS"},
        {(*k, "1", "{}"): "REAL", (*k, "2", "{}"): "FAKE"},  # item 3 not answered: left out
    ]
    assert agreement(per_epoch) == {k: (50.0, 2)}
