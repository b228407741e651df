"""The Python API: every stage as a typed function; the CLI only wraps these.

A notebook drives a whole study without the command line::

    from forgebench import api
    result = api.run("data/mandela", "runs/r1", ["qwen=openai/Qwen3-VL-8B@http://127.0.0.1:8000/v1"])
    api.judge("runs/r1", "builtin/rules")
    api.metrics("runs/r1")            # RUN/metrics.csv (each suite writes its own rows)
    api.report("runs/r1")             # RUN/report/index.html
    api.export("runs/r1", "parquet")

Benchmarks are found by :mod:`forgebench.suites` (the dataset folder tells which); errors a user
can cause raise exceptions with one-line messages (``SuiteError``, ``SpecError``, ``StoreError``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forgebench import suites
from forgebench.models.spec import ModelConfig
from forgebench.run.generate import GenerationResult, GenerationSettings, run_generation
from forgebench.run.judging import JudgeSettings
from forgebench.run.progress import RunProgress
from forgebench.run.source import Selection
from forgebench.suites.base import ItemCard, ItemTags, JudgeOutcome, Suite

if TYPE_CHECKING:
    from rich.console import Console

__all__ = [
    "GenerationSettings",
    "JudgeSettings",
    "ReportResult",
    "Selection",
    "benchmarks_in",
    "export",
    "export_dataset",
    "export_format",
    "import_hf_dataset",
    "judge",
    "metrics",
    "report",
    "run",
]


def _configs(models: Sequence[str | ModelConfig]) -> list[ModelConfig]:
    return [m if isinstance(m, ModelConfig) else ModelConfig(spec=m) for m in models]


def run(
    dataset: str | Path,
    run_dir: str | Path,
    models: Sequence[str | ModelConfig],
    settings: GenerationSettings | None = None,
    *,
    benchmark: str | None = None,
    progress: RunProgress | None = None,
) -> GenerationResult:
    """Ask every model every pending question of the dataset's benchmark (resumable)."""
    suite = suites.detect(Path(dataset), benchmark)
    return run_generation(
        suite, Path(dataset), Path(run_dir), _configs(models), settings, progress=progress
    )


def benchmarks_in(run_dir: str | Path) -> list[Suite]:
    """The suites that have tasks in a run, or rows in its metrics.csv (registered ones only)."""
    from forgebench.results.metrics_csv import read_rows
    from forgebench.run.store import Store

    run_dir = Path(run_dir)
    names: set[str] = set()
    if (run_dir / "run.sqlite").is_file():
        with Store.open(run_dir, create=False) as store:
            names.update(store.benchmarks())
    names.update(r["benchmark"] for r in read_rows(run_dir / "metrics.csv"))
    return [s for s in suites.all_suites() if s.name in names]


def judge(
    run_dir: str | Path,
    spec: str | ModelConfig,
    settings: JudgeSettings | None = None,
    *,
    concurrency: int | None = None,
    rpm: float | None = None,
    max_attempts: int | None = None,
    retry_unscored: bool = False,
    console: Console | None = None,
) -> list[JudgeOutcome]:
    """Run the judge stage of every suite of the run with the judge ``spec`` (Mandela's E0-E4
    grades, Forensics' option extraction, ...); what each did. ``settings`` says how the judge
    is asked; the keywords are shorthands that override it: ``concurrency``, ``rpm`` and
    ``max_attempts`` (default: the judge config's, attempts at most 3), ``retry_unscored`` (ask
    again for replies stored as unscored), ``console`` (draws a progress bar)."""
    config = spec if isinstance(spec, ModelConfig) else ModelConfig(spec=spec, max_tokens=None)
    base = settings or JudgeSettings()
    chosen = dataclasses.replace(
        base,
        concurrency=concurrency if concurrency is not None else base.concurrency,
        rpm=rpm if rpm is not None else base.rpm,
        max_attempts=max_attempts if max_attempts is not None else base.max_attempts,
        retry_unscored=retry_unscored or base.retry_unscored,
        console=console if console is not None else base.console,
    )
    out: list[JudgeOutcome] = []
    for suite in benchmarks_in(run_dir):
        outcome = suite.judge(Path(run_dir), config, chosen)
        if outcome is not None:
            out.append(outcome)
    return out


