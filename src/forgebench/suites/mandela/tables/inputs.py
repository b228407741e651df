"""What the table builders read: ``metrics.csv`` as a lookup, the row-level frame, model groups
and the paper's row orders.

Row order follows the paper: Table 5 (and so Table 2) sorts models by KGR under L1 within each
group, proprietary first; most other tables use "the order of Table 2"; Table 7 sorts by
recognition under Full and Table 19 follows Table 7.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from forgebench.report.groups import group_sections
from forgebench.results.metrics_csv import read_metrics as _read

METRIC_COLUMNS = (
    "benchmark",
    "model",
    "probe",
    "condition",
    "subset",
    "metric",
    "value",
    "n",
    "judge",
)
"""The columns of ``metrics.csv`` (DESIGN.md)."""
GROUP_HEADINGS = {"proprietary": "Proprietary", "open": "Open weights"}
MAIN_TEXT_MODELS = 15
"""Table 2 shows at most this many models (the paper's main text shows 15)."""

Key = tuple[str, str, str, str, str]


class Metrics:
    """Fast lookup of ``metrics.csv`` rows by (model, probe, condition, subset, metric)."""

    def __init__(self, frame: pd.DataFrame, judge: str | None = None) -> None:
        missing = [c for c in METRIC_COLUMNS if c not in frame.columns and c != "benchmark"]
        if missing:
            raise ValueError(f"metrics lack column(s) {', '.join(missing)}")
        df = frame
        if "benchmark" in df.columns:
            bench = df["benchmark"].astype("object")
            df = df[bench.isna() | bench.isin(["mandela", ""])]
        judges = df["judge"].astype("object").where(df["judge"].notna(), "").astype(str)
        named = sorted(set(judges) - {"", "nan"})
        if judge is None and named:
            judge = str(judges[judges != ""].value_counts().idxmax())
        self.judge: str | None = judge
        """The judge whose graded metrics are used (each table uses one judge)."""
        self.judges: list[str] = named
        """Every judge present."""
        keep = (judges == "") | (judges == "nan") | (judges == (judge or ""))
        df = df[keep.to_numpy()]
        values = pd.to_numeric(df["value"], errors="coerce").to_numpy(dtype=float)
        ns = pd.to_numeric(df["n"], errors="coerce").to_numpy(dtype=float)
        cols = [
            df[c].astype(str).to_numpy()
            for c in ("model", "probe", "condition", "subset", "metric")
        ]
        self._d: dict[Key, tuple[float, float]] = {
            (m, p, c, s, k): (v, n) for m, p, c, s, k, v, n in zip(*cols, values, ns, strict=True)
        }
        self._any: dict[tuple[str, str, str, str], tuple[float, float]] | None = None
        self.models: list[str] = list(dict.fromkeys(cols[0].tolist()))
        """Models in the order they first appear."""

    def __len__(self) -> int:
        return len(self._d)

    def get(self, model: str, probe: str, condition: str, subset: str, metric: str) -> float | None:
        """The value (NaN-free) or ``None`` when the run has no such number."""
        hit = self._d.get((model, probe, condition, subset, metric))
        if hit is None or not math.isfinite(hit[0]):
            return None
        return float(hit[0])

    def n(self, model: str, probe: str, condition: str, subset: str, metric: str) -> int | None:
        """The denominator of a number, or ``None``."""
        hit = self._d.get((model, probe, condition, subset, metric))
        if hit is None or not math.isfinite(hit[1]):
            return None
        return int(hit[1])

    def find(
        self, model: str, probe: str, subset: str, metric: str
    ) -> tuple[float, int | None] | None:
        """A number under any condition (for probes whose condition naming varies), or ``None``."""
        if self._any is None:
            self._any = {}
            for (m, p, _c, s, k), (v, n) in self._d.items():
                if math.isfinite(v):
                    self._any.setdefault((m, p, s, k), (v, n))
        hit = self._any.get((model, probe, subset, metric))
        if hit is None:
            return None
        return hit[0], (int(hit[1]) if math.isfinite(hit[1]) else None)

    def has(
        self,
        probe: str,
        condition: str,
        subset: str,
        metric: str,
        models: Iterable[str] | None = None,
    ) -> list[str]:
        """The models (of ``models``, default all) that have this number."""
        return [
            m
            for m in (models or self.models)
            if self.get(m, probe, condition, subset, metric) is not None
        ]


def read_metrics(path: Path) -> pd.DataFrame:
    """The Mandela rows of ``metrics.csv``; ``ValueError`` names the file when it is not the
    contract's format (``results.metrics_csv``)."""
    return _read(path, benchmark="mandela")


@dataclass
class TableData:
    """Everything the table builders read."""

    metrics: Metrics
    """``metrics.csv`` of the run, for one judge."""
    groups: dict[str, str]
    """Model -> ``proprietary`` / ``open``."""
    frame: pd.DataFrame | None = None
    """The row-level frame (``analysis.frame.load_frame``), when available."""
    frame_reason: str = ""
    """Why the frame is missing (for skipped tables)."""
    main_models: list[str] | None = None
    """Table 2's models; default the first 15 of Table 5's order."""
    calibration: np.ndarray | None = None
    """Human (rows) x judge (columns) counts over E0-E4 for Table 4."""
    order: list[str] = field(default_factory=list)
    """Models in Table 5's order (set by :func:`prepare`)."""
    _rows: dict[tuple[str, str, str], np.ndarray] | None = None
    _cells: dict[tuple[str, str, str], pd.DataFrame] = field(default_factory=dict)
    _whole: dict[str, np.ndarray] = field(default_factory=dict)

    def answers(self, model: str, probe: str, condition: str) -> pd.DataFrame:
        """The frame's rows of one model, probe and condition (empty without a frame); each
        cell is sliced from the frame the first time a table asks for it."""
        if self.frame is None:
            return pd.DataFrame()
        key = (model, probe, condition)
        if key not in self._cells:
            self._cells[key] = self.frame.iloc[self.rows(*key)]
        return self._cells[key]

    def rows(self, model: str, probe: str, condition: str) -> np.ndarray:
        """Positions in the frame of one model's rows of a probe and condition (none without
        a frame)."""
        if self.frame is None:
            return np.zeros(0, dtype=np.intp)
        if self._rows is None:
            groups = self.frame.groupby(["model", "probe", "condition"], sort=False, observed=True)
            cells: dict[Any, Any] = groups.indices
            self._rows = {
                (str(k[0]), str(k[1]), str(k[2])): np.asarray(v) for k, v in cells.items()
            }
        return self._rows.get((model, probe, condition), np.zeros(0, dtype=np.intp))

    def whole(self, name: str, make: Callable[[pd.DataFrame], np.ndarray]) -> np.ndarray:
        """``make(frame)``, a per-row array of the whole frame, computed once (tables index it
        with :meth:`rows` instead of slicing the frame per model)."""
        if name not in self._whole:
            self._whole[name] = make(self.frame if self.frame is not None else pd.DataFrame())
        return self._whole[name]

    @property
    def judge(self) -> str | None:
        """The judge of the graded numbers."""
        return self.metrics.judge

    def marks(self, model: str) -> str:
        """``†`` when the model is also the judge."""
        return "†" if self.judge and model == self.judge else ""

    def sections(self, models: Iterable[str]) -> list[tuple[str, list[str]]]:
        """Models split into the paper's group blocks, keeping their order."""
        return group_sections(models, self.groups, GROUP_HEADINGS)

    def main(self) -> list[str]:
        """Table 2's models in Table 2's order."""
        if self.main_models:
            chosen = set(self.main_models)
            return [m for m in self.order if m in chosen]
        ordered = [m for _, ms in self.sections(self.order) for m in ms]
        return ordered[:MAIN_TEXT_MODELS]


def _sort_key(value: float | None, name: str) -> tuple[float, str]:
    return (-(value if value is not None else -math.inf), name)


def prepare(data: TableData) -> TableData:
    """Fix Table 5's order: by KGR under L1 (descending) within each group."""
    met = data.metrics
    models = sorted(met.models, key=lambda m: _sort_key(met.get(m, "L1", "full", "all", "kgr"), m))
    data.order = [m for _, ms in data.sections(models) for m in ms]
    return data


def order_by(data: TableData, models: Iterable[str], key: dict[str, float | None]) -> list[str]:
    """Models sorted by a value, descending, ignoring groups (Table 7's order)."""
    return sorted(models, key=lambda m: _sort_key(key.get(m), m))


def flag(frame: pd.DataFrame, column: str) -> pd.Series:
    """A boolean item column of the frame; missing values (and a missing column) are False.

    ``peripheral_K1`` also matches the frame's lower-case ``peripheral_k1``.
    """
    if column not in frame.columns:
        column = column.lower()
    if column not in frame.columns:
        return pd.Series(False, index=frame.index)
    return frame[column].astype("boolean").fillna(False).astype(bool)


def rate(values: pd.Series) -> float:
    """Share (%) of true values, misses counting as false; NaN for no rows."""
    if len(values) == 0:
        return float("nan")
    return 100.0 * float(values.astype("boolean").fillna(False).astype(bool).mean())
