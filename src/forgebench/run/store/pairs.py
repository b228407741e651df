"""The run store's per-pair scores (table ``pair_scores``, schema 10): predictions scored from
files rather than asked as tasks, such as PIXAR's detector score maps and predicted masks
(``forgebench pixar score --out RUN``, the demo's detector). One row per benchmark, model and
pair: its IoU and pixel F1 (percent), the truth map, the prediction and the edited image, so the
report's item viewer shows each pair with its truth and predicted masks as it shows an answer."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

from forgebench.run.store.base import StoreBase


@dataclass(frozen=True)
class PairScore:
    """One scored pair of one model."""

    model: str
    pair: str
    iou: float
    """The pair's IoU, percent."""
    f1: float
    """The pair's pixel F1, percent."""
    truth: str
    """The truth label map's path."""
    pred: str | None
    """The prediction's path (None: there was none, scored as an empty prediction)."""
    image: str | None = None
    """The edited image's path (None: not known, as for ``pixar score --truth``)."""
    threshold: float = 0.5
    """A score map is tampered where score >= threshold."""


_COLUMNS = "model, pair, iou, f1, truth, pred, image, threshold"


class PairScoresPart(StoreBase):
    """Rows of ``pair_scores``."""

    def put_pair_scores(self, benchmark: str, model: str, rows: Iterable[PairScore]) -> int:
        """Replace ``model``'s pair scores of ``benchmark`` by ``rows``, in one transaction (a
        scoring again of the same predictions leaves one row per pair); returns the rows."""
        now = time.time()
        values = [
            (benchmark, r.model, r.pair, float(r.iou), float(r.f1), r.truth, r.pred, r.image,
             float(r.threshold), now)
            for r in rows
        ]  # fmt: skip
        if any(v[1] != model for v in values):
            raise ValueError("put_pair_scores: every row is of the model named")
        with self._tx():
            self.connection.execute(
                "DELETE FROM pair_scores WHERE benchmark=? AND model=?", (benchmark, model)
            )
            self.connection.executemany(
                f"INSERT INTO pair_scores(benchmark, {_COLUMNS}, created_at) "
                "VALUES(?,?,?,?,?,?,?,?,?,?)",
                values,
            )
        return len(values)

    def pair_scores(self, benchmark: str, model: str | None = None) -> list[PairScore]:
        """The stored pair scores of ``benchmark`` (of ``model`` only, when given), by model
        and pair."""
        sql = f"SELECT {_COLUMNS} FROM pair_scores WHERE benchmark=?"
        params: list[str] = [benchmark]
        if model is not None:
            sql += " AND model=?"
            params.append(model)
        rows = self.connection.execute(sql + " ORDER BY model, pair", params).fetchall()
        return [PairScore(*row) for row in rows]

    def pair_score_count(self, benchmark: str) -> int:
        """How many pair scores of ``benchmark`` are stored (every model)."""
        sql = "SELECT COUNT(*) FROM pair_scores WHERE benchmark=?"
        return int(self.connection.execute(sql, (benchmark,)).fetchone()[0])