def metrics(run_dir: str | Path, judge: str | None = None) -> Path | None:
    """Parse and score every suite of the run into ``RUN/metrics.csv``; its path (None: nothing
    to score). Each suite replaces only its own rows."""
    path: Path | None = None
    for suite in benchmarks_in(run_dir):
        path = suite.score(Path(run_dir), judge) or path
    return path


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

    from forgebench.report.front import front_page
    from forgebench.report.site import build_site

    run_dir = Path(run_dir)
    out = run_dir / "report"
    out.mkdir(parents=True, exist_ok=True)
    present = benchmarks_in(run_dir)
    notes: list[str] = []
    parts: list[str] = []
    for suite in present:
        section = suite.report(run_dir, out, judge)
        if section is None:
            continue
        notes += section.notes
        parts.append(
            f'<section class="suite" id="suite-{html.escape(suite.name)}">'
            f"<h2>{html.escape(section.title)}</h2>{section.html}</section>"
        )
    parts.insert(0, front_page(run_dir, out, present, judge))
    site = build_site(
        run_dir,
        out_dir=out,
        dataset_root=Path(dataset) if dataset is not None else None,
        judge=judge,
        calibration_csv=Path(calibration) if calibration is not None else None,
        sections_html="\n".join(parts),
        **_viewer_hooks(present),
    )
    return ReportResult(index=site.index, notes=notes, warnings=site.warnings)


def _viewer_hooks(present: list[Suite]) -> dict[str, Any]:
    """What the viewer takes from the run's suites: each item's pictures, card lines and details, tags and
    answers from its own suite, with the names of each suite's grouping facets; the verdict and level facets in the suites' display order; the rubric
    of the calibration view (Mandela's, else the first suite's)."""
    by_name = {s.name: s for s in present}
    first = by_name.get("mandela") or (present[0] if present else None)

    def suite_of(item: Mapping[str, Any]) -> Suite | None:
        return by_name.get(str(item.get("benchmark") or "")) or first

    def variant_views(root: Path, item: dict[str, Any]) -> Iterator[tuple[str, bytes]]:
        suite = suite_of(item)
        return suite.variant_views(root, item) if suite is not None else iter(())

    def item_facts(item: Mapping[str, Any]) -> list[tuple[str, str]]:
        suite = suite_of(item)
        return suite.viewer_facts(item) if suite is not None else []

    def item_tags(item: Mapping[str, Any]) -> ItemTags:
        suite = suite_of(item)
        return suite.viewer_tags(item) if suite is not None else ItemTags()

    def item_card(item: Mapping[str, Any]) -> ItemCard:
        suite = suite_of(item)
        return suite.viewer_card(item) if suite is not None else ItemCard()

    return {
        "variant_views": variant_views if first is not None else None,
        "rubric": first.rubric() if first is not None else "",
        "verdicts": [c for s in present for c in s.verdict_codes],
        "levels": [c for s in present for c in s.level_codes],
        "answer_views": {  # only suites that show more than the stored verdict
            s.name: s.viewer_answer
            for s in present
            if type(s).viewer_answer is not Suite.viewer_answer
        },
        "item_facts": item_facts,
        "item_tags": item_tags,
        "item_card": item_card,
        "group_labels": {s.name: s.group_labels for s in present},
    }


def export(
    run_dir: str | Path, fmt: str = "csv", out: str | Path | None = None, judge: str | None = None
) -> Path:
    """The row-level table of the run's Mandela tasks (one row per task) as CSV or Parquet."""
    from forgebench.suites.mandela.export import export_run

    return export_run(Path(run_dir), fmt, Path(out) if out is not None else None, judge)


RUN_FORMATS = ("inspect", "model-index", "vlmevalkit")
"""The ``export`` formats that write another tool's files (csv and parquet are the row tables)."""


@dataclass
class FormatExport:
    """What :func:`export_format` wrote."""

    written: list[Path]
    """The files written."""
    skipped: list[str]
    """One line per benchmark without the format."""


