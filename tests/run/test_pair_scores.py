"""Schema 10: the run store's ``pair_scores`` (PIXAR pairs scored from files, for the viewer):
made on open, added by the 9 -> 10 migration to a store of schema 9 and to the fixture runs of
schemas 1-4, rows replaced per model (:mod:`forgebench.run.store.pairs`)."""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

from forgebench.run.store import PairScore, Store
from forgebench.run.store.schema import SCHEMA_VERSION

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def _score(model: str, pair: str, iou: float, pred: str | None = "p.npy") -> PairScore:
    return PairScore(model, pair, iou, iou, f"/t/{pair}.png", pred, None, 0.5)


def test_pair_scores_are_replaced_per_model(tmp_path: Path) -> None:
    with Store.open(tmp_path / "run") as store:
        assert store.meta_get("schema_version") == SCHEMA_VERSION == 10
        store.put_pair_scores("pixar", "det", [_score("det", "a", 100.0), _score("det", "b", 0.0)])
        store.put_pair_scores("pixar", "other", [_score("other", "a", 50.0, None)])
        store.put_pair_scores("pixar", "det", [_score("det", "b", 25.0)])  # scored again
        got = [(s.model, s.pair, s.iou, s.pred) for s in store.pair_scores("pixar")]
        assert got == [("det", "b", 25.0, "p.npy"), ("other", "a", 50.0, None)]
        assert [s.pair for s in store.pair_scores("pixar", "other")] == ["a"]
        assert store.pair_scores("forensics") == []
        assert (store.pair_score_count("pixar"), store.pair_score_count("forensics")) == (2, 0)


def test_a_schema_9_store_gains_the_pair_scores_table_and_keeps_its_rows(tmp_path: Path) -> None:
    run = tmp_path / "run"
    with Store.open(run) as store:
        store.meta_set("kept", {"x": 1})
    with closing(sqlite3.connect(run / "run.sqlite")) as con, con:
        con.execute("DROP TABLE pair_scores")  # the store as schema 9 made it
        con.execute("UPDATE meta SET value='9' WHERE key='schema_version'")
    with Store.open(run, create=False) as store:
        assert store.meta_get("schema_version") == 10
        assert store.meta_get("kept") == {"x": 1}
        assert store.pair_scores("pixar") == []
        store.put_pair_scores("pixar", "det", [_score("det", "a", 75.0)])
        assert [s.iou for s in store.pair_scores("pixar")] == [75.0]


def test_the_fixture_runs_migrate_to_schema_10(tmp_path: Path) -> None:
    for name in ("v1_run", "v2_run", "v3_run", "v4_run"):
        stores = list((FIXTURES / name).rglob("run.sqlite"))
        assert stores, name
        copy = tmp_path / name
        shutil.copytree(stores[0].parent, copy)
        with closing(sqlite3.connect(copy / "run.sqlite")) as con:
            tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master")}
            n_tasks = con.execute("SELECT COUNT(*) FROM tasks").fetchone()[0]
        assert "pair_scores" not in tables
        with Store.open(copy, create=False) as store:
            assert store.meta_get("schema_version") == 10
            assert store.pair_scores("pixar") == []
            (n,) = store.connection.execute("SELECT COUNT(*) FROM tasks").fetchone()
        assert n == n_tasks  # every task kept
