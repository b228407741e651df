"""The run store's items: each benchmark's dataset items as JSON, by (benchmark, item id), and
read back as the suite's typed items (a row its model rejects is one line, never a traceback)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from forgebench.errors import UserError
from forgebench.run.rundir import RunDir
from forgebench.run.store.base import StoreBase


class BadStoredRow(UserError):
    """A stored row its suite's model rejects (a damaged store, or one written by another
    version): one line naming the run, the row and the field."""

    exit_code = 1


M = TypeVar("M", bound=BaseModel)


def item_row(benchmark: str, item: BaseModel | dict[str, Any]) -> tuple[str, str, str]:
    """``(benchmark, item id, JSON)``: how :meth:`ItemsPart.put_items` stores an item."""
    data = item.model_dump(mode="json") if isinstance(item, BaseModel) else dict(item)
    return benchmark, str(data["id"]), json.dumps(data, ensure_ascii=False)


class ItemsPart(StoreBase):
    """Rows of ``items``."""

    def put_items(self, benchmark: str, items: Iterable[BaseModel | dict[str, Any]]) -> None:
        """Store a benchmark's items as JSON (the latest data wins: a fixed label reaches
        scoring). An item is a pydantic model or a dict with an ``id`` field. Rows are made
        as SQLite takes them: a dataset read from disk one item at a time is never held whole."""
        self.put_item_rows(item_row(benchmark, it) for it in items)

    def put_item_rows(self, rows: Iterable[tuple[str, str, str]]) -> None:
        """Store rows made by :func:`item_row` (as :meth:`put_items`)."""
        with self._tx():
            self.connection.executemany(
                "INSERT INTO items(benchmark, item_id, data) VALUES(?, ?, ?) "
                "ON CONFLICT(benchmark, item_id) DO UPDATE SET data=excluded.data",
                rows,
            )

    def items(self, benchmark: str, limit: int | None = None) -> dict[str, dict[str, Any]]:
        """A benchmark's stored items: id -> JSON object, in the order they were first stored;
        only the first ``limit`` when given (a page showing a few of 63K items parses those)."""
        sql = "SELECT item_id, data FROM items WHERE benchmark=? ORDER BY rowid"
        params: tuple[Any, ...] = (benchmark,)
        if limit is not None:
            if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
                raise ValueError(f"items limit must be a whole number >= 0, not {limit!r}")
            sql += " LIMIT ?"
            params += (limit,)
        return {iid: json.loads(data) for iid, data in self.connection.execute(sql, params)}

    def typed_items(self, benchmark: str, model: type[M], limit: int | None = None) -> dict[str, M]:
        """:meth:`items` validated by the suite's item ``model``; :class:`BadStoredRow` naming
        the run, the item and the field when a stored row does not validate (never a pydantic
        traceback)."""
        out: dict[str, M] = {}
        for iid, data in self.items(benchmark, limit).items():
            out[iid] = self.typed_row(model, data, f"{benchmark} item {iid!r}")
        return out

    def typed_row(self, model: type[M], data: Any, row: str) -> M:
        """``data`` (a row of this store, described by ``row``) validated by ``model``;
        :class:`BadStoredRow` when it does not validate."""
        try:
            return model.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "value"
            raise BadStoredRow(
                f"{RunDir(self.run_dir).db}: {row}: {where}: {first['msg']} (a damaged "
                "store, or one written by another version)"
            ) from None

    def item_count(self, benchmark: str) -> int:
        """How many items of ``benchmark`` are stored."""
        sql = "SELECT COUNT(*) FROM items WHERE benchmark=?"
        return int(self.connection.execute(sql, (benchmark,)).fetchone()[0])

    def all_items(self) -> list[tuple[str, dict[str, Any]]]:
        """Every benchmark's items as ``(benchmark, JSON object)``, in the order first stored."""
        return [
            (bm, json.loads(data))
            for bm, data in self.connection.execute(
                "SELECT benchmark, data FROM items ORDER BY rowid"
            )
        ]
