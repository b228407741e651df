"""The output verbs: ``tables``, ``figures``, ``report`` (each suite's section, then the page
with every item), ``export`` (through the format registry, :mod:`forgebench.exports`) and
``merge``."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from forgebench import suites
from forgebench._api import stages
from forgebench._api.common import StageResult, benchmarks_in, narrowed, run_dir_of, with_stage
from forgebench.errors import NothingToDo, UserError
from forgebench.exports import Exported, ExportRequest, get_format
from forgebench.suites.base import Facet, Figures, Judge, Report, Suite, Viewer
from forgebench.util.outpath import check_out

F = TypeVar("F", bound=Facet)


def tables(
    run_dir: str | Path,
    out: str | Path | None = None,
    *,
    judge: str | None = None,
    reps: int = 2000,
    benchmark: str | None = None,
) -> StageResult:
    """Each suite's tables (Markdown, LaTeX, CSV) under ``out`` (default ``RUN/report``)."""
    if not Path(run_dir).is_dir():
        raise UserError(f"{run_dir}: run directory not found")
    path = Path(run_dir)
    chosen, skipped = _present_with(path, "tables", benchmark)
    target = _checked_out(out)
    done = {s.name: stages.tables(s, path, target, judge, reps) for s in chosen}
    return StageResult(done, skipped)


def figures(
    run_dir: str | Path,
    out: str | Path | None = None,
    *,
    judge: str | None = None,
    benchmark: str | None = None,
) -> StageResult:
    """Each suite's figures (PNG and SVG) under ``out`` (default ``RUN/report/figures``);
    :class:`NothingToDo` when no figure could be drawn."""
    if not Path(run_dir).is_dir():
        raise UserError(f"{run_dir}: run directory not found")
    path = Path(run_dir)
    chosen, skipped = _present_with(path, "figures", benchmark)
    target = _checked_out(out)
    result = StageResult(
        {s.name: _facet(s, Figures).figures(path, target, judge) for s in chosen}, skipped
    )
    if not result.files:
        notes = "; ".join(n for o in result.outputs.values() for n in o.notes)
        raise NothingToDo(notes or f"{path / 'metrics.csv'}: no numbers any figure needs")
    return result


def _facet(suite: Suite, kind: type[F]) -> F:
    """The facet of a suite that offers its stage (``_present_with`` chose it)."""
    got = suite.facet(kind)
    assert got is not None, (suite.name, kind.kind)
    return got


def _checked_out(out: str | Path | None, *, file_ok: bool = False) -> Path | None:
    """``--out`` as a path, once :func:`forgebench.util.outpath.check_out` finds it writable."""
    if out is None:
        return None
    check_out(out, file_ok=file_ok)
    return Path(out)


def _present_with(path: Path, stage: str, benchmark: str | None) -> tuple[list[Suite], list[str]]:
    """Like ``stage_suites`` for verbs that read only ``metrics.csv`` (no store needed)."""
    return with_stage(narrowed(benchmarks_in(path), benchmark, path), stage, path)


def export(
    run_dir: str | Path,
    fmt: str = "csv",
    out: str | Path | None = None,
    judge: str | None = None,
    *,
    benchmark: str | None = None,
    options: Mapping[str, str] | None = None,
) -> Exported:
    """Write the run in the export format ``fmt`` (``csv``, ``parquet``, ``inspect``,
    ``model-index``, ``vlmevalkit`` and whatever else is registered in
    :mod:`forgebench.exports`): the files, and one "skipped" line per benchmark left out;
    :class:`NothingToDo` when nothing could be written. ``options``: the format's own
    (``dataset_id``, ``tsv``)."""
    writer = get_format(fmt)
    path = run_dir_of(run_dir)
    chosen = narrowed(benchmarks_in(path), benchmark, path)
    target = _checked_out(out, file_ok=out is not None and bool(Path(out).suffix))
    request = ExportRequest(path, target, chosen, judge, dict(options or {}))
    done = writer.writer(request)
    if not done.files:
        names = ", ".join(s.name for s in chosen) or "no benchmark"
        why = "".join(f"; {line}" for line in done.skipped)
        raise NothingToDo(f"{path}: nothing to export as {fmt} ({names}){why}")
    return done


@dataclass
class ReportResult:
    """What :func:`report` wrote."""

    index: Path
    """``RUN/report/index.html``."""
    notes: list[str] = field(default_factory=list)
    """Skipped tables and other notes, one line each."""
    warnings: list[str] = field(default_factory=list)
    """Problems met while building the page (pictures not rendered, ...)."""