def export_format(
    run_dir: str | Path,
    fmt: str,
    out: str | Path,
    *,
    judge: str | None = None,
    dataset_id: str | None = None,
    tsv: bool = False,
    benchmark: str | None = None,
) -> FormatExport:
    """``export RUN --format inspect|model-index|vlmevalkit --out DIR``: the run (or the one
    ``benchmark`` of it) in another tool's format. :class:`~forgebench.errors.UserError` when
    the run cannot be read or no benchmark of it has the format."""
    from forgebench import suites
    from forgebench.interop.model_index import ExportError
    from forgebench.interop.run_formats import Benchmark, RunExport, write_model_index_all
    from forgebench.run.store import Store, StoreError

    if fmt not in RUN_FORMATS:
        raise ExportError(f"--format: unknown format {fmt!r}; known: {', '.join(RUN_FORMATS)}")
    run_dir, out = Path(run_dir), Path(out)
    try:
        with Store.open(run_dir, create=False) as store:
            names = store.benchmarks()
    except StoreError as exc:
        raise ExportError(str(exc)) from None
    if benchmark is not None:
        if benchmark not in names:
            raise ExportError(f"{run_dir}: holds no {benchmark!r} tasks ({', '.join(names)})")
        names = [benchmark]
    infos = {}
    for name in names:
        suite = suites.get(name)
        infos[name] = Benchmark(
            name, suite.title, suite.headline, suite.export_target, suite.reading_scores
        )
    request = RunExport(run_dir, out, infos, judge, dataset_id, tsv)
    result = FormatExport([], [])
    if fmt == "model-index":
        result.written = write_model_index_all(request)
    elif fmt == "inspect":
        from forgebench.interop.inspect_log import write_inspect_logs

        for name in names:
            result.written += write_inspect_logs(request, name)
    else:
        for name in names:
            writer = suites.get(name).run_formats().get(fmt)
            if writer is None:
                result.skipped.append(f"skipped {name}: it has no {fmt} format")
                continue
            result.written += writer(request, name)
        if not result.written:
            raise ExportError(
                f"{run_dir}: no benchmark of the run has the {fmt} format"
                + "".join(f"; {line}" for line in result.skipped)
            )
    return result


def export_dataset(
    dataset: str | Path, fmt: str, out: str | Path, *, license: str = ""
) -> tuple[str, Path, int]:
    """``export-dataset DATASET --format hf|<a suite's own> --out DIR``: ``(benchmark, written
    path, rows)``. ``hf`` is a Hugging Face ``datasets`` folder of every suite with a table
    layout; a suite adds its own formats (Forensics: ``release-tsv``)."""
    from forgebench.interop.hf_export import export_hf
    from forgebench.suites import SuiteError, detect

    dataset, out = Path(dataset), Path(out)
    suite = detect(dataset)
    own = suite.dataset_formats()
    if fmt in own:
        path, rows = own[fmt](dataset, out)
        return suite.name, path, rows
    layout = suite.dataset_layout() if fmt == "hf" else None
    if layout is None:
        known = (["hf"] if suite.dataset_layout() is not None else []) + sorted(own)
        raise SuiteError(
            f"--format {fmt!r}: not a dataset format of {suite.name} "
            f"(known: {', '.join(known) or 'none'})"
        )
    return suite.name, out, export_hf(dataset, layout, out, license=license)


def import_hf_dataset(
    src: str | Path, out: str | Path, *, force: bool = False
) -> tuple[str, int] | None:
    """``import HF_FOLDER --out DATASET``: a folder written by ``export-dataset --format hf``
    back into its suite's dataset folder, validated before it moves into place; ``(benchmark,
    items)``, or None when ``src`` is no such folder."""
    from forgebench.interop.hf_import import HFImportError, import_hf, read_meta
    from forgebench.suites import get

    src, out = Path(src), Path(out)
    meta = read_meta(src)
    if meta is None:
        return None
    suite = get(str(meta.get("benchmark")))
    layout = suite.dataset_layout()
    if layout is None:
        raise HFImportError(f"{src}: {suite.name} has no dataset table layout to import")
    return suite.name, import_hf(src, out, layout, force=force, validate=suite.validate)
