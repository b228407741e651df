"""What every verb of the API shares: finding the run's benchmarks, choosing those that have a
stage, and the one-line "skipped" notes for the others."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from forgebench import suites
from forgebench.errors import NothingToDo, UserError
from forgebench.results.metrics_csv import read_rows
from forgebench.run.rundir import DB_NAME, RunDir
from forgebench.run.store import Store
from forgebench.suites.base import Output, Suite, offers


def run_dir_of(run_dir: str | Path) -> Path:
    """``run_dir`` as a Path; :class:`~forgebench.run.rundir.NotARun` when it holds no store
    (:meth:`RunDir.check`)."""
    return RunDir.check(run_dir).path


def benchmarks_in(run_dir: str | Path) -> list[Suite]:
    """The suites that have tasks in a run, or rows in its metrics.csv (registered ones only)."""
    run_dir = Path(run_dir)
    names: set[str] = set()
    if RunDir(run_dir).is_run():
        with Store.open(run_dir, create=False) as store:
            names.update(store.benchmarks())
    names.update(r["benchmark"] for r in read_rows(run_dir / "metrics.csv"))
    return [s for s in suites.all_suites() if s.name in names]


def narrowed(present: list[Suite], benchmark: str | None, where: Path) -> list[Suite]:
    """``present`` narrowed to ``--benchmark NAME`` (a name the run does not hold: exit 2)."""
    if benchmark is None:
        return present
    suites.get(benchmark)  # an unknown name: one line naming the known ones
    chosen = [s for s in present if s.name == benchmark]
    if not chosen:
        held = ", ".join(s.name for s in present) or "none"
        raise UserError(f"{where}: holds no {benchmark} tasks (benchmarks: {held})")
    return chosen


def with_stage(
    chosen: list[Suite], stage: str, where: Path, *, what: str | None = None
) -> tuple[list[Suite], list[str]]:
    """The suites of ``chosen`` that offer ``stage`` and one "skipped" line per other one;
    :class:`NothingToDo` (exit 2) when none does."""
    what = what or f"{stage} stage"
    if not chosen:
        raise NothingToDo(
            f"{where}: holds no benchmark yet (no tasks in {DB_NAME}, no rows in metrics.csv)"
        )
    having = [s for s in chosen if offers(s, stage)]
    skipped = [f"{s.name}: no {what}; skipped" for s in chosen if s not in having]
    if not having:
        names = ", ".join(s.name for s in chosen)
        raise NothingToDo(f"{where}: no benchmark in it has a {what} ({names})")
    return having, skipped


def stage_suites(
    run_dir: str | Path, stage: str, benchmark: str | None = None, *, what: str | None = None
) -> tuple[list[Suite], list[str]]:
    """The run's suites that have ``stage`` (narrowed by ``benchmark``), and the skipped lines."""
    path = run_dir_of(run_dir)
    return with_stage(narrowed(benchmarks_in(path), benchmark, path), stage, path, what=what)


@dataclass
class StageResult:
    """What a stage verb did on each benchmark that has the stage."""

    outputs: dict[str, Output] = field(default_factory=dict)
    """By benchmark name, in registry order."""
    skipped: list[str] = field(default_factory=list)
    """One line per benchmark of the run without the stage (``forensics: no calibration
    stage; skipped``)."""

    @property
    def files(self) -> list[Path]:
        """Every file written."""
        return [f for o in self.outputs.values() for f in o.files]