def report(
    run_dir: str | Path,
    *,
    dataset: str | Path | None = None,
    judge: str | None = None,
    calibration: str | Path | None = None,
) -> ReportResult:
    """Each suite's tables, figures and section, then the page with every item and answer."""
    import html

    run_dir = run_dir_of(run_dir)
    if dataset is not None:
        suites.detect(Path(dataset))  # a folder no suite knows: one line
    if calibration is not None and not Path(calibration).is_file():
        raise UserError(f"{calibration}: not found")
    out = run_dir / "report"
    out.mkdir(parents=True, exist_ok=True)
    present = benchmarks_in(run_dir)  # a store that is not a run's: one line, before pandas loads
    # inside: light path (report, export)
    from forgebench.report.front import front_page
    from forgebench.report.site import build_site

    notes: list[str] = []
    parts: list[str] = []
    reports = {s.name: r for s in present if (r := s.facet(Report)) is not None}
    for suite in present:
        given = reports.get(suite.name)
        where = Path(dataset) if dataset is not None else None
        section = given.section(run_dir, out, judge, where) if given is not None else None
        if section is None:
            continue
        notes += section.notes
        parts.append(
            f'<section class="suite" id="suite-{html.escape(suite.name)}">'
            f"<h2>{html.escape(section.title)}</h2>{section.html}</section>"
        )
    parts.insert(0, front_page(run_dir, out, present, judge, reports))
    site = build_site(
        run_dir,
        out_dir=out,
        dataset_root=Path(dataset) if dataset is not None else None,
        judge=judge,
        calibration_csv=Path(calibration) if calibration is not None else None,
        sections_html="\n".join(parts),
        **viewer_hooks(present, run_dir, out),
    )
    return ReportResult(index=site.index, notes=notes, warnings=site.warnings)


def viewer_hooks(present: list[Suite], run_dir: Path, out: Path) -> dict[str, Any]:
    """What the viewer takes from the run's suites: each item's pictures, card lines and
    details, tags and answers (with the pictures an answer made) from its own suite, with the
    names of each suite's grouping facets; the verdict and level facets in the suites' display
    order; the rubric of the calibration view (the first suite that has one)."""
    viewers = {s.name: s.facet(Viewer) or Viewer() for s in present}
    first = viewers[present[0].name] if present else None
    rubrics = [r for s in present if (j := s.facet(Judge)) is not None and (r := j.rubric())]

    def viewer_of(item: Mapping[str, Any]) -> Viewer:
        got = viewers.get(str(item.get("benchmark") or "")) or first
        return got if got is not None else Viewer()

    def variant_views(root: Path, item: dict[str, Any]) -> Iterator[tuple[str, Any]]:
        return viewer_of(item).views(root, item)

    return {
        "variant_views": variant_views if first is not None else None,
        "rubric": rubrics[0] if rubrics else "",
        "verdicts": [c for v in viewers.values() for c in v.verdict_codes],
        "levels": [c for v in viewers.values() for c in v.level_codes],
        "answer_views": {  # only suites that show more than the stored verdict
            name: v.answer for name, v in viewers.items() if type(v).answer is not Viewer.answer
        },
        "answer_pictures": {  # only suites whose answers make pictures
            name: functools.partial(v.answer_pictures, run_dir, out)
            for name, v in viewers.items()
            if type(v).answer_pictures is not Viewer.answer_pictures
        },
        "pair_answers": {  # only suites that show pairs scored from files
            name: v.pair_answer
            for name, v in viewers.items()
            if type(v).pair_answer is not Viewer.pair_answer
        },
        "item_facts": lambda item: viewer_of(item).facts(item),
        "item_tags": lambda item: viewer_of(item).tags(item),
        "item_card": lambda item: viewer_of(item).card(item),
        "group_labels": {name: v.group_labels for name, v in viewers.items()},
    }


def _rescore(benchmark: str, run_dir: Path, judge: str | None) -> Path | None:
    """The suite's ``score`` of a merged run (None for a benchmark no suite here knows), with
    the spread rows of a run with repeats (:mod:`forgebench.results.epochs`)."""
    try:
        suite = suites.get(benchmark)
    except suites.SuiteError:
        return None
    return stages.score(suite, run_dir, judge)


def merge(runs: Sequence[str | Path], out: str | Path) -> Any:
    """Merge runs made on different machines into the new run ``out``: tasks, answers and grades
    unioned by key; conflicting answers are refused (nothing written). Its ``MergeStats``."""
    # inside: light path (report, export)
    from forgebench.run.merge import merge_runs

    return merge_runs([Path(r) for r in runs], Path(out), rescore=_rescore)
