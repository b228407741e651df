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
from forgebench.run.store.schema import SCHEMA_VERSION
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


def _run(
    tmp: Path, name: str, epochs: int, answer: Answer, *, first: bool = True, model: str = "m"
) -> Path:
    pairs, run, replay = tmp / "pairs", tmp / name, tmp / f"{name}.jsonl"
    if not pairs.exists():
        box_pairs(pairs)
    spec = [f"{model}=replay/{replay}"]
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


@pytest.fixture(scope="module")
def two_epochs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scored two-epoch run of the PIXAR pairs (epoch 2 misses pair b)."""
    run = _run(tmp_path_factory.mktemp("epochs"), "run", 2, _second_misses_b)
    api.metrics(run)
    return run


def test_export_carries_the_epoch_with_each_epochs_reading(
    two_epochs: Path, tmp_path: Path
) -> None:
    done = api.export(two_epochs, "csv", tmp_path / "rows.csv")
    with next(iter(done.files)).open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert sorted((r["item_id"], r["epoch"]) for r in rows) == [
        (s, e) for s in "abc" for e in ("1", "2")
    ]
    iou = {(r["item_id"], r["epoch"]): float(r["iou"] or 0) for r in rows}
    assert iou[("b", "1")] == pytest.approx(100.0) and iou[("b", "2")] == 0.0
    assert iou[("a", "2")] == pytest.approx(100.0)
    # the parser's verdicts of epoch 2 are kept in the store under its own keys
    with sqlite3.connect(two_epochs / "run.sqlite") as con:
        parsed = con.execute(
            "SELECT t.epoch, COUNT(*) FROM verdicts v JOIN tasks t ON t.key = v.task_key "
            "GROUP BY t.epoch ORDER BY 1"
        ).fetchall()
    assert parsed == [(1, 3), (2, 3)]


def test_merge_carries_the_epoch_and_its_rows(two_epochs: Path, tmp_path: Path) -> None:
    other = _run(tmp_path, "other", 1, _second_misses_b, model="n")  # one epoch, another model
    merged = tmp_path / "merged"
    api.merge([two_epochs, other], merged)
    assert sorted(_tasks(merged)) == sorted(_tasks(two_epochs) + _tasks(other))
    of_m = {k: v for k, v in _metrics(merged).items() if k[0] == "m"}
    assert of_m == _metrics(two_epochs)  # rescored on merging, spread rows too
    assert not any("epoch" in k[2] for k in _metrics(merged) if k[0] == "n")


def test_batch_file_has_one_request_per_epoch_keyed_by_its_task(tmp_path: Path) -> None:
    box_pairs(tmp_path / "pairs")
    run = tmp_path / "run"
    prepare = GenerationSettings(cache_dir=tmp_path / "cache", prepare_only=True)
    api.run(tmp_path / "pairs", run, ["m=openai/fake@http://127.0.0.1:9/v1"], prepare, epochs=2)
    files, n = api.export_batch(run, tmp_path / "batch.jsonl", "m")
    lines = [json.loads(line) for f in files for line in f.read_text().splitlines()]
    assert n == len(lines) == 6
    assert sorted(line["custom_id"] for line in lines) == sorted(k for k, _i, _e in _tasks(run))
    bodies = {json.dumps(line["body"], sort_keys=True) for line in lines}
    assert len(bodies) == 3  # each epoch asks the very same request


def test_old_schema_stores_open_as_epoch_one(tmp_path: Path) -> None:
    import shutil

    fixtures = Path(__file__).resolve().parent.parent / "fixtures"
    for name in ("v1_run", "v2_run", "v3_run", "v4_run"):
        src = fixtures / name
        stores = list(src.rglob("run.sqlite"))
        assert stores, name
        copy = tmp_path / name
        shutil.copytree(stores[0].parent, copy)
        with sqlite3.connect(copy / "run.sqlite") as con:
            keys = sorted(r[0] for r in con.execute("SELECT key FROM tasks"))
        with Store.open(copy, create=False) as store:
            assert store.meta_get("schema_version") == SCHEMA_VERSION >= 8
            assert store.epochs() == [1]
            rows = store.connection.execute("SELECT key, epoch FROM tasks ORDER BY key").fetchall()
        assert {e for _k, e in rows} == {1} and len(rows) == len(keys)
        if name != "v4_run":  # 4 -> 5 relabels Forensics' tiled tasks (their keys move)
            assert [k for k, _e in rows] == keys


def test_inspect_log_samples_carry_their_epoch(two_epochs: Path, tmp_path: Path) -> None:
    from inspect_ai.log import read_eval_log

    done = api.export(two_epochs, "inspect", tmp_path / "logs")
    (path,) = [p for p in done.files if str(p).endswith(".eval")]
    log = read_eval_log(str(path))
    assert log.samples is not None and log.eval.config.epochs == 2
    got = sorted((str(s.id).split("/")[0], s.epoch) for s in log.samples)
    assert got == [(s, e) for s in "abc" for e in (1, 2)]
    iou = {(str(s.id).split("/")[0], s.epoch): (s.scores or {})["iou"].value for s in log.samples}
    assert iou[("b", 1)] == pytest.approx(100.0) and iou[("b", 2)] == 0.0
    ids = log.eval.dataset.sample_ids or []
    assert len(ids) == len(set(ids)) == 3  # one id per question, its epochs apart


def test_front_page_shows_the_spread_over_epochs(two_epochs: Path, tmp_path: Path) -> None:
    from forgebench import suites
    from forgebench.report.front import FILENAME, front_page

    pixar = suites.get("pixar")
    page = front_page(two_epochs, tmp_path, [pixar])
    m = _metrics(two_epochs)
    mean, sd = m[("m", "full", "giou_epoch_mean")][0], m[("m", "full", "giou_epoch_sd")][0]
    assert f"{mean:.1f} ± {sd:.1f} over 2 epochs" in page
    with (tmp_path / FILENAME).open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert {float(r["epoch_mean"]) for r in rows if r["metric"] == "giou"} == {mean}
    single = tmp_path / "single"
    single.mkdir()
    one = _run(tmp_path, "one", 1, _second_misses_b)
    api.metrics(one)
    assert "epochs" not in front_page(one, single, [pixar])
    assert "epoch" not in (single / FILENAME).read_text(encoding="utf-8")


FAKE_TEXT = (
    "FAKE. The digital wristwatch is anachronistic: digital wristwatches did not exist at the "
    "Apollo 11 lunar landing in 1969."
)


def _mandela_run(tmp: Path, name: str, epochs: int, answer: Callable[[str, int], str]) -> Path:
    """Mandela's L0/full questions (two seeds) asked to a replay model ``answer(item, epoch)``,
    judged by ``builtin/rules`` and scored."""
    from forgebench.run.source import Selection
    from support.mandela_data import write_mandela_dataset

    dataset = tmp / "mandela"
    if not dataset.exists():
        write_mandela_dataset(dataset, seeds=2)
    run, replay = tmp / name, tmp / f"{name}.jsonl"
    replay.write_text("", encoding="utf-8")
    chosen = Selection(probes=["L0"], conditions=["full"])
    spec = [f"vlm=replay/{replay}"]
    api.run(dataset, run, spec, GenerationSettings(chosen, cache_dir=tmp / "c",
                                                   prepare_only=True, epochs=epochs))  # fmt: skip
    with sqlite3.connect(run / "run.sqlite") as con:
        stored = con.execute("SELECT key, item_id, epoch FROM tasks").fetchall()
    rows = [{"task_key": k, "text": answer(i, e)} for k, i, e in stored]
    replay.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    api.run(dataset, run, spec, GenerationSettings(chosen, cache_dir=tmp / "c", epochs=epochs))
    api.judge(run, "builtin/rules")
    api.metrics(run)
    return run


def _l0(run: Path) -> dict[tuple[str, str], tuple[float, int]]:
    with (run / "metrics.csv").open(newline="") as fh:
        return {
            (r["metric"], r["judge"]): (float(r["value"]), int(r["n"]))
            for r in csv.DictReader(fh)
            if (r["probe"], r["condition"], r["subset"]) == ("L0", "full", "all") and r["value"]
        }


def _mandela(item: str, epoch: int) -> str:
    """Epoch 1: only the first seed's forgery called FAKE; epoch 2: both forgeries."""
    forged = item.endswith("-k2")
    if forged and (epoch == 2 or item.startswith("s0")):
        return FAKE_TEXT
    return "REAL. Nothing in the photograph looks edited."


