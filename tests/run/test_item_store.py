"""A prepare stores a dataset's items from the same read that expands them into questions: a
Forensics dataset kept on disk is read and validated twice (checked at load, then expanded and
stored), not three times; a suite that does not read its items through gets them all stored as
before, in order, and a prepare that stops on a bad question leaves no half-loaded run."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from forgebench.models.spec import ModelConfig
from forgebench.run.generate import GenerationSettings, run_generation
from forgebench.run.images import VariantCache
from forgebench.run.source import Loaded, Selection
from forgebench.run.tasks import Question
from forgebench.suites import get
from forgebench.suites.forensics import contract
from support.forensics_data import FORENSICS_ROWS, write_forensics_release

CONFIGS = [ModelConfig(spec=f"m{k}=builtin/artefact", max_tokens=8) for k in range(3)]


def _items(run: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(run / "run.sqlite") as con:
        return con.execute("SELECT benchmark, item_id FROM items ORDER BY rowid").fetchall()


def test_forensics_items_are_validated_twice_per_prepare(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dataset, _ = write_forensics_release(tmp_path / "src")
    parsed: list[int] = []
    real = contract._parse

    def counting(raw: bytes, path: Path, lineno: int | None) -> Any:
        parsed.append(1)
        return real(raw, path, lineno)

    monkeypatch.setattr(contract, "_parse", counting)
    settings = GenerationSettings(cache_dir=tmp_path / "cache", prepare_only=True)
    run_generation(get("forensics"), dataset, tmp_path / "run", CONFIGS, settings)
    n = len(FORENSICS_ROWS)
    assert len(parsed) == 2 * n
    assert _items(tmp_path / "run") == [("forensics", r[0]) for r in FORENSICS_ROWS]


class _ByIndex:
    """A suite that reads its items by index, backwards, and asks about every other one."""

    name = "byindex"

    def load(self, path: Path, selection: Selection) -> Loaded:
        return Loaded(root=path, items=[{"id": f"i{k}", "n": k} for k in range(5)])

    def questions(
        self, loaded: Loaded, selection: Selection, cache: VariantCache, **_: Any
    ) -> Iterable[Question]:
        for k in range(len(loaded.items) - 1, -1, -2):
            item = loaded.items[k]
            yield Question(item["id"], "MCQ", "full", f"q {item['n']}", "v1")


class _Stopping(_ByIndex):
    """A suite that reads its items in order and fails on the fourth question."""

    name = "stopping"

    def questions(
        self, loaded: Loaded, selection: Selection, cache: VariantCache, **_: Any
    ) -> Iterator[Question]:
        for item in loaded.items:
            if item["n"] == 3:
                raise ValueError("item i3: a bad image")
            yield Question(item["id"], "MCQ", "full", f"q {item['n']}", "v1")


def test_a_suite_that_reads_its_items_another_way_gets_them_all_in_order(tmp_path: Path) -> None:
    (tmp_path / "ds").mkdir()
    settings = GenerationSettings(cache_dir=tmp_path / "cache", prepare_only=True)
    run_generation(_ByIndex(), tmp_path / "ds", tmp_path / "run", CONFIGS, settings)  # type: ignore[arg-type]
    assert _items(tmp_path / "run") == [("byindex", f"i{k}") for k in range(5)]
    with sqlite3.connect(tmp_path / "run" / "run.sqlite") as con:
        assert con.execute("SELECT COUNT(*) FROM tasks").fetchone() == (3 * len(CONFIGS),)


def test_a_prepare_that_stops_on_a_bad_question_stores_neither_items_nor_tasks(
    tmp_path: Path,
) -> None:
    (tmp_path / "ds").mkdir()
    settings = GenerationSettings(cache_dir=tmp_path / "cache", prepare_only=True)
    with pytest.raises(ValueError, match="a bad image"):
        run_generation(_Stopping(), tmp_path / "ds", tmp_path / "run", CONFIGS, settings)  # type: ignore[arg-type]
    assert _items(tmp_path / "run") == []
    with sqlite3.connect(tmp_path / "run" / "run.sqlite") as con:
        assert con.execute("SELECT COUNT(*) FROM tasks").fetchone() == (0,)
    (tmp_path / "ds2").mkdir()
    run_generation(_ByIndex(), tmp_path / "ds2", tmp_path / "run", CONFIGS, settings)  # type: ignore[arg-type]
    assert _items(tmp_path / "run") == [("byindex", f"i{k}") for k in range(5)]


def test_items_with_a_limit_are_the_first_of_the_unlimited_list(tmp_path: Path) -> None:
    from forgebench.run.store import Store

    with Store.open(tmp_path / "run") as store:
        store.put_items("a", [{"id": f"a{k}", "n": k} for k in range(7)])
        store.put_items("b", [{"id": "b0", "n": 0}])
        store.put_items("a", [{"id": "late", "n": 99}])
        everything = list(store.items("a").items())
        assert [iid for iid, _ in everything] == [f"a{k}" for k in range(7)] + ["late"]
        for limit in (0, 1, 3, 8, 50):
            assert list(store.items("a", limit).items()) == everything[:limit]
        assert store.item_count("a") == 8
        assert store.item_count("b") == 1
        assert store.item_count("none") == 0
        for bad in (-1, 2.5, "3", True):
            with pytest.raises(ValueError, match="items limit"):
                store.items("a", bad)  # type: ignore[arg-type]
