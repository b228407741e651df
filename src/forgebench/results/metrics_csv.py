"""``RUN/metrics.csv``: the one reader and the one writer (DESIGN.md "Run directory").

Long format, one row per number: ``benchmark,model,probe,condition,subset,metric,value,n,judge``.
Several stages write into one file (Mandela's ``metrics``, ``judge`` and ``run --judge``, PIXAR's
``pixar run`` and the demo, Forensics' scoring), so every writer declares the :class:`Scope` it
owns and :func:`write_metrics` replaces only the rows inside that scope, keeping every other row
byte for byte. Readers filter by benchmark and judge (:func:`read_metrics`).

Formatting: floats are written as Python's shortest round-trip ``repr`` (``33.33333333333333``,
``100.0``), integers as integers, missing values as empty cells. Rows are written in the order
kept-then-new; the file is replaced atomically (``util.atomic``), and stale temporary files of a
killed writer are removed first.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forgebench.errors import UserError
from forgebench.util.atomic import atomic_open, clean_stale

if TYPE_CHECKING:
    import pandas as pd

METRICS_FILE = "metrics.csv"
COLUMNS: tuple[str, ...] = (
    "benchmark", "model", "probe", "condition", "subset", "metric", "value", "n", "judge",
)  # fmt: skip
"""The contract's columns, in order."""


class MetricsFileError(UserError, ValueError):
    """A metrics.csv that is not the contract's format; the message names the file."""


@dataclass(frozen=True)
class Scope:
    """The rows a writer owns: one benchmark, optionally only some models, some judges and some
    metric names.

    A row is inside the scope when its benchmark matches, its model is in ``models`` (any model
    when ``None``), its judge is in ``judges`` (any judge when ``None``; ``""`` names the rows
    that use no grade) and its metric starts with ``include`` and not with ``exclude`` (where
    set).
    """

    benchmark: str
    """The benchmark whose rows are replaced."""
    models: frozenset[str] | None = None
    """Only these models' rows (``None``: every model)."""
    judges: frozenset[str] | None = None
    """Only these judges' rows (``None``: every judge; ``""`` = rows without a judge)."""
    include: str | None = None
    """Only the metrics whose name starts with this (``None``: every metric)."""
    exclude: str | None = None
    """Never the metrics whose name starts with this (``None``: none left out): two
    conventions of one benchmark (PIXAR's own and ``imdl_*``) each rescore only their rows."""

    def owns(self, row: Mapping[str, Any]) -> bool:
        """Whether ``row`` lies inside this scope."""
        if (row.get("benchmark") or "") != self.benchmark:
            return False
        if self.models is not None and (row.get("model") or "") not in self.models:
            return False
        metric = row.get("metric") or ""
        if self.include is not None and not metric.startswith(self.include):
            return False
        if self.exclude is not None and metric.startswith(self.exclude):
            return False
        return self.judges is None or (row.get("judge") or "") in self.judges

    @classmethod
    def of(
        cls,
        benchmark: str,
        models: Iterable[str] | None = None,
        judges: Iterable[str | None] | None = None,
        *,
        include: str | None = None,
        exclude: str | None = None,
    ) -> Scope:
        """Build a scope; ``None`` judges are written as ``""``."""
        return cls(
            benchmark,
            frozenset(models) if models is not None else None,
            frozenset((j or "") for j in judges) if judges is not None else None,
            include,
            exclude,
        )


def format_cell(value: Any) -> str:
    """One cell as text: floats by ``repr`` (NaN/None empty), integral numbers as integers."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, float):  # numpy's float64 too: repr of the Python float, not np.float64
        return "" if math.isnan(value) else repr(float(value))
    try:  # numpy scalars
        import numpy as np

        if isinstance(value, np.integer):
            return str(int(value))
        if isinstance(value, np.floating):
            f = float(value)
            return "" if math.isnan(f) else repr(f)
    except ImportError:  # pragma: no cover - numpy is a core dependency
        pass
    return str(value)


def _records(rows: pd.DataFrame | Iterable[Mapping[str, Any]]) -> list[dict[str, str]]:
    items: Iterable[Mapping[str, Any]] = (
        rows.to_dict("records") if hasattr(rows, "to_dict") else rows  # type: ignore[assignment]
    )
    return [{c: format_cell(r.get(c)) for c in COLUMNS} for r in items]


def read_rows(path: Path) -> list[dict[str, str]]:
    """Every row of a metrics file as text cells (empty list when the file is absent)."""
    if not path.is_file():
        return []
    try:
        with path.open(newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
            if missing:
                raise MetricsFileError(
                    f"{path}: not a metrics file (missing column(s) {', '.join(missing)})"
                )
            return [{c: (r.get(c) or "") for c in COLUMNS} for r in reader]
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise MetricsFileError(f"{path}: cannot read metrics ({exc})") from None


def write_metrics(
    run_dir: Path, rows: pd.DataFrame | Iterable[Mapping[str, Any]], scope: Scope
) -> Path:
    """Replace ``scope``'s rows of ``RUN/metrics.csv`` with ``rows``; keep every other row.

    The new rows take the place of the first row they replace (at the end when ``scope`` had
    none), so scoring a benchmark again leaves the file's order as it was: the same run gives
    the same bytes however often, and in whichever order, its benchmarks are scored. Each new
    row must lie inside ``scope`` (a writer never writes what it does not own): a row outside it
    raises ``ValueError``.
    """
    run_dir = Path(run_dir)
    path = run_dir / METRICS_FILE
    clean_stale(run_dir, METRICS_FILE)
    new = _records(rows)
    stray = [r for r in new if not scope.owns(r)]
    if stray:
        r = stray[0]
        raise ValueError(
            f"metrics row outside the writer's scope {scope}: "
            f"benchmark={r['benchmark']!r} model={r['model']!r} judge={r['judge']!r}"
        )
    old = read_rows(path)
    at = next((i for i, r in enumerate(old) if scope.owns(r)), len(old))
    before, after = old[:at], [r for r in old[at:] if not scope.owns(r)]
    with atomic_open(path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(COLUMNS), lineterminator="\n")
        w.writeheader()
        w.writerows(before)
        w.writerows(new)
        w.writerows(after)
    return path


def read_metrics(
    path: Path,
    *,
    benchmark: str | None = None,
    judge: str | None = None,
    keep_unjudged: bool = True,
) -> pd.DataFrame:
    """metrics.csv as a DataFrame (``value`` and ``n`` numeric), optionally filtered.

    ``benchmark`` keeps that benchmark's rows; ``judge`` keeps the rows of that judge and (with
    ``keep_unjudged``) the rows that use no grade. :class:`MetricsFileError` names a file that is
    unreadable or not in the contract's format.
    """
    import pandas as pd

    try:
        df = pd.read_csv(
            path,
            dtype={
                "benchmark": "object", "model": "object", "probe": "object",
                "condition": "object", "subset": "object", "metric": "object",
                "judge": "object",
            },
            keep_default_na=False,
            na_values={"value": [""], "n": [""]},
        )  # fmt: skip
    except (OSError, pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise MetricsFileError(f"{path}: cannot read metrics ({exc})") from None
    missing = [c for c in COLUMNS if c not in df.columns]
    if missing:
        raise MetricsFileError(
            f"{path}: not a metrics file (missing column(s) {', '.join(missing)})"
        )
    df["judge"] = df["judge"].fillna("")
    if benchmark is not None:
        df = df[df["benchmark"] == benchmark]
    if judge is not None:
        ok = df["judge"] == judge
        if keep_unjudged:
            ok |= df["judge"] == ""
        df = df[ok]
    return df.reset_index(drop=True)
