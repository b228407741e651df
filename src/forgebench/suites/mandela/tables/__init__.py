"""Regenerate seed 000's tables from a run: Markdown, LaTeX (booktabs) and CSV under ``RUN/report/``.

:func:`write_tables` reads ``RUN/metrics.csv`` (or computes it with ``analysis.metrics`` when it
is absent), the row-level frame (``analysis.frame.load_frame``) for the paired tests and the
regressions, and ``RUN/config.json`` for the proprietary / open groups. Every table of the paper
that the data supports is written (Tables 2-3 and 5-21; Table 4 when a calibration matrix is
given); the others are listed as skipped with the reason, in ``tables.md`` and in the result.

Files: ``tables.md``, ``tables.tex``, ``table_NN.csv`` per table, and ``bootstrap_ci.csv``
(cluster-bootstrap CIs of the headline rates, which the paper does not report).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from forgebench.errors import UserError
from forgebench.report.groups import model_groups
from forgebench.report.table import Skipped, Table, to_csv, to_latex, to_markdown
from forgebench.run.rundir import RunDir
from forgebench.suites.mandela.frame import load_frame
from forgebench.suites.mandela.metrics import compute_metrics
from forgebench.suites.mandela.tables.inputs import (
    Metrics,
    TableData,
    prepare,
    read_metrics,
)
from forgebench.suites.mandela.tables.main import (
    table_decision,
    table_e4,
    table_main_results,
    table_parsed_family,
    table_people,
    table_saliency,
    table_sweeps,
)
from forgebench.suites.mandela.tables.probes import (
    table_authentic,
    table_families_conditions,
    table_identity,
    table_identity_crop,
    table_mirror_crop,
    table_recognition,
    table_wrong_caption,
)
from forgebench.suites.mandela.tables.stats import (
    Statistics,
    compute_statistics,
    table_calibration,
    table_footprint,
    table_recognition_regression,
)
from forgebench.util.atomic import write_text
from forgebench.util.csvsafe import frame_text

Builder = Callable[[TableData, Statistics], "Table | Skipped"]

BUILDERS: dict[int, Builder] = {
    2: lambda d, s: table_main_results(d, 2),
    3: lambda d, s: table_people(d, 3),
    4: lambda d, s: table_calibration(d),
    5: lambda d, s: table_main_results(d, 5),
    6: lambda d, s: table_people(d, 6),
    7: lambda d, s: table_recognition(d),
    8: lambda d, s: table_identity(d),
    9: lambda d, s: table_identity_crop(d),
    10: table_recognition_regression,
    11: lambda d, s: table_wrong_caption(d),
    12: lambda d, s: table_families_conditions(d),
    13: lambda d, s: table_authentic(d),
    14: lambda d, s: table_saliency(d),
    15: lambda d, s: table_e4(d),
    16: lambda d, s: table_parsed_family(d),
    17: lambda d, s: table_sweeps(d, 17),
    18: lambda d, s: table_sweeps(d, 18),
    19: lambda d, s: table_mirror_crop(d),
    20: table_footprint,
    21: lambda d, s: table_decision(d),
}
"""Every table of seed 000 this module can build (Table 1 is the taxonomy, not a result)."""


class ReportError(UserError, ValueError):
    """A run directory the report cannot be built from; the message names what is wrong."""


@dataclass
class TablesResult:
    """What :func:`write_tables` wrote and skipped."""

    out_dir: Path
    """Where the files are."""
    tables: list[Table] = field(default_factory=list)
    """The tables written, in number order."""
    skipped: list[Skipped] = field(default_factory=list)
    """The tables the data cannot support, with reasons."""
    files: list[Path] = field(default_factory=list)
    """Every file written."""
    judge: str | None = None
    """The judge whose grades the tables use."""


def build_tables(
    data: TableData, stats: Statistics, numbers: Iterable[int] | None = None
) -> list[Table | Skipped]:
    """Build the requested tables (default all) in number order."""
    prepare(data)
    return [BUILDERS[n](data, stats) for n in sorted(numbers or BUILDERS)]


def _load_frame(run_dir: Path, judge: str | None) -> tuple[pd.DataFrame | None, str]:
    if not RunDir(run_dir).is_run():
        return None, f"{RunDir(run_dir).db} not found"
    frame = load_frame(run_dir, judge=judge)
    if frame is None or len(frame) == 0:
        return None, "the run store holds no answers"
    return frame, ""


def _load_metrics(run_dir: Path, frame: pd.DataFrame | None, judge: str | None) -> pd.DataFrame:
    path = run_dir / "metrics.csv"
    if path.is_file():
        return read_metrics(path)
    if frame is not None:
        return compute_metrics(frame, judge)
    raise ReportError(
        f"{path} not found and no answers to compute it from (run 'forgebench score' first)"
    )


def _write(path: Path, content: str) -> Path:
    """Write atomically (``util.atomic``)."""
    write_text(path, content)
    return path


def _markdown(built: list[Table | Skipped], judge: str | None) -> str:
    head = ["# Tables (Mandela-Bench, seed 000)", ""]
    if judge:
        head += [f"Graded numbers use the judge `{judge}`.", ""]
    parts = [to_markdown(t) for t in built if isinstance(t, Table)]
    skipped = [t for t in built if isinstance(t, Skipped)]
    if skipped:
        parts.append(
            "## Skipped tables\n\n"
            + "\n".join(f"- Table {s.number}: {s.reason}" for s in skipped)
            + "\n"
        )
    return "\n".join(head) + "\n" + "\n".join(parts)


def _latex(built: list[Table | Skipped]) -> str:
    pre = "% Tables of seed 000 regenerated by forgebench; needs \\usepackage{booktabs}.\n"
    skipped = "".join(
        f"% Table {s.number} skipped: {s.reason}\n" for s in built if isinstance(s, Skipped)
    )
    return pre + skipped + "\n".join(to_latex(t) for t in built if isinstance(t, Table))


def write_tables(
    run_dir: str | Path,
    out_dir: str | Path | None = None,
    *,
    judge: str | None = None,
    main_models: list[str] | None = None,
    calibration: np.ndarray | None = None,
    frame: pd.DataFrame | None = None,
    metrics: pd.DataFrame | None = None,
    reps: int = 2000,
) -> TablesResult:
    """Write every supported table of seed 000 for a run (default ``RUN/report/``).

    ``frame`` and ``metrics`` may be passed to skip reading them; ``calibration`` is the 5 x 5
    human (rows) x judge (columns) count matrix of Table 4; ``main_models`` chooses Table 2's
    models. Raises :class:`ReportError` when the run has no metrics and nothing to compute them from.
    """
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise ReportError(f"{run_dir}: run directory not found")
    out = Path(out_dir) if out_dir is not None else run_dir / "report"
    reason = ""
    if frame is None:
        frame, reason = _load_frame(run_dir, judge)
    if metrics is None:
        metrics = _load_metrics(run_dir, frame, judge)
    try:
        met = Metrics(metrics, judge)
    except ValueError as exc:
        raise ReportError(f"{run_dir / 'metrics.csv'}: {exc}") from None
    if not met.models:
        raise ReportError(f"{run_dir / 'metrics.csv'}: no Mandela metrics (score the run first)")
    data = TableData(
        metrics=met,
        groups=model_groups(run_dir / "config.json", met.models),
        frame=frame,
        frame_reason=reason,
        main_models=main_models,
        calibration=calibration,
    )
    stats = compute_statistics(frame, reps=reps, reason=reason)
    built = build_tables(data, stats)
    out.mkdir(parents=True, exist_ok=True)
    result = TablesResult(out_dir=out, judge=met.judge)
    for item in built:
        if isinstance(item, Table):
            result.tables.append(item)
            result.files.append(_write(out / f"{item.name}.csv", to_csv(item)))
        else:
            result.skipped.append(item)
    result.files.append(_write(out / "tables.md", _markdown(built, met.judge)))
    result.files.append(_write(out / "tables.tex", _latex(built)))
    if stats.bootstrap is not None and len(stats.bootstrap):
        result.files.append(_write(out / "bootstrap_ci.csv", frame_text(stats.bootstrap)))
    return result