def test_judged_headline_of_a_later_epoch_is_judged_in_its_view(tmp_path: Path) -> None:
    """Mandela's KGR needs grades: ``judge`` grades epoch 2 too (in its view), keeps the grades
    under epoch 2's keys, and the spread rows are the mean and sd worked out by hand."""
    run = _mandela_run(tmp_path, "run", 2, _mandela)
    with sqlite3.connect(run / "run.sqlite") as con:
        judged = dict(con.execute(
            "SELECT t.epoch, COUNT(*) FROM judgements j JOIN tasks t ON t.key = j.task_key "
            "GROUP BY t.epoch"
        ).fetchall())  # fmt: skip
        first = dict(con.execute(
            "SELECT t.item_id, v.verdict FROM verdicts v JOIN tasks t ON t.key = v.task_key "
            "WHERE t.epoch = 1"
        ).fetchall())  # fmt: skip
    assert judged == {1: 2, 2: 2}  # each epoch's two forged answers (FAKE graded, REAL E0)
    m = {(metric, judge): v for (metric, judge), v in _l0(run).items()}
    by = {metric: v for (metric, _judge), v in m.items()}
    # det: forgeries called FAKE, 1 of 2 in epoch 1, 2 of 2 in epoch 2; auth 100 in both, so
    # bal (the mean of det and auth) is 75 then 100
    assert by["det"] == (50.0, 2) and by["bal"][0] == 75.0  # the existing rows: epoch 1
    for metric, values in (("det", [50.0, 100.0]), ("bal", [75.0, 100.0])):
        assert by[f"{metric}_epoch_mean"] == (pytest.approx(statistics.mean(values)), 2)
        assert by[f"{metric}_epoch_sd"] == (pytest.approx(statistics.stdev(values)), 2)
    kgr = [k for k in m if k[0] == "kgr"]
    assert kgr and all(m[(f"kgr_epoch_{s}", j)][1] == 2 for _k, j in kgr for s in ("mean", "sd"))
    same = sum(v == "REAL" or not k.endswith("-k2") for k, v in first.items())
    assert m[("epoch_agreement", "")] == (pytest.approx(100 * same / len(first)), len(first))


