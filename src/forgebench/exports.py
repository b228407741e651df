"""``forgebench export RUN --format NAME``: one registry of export formats.

A format is a name and a writer: ``writer(request) -> Exported``, where the request names the run,
the output (a folder, or a file where the format allows one), the judge and the run's benchmarks
to write. Adding a format is one :func:`register_format` call from any module imported before
the command runs (a suite, a plug-in); the command line lists the registered names in
``--format``'s help and refuses an unknown one in one line.

The two built-in formats, ``csv`` and ``parquet``, write the row-level table of each benchmark
as ``OUT/export-<benchmark>.<fmt>``: the columns every benchmark shares
(:data:`forgebench.run.rows.SHARED_COLUMNS`), then the benchmark's own
(the suite's ``export`` facet, ``Export.rows``). A benchmark without rows of its own is named in a "skipped" line. With
``--out FILE.<fmt>`` on a run of one benchmark the table goes to that file; without ``--out`` a
one-benchmark run writes ``RUN/export.<fmt>``, a run of several ``RUN/export-<benchmark>.<fmt>``.
The CSV is for people: text cells a spreadsheet would run as a formula get a leading ``'``
(:mod:`forgebench.util.csvsafe`); Parquet keeps the raw text. Files are replaced atomically.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from forgebench.errors import UserError
from forgebench.results.epochs import epoch_views
from forgebench.suites.base import Export, offers
from forgebench.util.atomic import atomic_path
from forgebench.util.registry import Registry

if TYPE_CHECKING:
    import pandas as pd

    from forgebench.suites.base import Suite

__all__ = [
    "ExportFormat",
    "ExportRequest",
    "Exported",
    "UnknownFormat",
    "export_facet",
    "formats",
    "get_format",
    "register_format",
]


class UnknownFormat(UserError):
    """``--format`` names no registered format."""


@dataclass(frozen=True)
class ExportRequest:
    """What a format writer is asked to write."""

    run_dir: Path
    """The run directory."""
    out: Path | None
    """Where to write, as the user gave it (None: the format's default under ``run_dir``)."""
    suites: Sequence[Suite]
    """The run's benchmarks to write (narrowed by ``--benchmark``), in registry order."""
    judge: str | None = None
    """The judge whose grades to include (None: the suite's default)."""
    options: Mapping[str, str] = field(default_factory=dict)
    """A format's own options as given (``dataset_id`` for model-index, ``tsv`` for
    vlmevalkit); a format ignores those it does not know."""


@dataclass
class Exported:
    """What a format writer wrote."""

    files: list[Path] = field(default_factory=list)
    """Files written."""
    skipped: list[str] = field(default_factory=list)
    """One line per benchmark left out and why (``pixar: no export rows; skipped``)."""
    notes: list[str] = field(default_factory=list)
    """Lines the user should read (cells a format could not hold as they were, and how many)."""


Writer = Callable[[ExportRequest], Exported]


@dataclass(frozen=True)
class ExportFormat:
    """A registered export format."""

    name: str
    """The ``--format`` value."""
    writer: Writer
    """Writes the export."""
    help: str = ""
    """One line for ``--help``."""


FORMATS: Registry[ExportFormat] = Registry("export format", base=ExportFormat)


def register_format(name: str, writer: Writer, help: str = "") -> ExportFormat:
    """Add (or replace) the format ``name``; returns it."""
    fmt = ExportFormat(name, writer, help)
    FORMATS.add(name, fmt)
    return fmt


def formats() -> dict[str, ExportFormat]:
    """Every registered format, by name (registration order)."""
    return dict(FORMATS.items())


def get_format(name: str) -> ExportFormat:
    """The format ``name``; :class:`UnknownFormat` naming the known ones."""
    if name not in FORMATS:
        raise UnknownFormat(
            f"--format: unknown format {name!r}; known: {', '.join(FORMATS.names())}"
        )
    return FORMATS.get(name)


def export_facet(suite: Suite) -> Export:
    """The suite's export facet (its rows, targets, formats), or the defaults of one."""
    return suite.facet(Export) or Export()


def table_of(suite: Suite, run_dir: Path, judge: str | None) -> pd.DataFrame:
    """The row-level table of one benchmark: the shared columns, then the suite's own."""
    # inside: light path (judge, metrics, report, export, ...)
    from forgebench.run.rows import SHARED_COLUMNS, task_rows

    shared = task_rows(run_dir, suite.name)
    own = export_facet(suite).rows(run_dir, judge)
    lead = list(SHARED_COLUMNS)
    if "epoch" in shared.columns:  # run --epochs: each later epoch read by the suite itself
        import pandas as pd

        lead.append("epoch")
        with epoch_views(run_dir, suite.name) as views:
            own = pd.concat([own, *(export_facet(suite).rows(v, judge) for _e, v in views)])
    extra = [c for c in own.columns if c not in lead]
    if not extra:
        return shared
    merged = shared.merge(
        own[["task_key", *extra]].drop_duplicates("task_key"), on="task_key", how="left"
    )
    return merged[[*lead, *extra]]


def _targets(req: ExportRequest, fmt: str, names: list[str]) -> dict[str, Path]:
    """Where each benchmark's table goes (see the module docstring)."""
    out = req.out
    if out is not None and out.suffix.lower() == f".{fmt}" and not out.is_dir():
        if len(names) != 1:
            raise UserError(
                f"--out {out}: the run holds {len(names)} benchmarks ({', '.join(names)}); "
                "give a folder, or --benchmark NAME"
            )
        return {names[0]: out}
    if out is None and len(names) == 1:
        return {names[0]: req.run_dir / f"export.{fmt}"}
    folder = out if out is not None else req.run_dir
    return {n: folder / f"export-{n}.{fmt}" for n in names}


def _write(table: pd.DataFrame, path: Path, fmt: str) -> None:
    # inside: light path (judge, metrics, report, export, ...)
    from forgebench.util.csvsafe import write_frame

    with atomic_path(path) as tmp:
        if fmt == "csv":
            write_frame(table, tmp)  # for people: no formulas, a CR never ends a row
        else:
            table.to_parquet(tmp, index=False)


def _table_writer(fmt: str) -> Writer:
    def write(req: ExportRequest) -> Exported:
        done = Exported()
        having = [s for s in req.suites if offers(s, "export")]
        done.skipped = [f"{s.name}: no export rows; skipped" for s in req.suites if s not in having]
        if not having:
            return done
        targets = _targets(req, fmt, [s.name for s in having])
        for suite in having:
            table = table_of(suite, req.run_dir, req.judge)
            _write(table, targets[suite.name], fmt)
            done.files.append(targets[suite.name])
        return done

    return write


register_format("csv", _table_writer("csv"), "one CSV per benchmark (spreadsheet-safe)")
register_format("parquet", _table_writer("parquet"), "one Parquet file per benchmark")
# the formats that write other tools' files, imported when asked for (or listed)
for _name in ("inspect", "model-index", "vlmevalkit"):
    FORMATS.add(_name, f"forgebench.interop.formats:{_name.upper().replace('-', '_')}")