def test_task_keys_hash_the_epoch_only_from_two_on() -> None:
    from forgebench.models.base import ImageRef
    from forgebench.run.tasks import Question, TaskKeys, make_task, task_key

    q = Question(
        "i1", "L0", "full", "Is it real?", "p1", image=ImageRef("v1", Path("x.png"), "image/png")
    )
    many = Question("i2", "MCQ", "full", "Which?", "p2",
                    images=(ImageRef("v1", Path("a.png"), "image/png"), ImageRef("v2", Path("b.png"), "image/png")))  # fmt: skip
    bound = [("m", {"temperature": 0.0}), ("n", {"temperature": 1.0, "seed": 3})]
    keys = TaskKeys(bound)
    for question in (q, many):
        assert keys(question) == keys(question, 1) == [task_key(question, m, p) for m, p in bound]
        for epoch in (2, 3):
            assert keys(question, epoch) == [task_key(question, m, p, epoch) for m, p in bound]
        assert len({k for e in (1, 2, 3) for k in keys(question, e)}) == 6
    task = make_task(q, "m", {"temperature": 0.0}, 2)
    assert task.epoch == 2 and task.key == task_key(q, "m", {"temperature": 0.0}, 2)
    assert make_task(q, "m", {"temperature": 0.0}).key == task_key(q, "m", {"temperature": 0.0})
