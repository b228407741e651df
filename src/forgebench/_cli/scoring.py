"""CLI commands of the scoring stage: ``judge``, ``metrics``, ``calibrate sample|score``, ``export``.

:func:`print_summary` prints the Table-2-style summary (``forgebench metrics`` and the demo use it).
"""

from __future__ import annotations

import math
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from forgebench._cli.app import app, console, err_console, fail
from forgebench._cli.guard import paid_stage, wait_option
from forgebench.suites.mandela.contract import FAMILIES

calibrate_app = typer.Typer(
    help="Judge calibration against human grades (Appendix F).", no_args_is_help=True
)
app.add_typer(calibrate_app, name="calibrate")


def _run_dir(run_dir: Path) -> Path:
    if not (run_dir / "run.sqlite").is_file():
        fail(f"{run_dir}: not a run directory (no run.sqlite)", 2)
    return run_dir


def parse_verdicts(run_dir: Path) -> None:
    """Store a verdict for every answer lacking one (the verdict stage); prints a count line."""
    from forgebench.run.store import Store, StoreError
    from forgebench.suites.mandela.parse_run import parse_run

    try:
        with Store.open(run_dir, create=False) as store:
            stats = parse_run(store)
    except StoreError as exc:
        fail(str(exc), 2)
    if stats.parsed:
        err_console.print(
            f"verdicts: {stats.parsed} answers parsed ({stats.misses} misses)", markup=False
        )


@app.command("judge")
def judge_cmd(
    run_dir: Path = typer.Argument(..., help="Run directory."),
    judge: str = typer.Option(
        ..., "--judge", help="Judge model spec, e.g. builtin/rules or qj=openai/Qwen3.8-27B@URL."
    ),
    concurrency: int | None = typer.Option(
        None, "--concurrency", min=1, help="Judge requests in flight."
    ),
    rpm: float | None = typer.Option(None, "--rpm", min=0.001, help="Judge requests per minute."),
    max_attempts: int = typer.Option(
        3, "--max-attempts", min=1, help="Attempts per answer (invalid replies included)."
    ),
    retry_unscored: bool = typer.Option(
        False, "--retry-unscored", help="Ask again for answers stored as unscored."
    ),
    wait: bool = wait_option(),
) -> None:
    """The judge stage of every benchmark in the run: Mandela's E0-E4 grades (Appendix F),
    Forensics' option extraction, ... (verdicts are parsed first)."""
    from forgebench import api
    from forgebench.models.spec import SpecError, parse_spec
    from forgebench.run.judging import JudgeSettings

    _run_dir(run_dir)
    try:
        parse_spec(judge)
    except SpecError as exc:
        fail(f"--judge: {exc}", 2)
    with paid_stage(run_dir, "judge", wait):
        parse_verdicts(run_dir)
        try:
            settings = JudgeSettings(
                concurrency=concurrency, rpm=rpm, max_attempts=max_attempts,
                retry_unscored=retry_unscored, console=err_console,
            )  # fmt: skip
            outcomes = api.judge(run_dir, judge, settings)
        except SpecError as exc:
            fail(str(exc), 2)
        for o in outcomes:
            console.print(o.summary, markup=False)
        if any(o.fatal for o in outcomes):
            raise typer.Exit(1)


@app.command("metrics")
def metrics_cmd(
    run_dir: Path = typer.Argument(..., help="Run directory."),
    judge: str | None = typer.Option(
        None, "--judge", help="Judge whose grades KGR/E4 use (default: the only one)."
    ),
) -> None:
    """Write each benchmark's rows of RUN/metrics.csv and print a Table-2-style summary."""
    from forgebench import api
    from forgebench.suites import SuiteError
    from forgebench.suites.mandela.frame import FrameError

    _run_dir(run_dir)
    parse_verdicts(run_dir)
    try:
        path = api.metrics(run_dir, judge)
    except (FrameError, SuiteError) as exc:
        fail(str(exc), 2)
    if path is None:
        fail(f"{run_dir}: nothing to score (no benchmark with answers)", 2)
    print_summaries(run_dir, judge, console)
    console.print(f"metrics written: {path}", markup=False)


def print_summaries(run_dir: Path, judge: str | None, out: Console) -> None:
    """The console summary of each benchmark in the run's metrics.csv (Mandela, Forensics)."""
    from forgebench import api

    benchmarks = {s.name for s in api.benchmarks_in(run_dir)}
    if "mandela" in benchmarks:
        print_summary(run_dir, judge, out)
    if "forensics" in benchmarks:
        from forgebench.results.metrics_csv import read_metrics
        from forgebench.suites.forensics.report_section import summary_table

        table = summary_table(
            read_metrics(run_dir / "metrics.csv", benchmark="forensics", judge=judge)
        )
        if table is not None:
            out.print(table)


def _fmt(v: object, signed: bool = False) -> str:
    if not isinstance(v, int | float) or math.isnan(v):
        return "—"
    return f"{v:+.1f}" if signed else f"{v:.1f}"


def print_summary(run_dir: Path, judge: str | None, out: Console) -> None:
    """Table-2-style summary from ``RUN/metrics.csv`` (written first if absent): per model KGR,
    Det, Auth, Bal under L0 and L1, L-adv Auth, L0 KGR by family and the elicitation gap."""
    from forgebench.suites.mandela.metrics import write_metrics

    path = Path(run_dir) / "metrics.csv"
    if not path.is_file():
        write_metrics(Path(run_dir), judge)
    import pandas as pd

    m = pd.read_csv(path, keep_default_na=False, na_values=[""], dtype={"judge": str})
    if judge is not None:
        m = m[(m["judge"].isna()) | (m["judge"] == judge)]
    lookup: dict[tuple[object, ...], object] = {
        (r.model, r.probe, r.condition, r.subset, r.metric): r.value
        for r in m.itertuples(index=False)
    }
    judges = sorted(set(m["judge"].dropna()))
    models = sorted(set(m["model"]))
    t = Table(title=f"Mandela results (strict scoring; judge: {', '.join(judges) or 'none'})")
    t.add_column("Model", overflow="fold")
    for probe in ("L0", "L1"):
        for k in ("KGR", "Det", "Auth", "Bal"):
            t.add_column(f"{probe}\n{k}", justify="right")
    t.add_column("L-adv\nAuth", justify="right")
    t.add_column("ΔKGR", justify="right")
    fam = Table(title="KGR by knowledge family (L0)")
    fam.add_column("Model")
    for f in FAMILIES:
        fam.add_column(f, justify="right")
    for model in models:
        cells = [str(model)]
        for probe in ("L0", "L1"):
            for k in ("kgr", "det", "auth", "bal"):
                cells.append(_fmt(lookup.get((model, probe, "full", "all", k))))
        cells.append(_fmt(lookup.get((model, "L-adv", "full", "all", "auth"))))
        cells.append(_fmt(lookup.get((model, "L1", "full", "all", "gap")), signed=True))
        t.add_row(*cells)
        fam.add_row(
            str(model), *(_fmt(lookup.get((model, "L0", "full", f, "kgr"))) for f in FAMILIES)
        )
    out.print(t)
    out.print(fam)
    out.print("ΔKGR = KGR(L1) - KGR(L0), the elicitation gap; — = not in this run.", markup=False)


@calibrate_app.command("sample")
def calibrate_sample(
    run_dir: Path = typer.Argument(..., help="Run directory."),
    n: int = typer.Option(210, "--n", min=1, help="Answers to sample (the paper: 210)."),
    judge: str | None = typer.Option(
        None, "--judge", help="Judge whose levels stratify the sample."
    ),
    out: Path | None = typer.Option(
        None, "--out", help="CSV to write (default RUN/calibration_sample.csv)."
    ),
    seed: int = typer.Option(0, "--seed", help="Sampling seed."),
) -> None:
    """Write a blinded sample stratified by model, probe, verdict and judge level, for human grading."""
    from forgebench.suites.mandela.calibration_io import CalibrationError, draw_sample
    from forgebench.suites.mandela.frame import FrameError, load_frame

    _run_dir(run_dir)
    try:
        sample = draw_sample(run_dir, load_frame(run_dir, judge), n, seed)
    except (FrameError, CalibrationError) as exc:
        fail(str(exc), 2)
    path = out or run_dir / "calibration_sample.csv"
    tmp = path.with_name(f".{path.name}.tmp")
    from forgebench.util.csvsafe import neutralise_frame

    neutralise_frame(sample).to_csv(tmp, index=False)  # for people: no formulas
    tmp.replace(path)
    console.print(
        f"{len(sample)} answers sampled -> {path} (fill human_level with E0-E4)", markup=False
    )


@calibrate_app.command("score")
def calibrate_score(
    run_dir: Path = typer.Argument(..., help="Run directory."),
    human: Path | None = typer.Argument(None, help="Graded sample CSV (human_level filled)."),
    judge: str | None = typer.Option(
        None, "--judge", help="Judge compared with the human (or the reference judge)."
    ),
    against: str | None = typer.Option(
        None, "--against-judge", help="Compare this judge with --judge (or with the human)."
    ),
) -> None:
    """Agreement of a judge with human grades (Table 4 layout), or of two judges."""
    from forgebench.analysis.calibration import agreement, by_level, confusion
    from forgebench.suites.mandela.calibration_io import (
        CalibrationError,
        judge_levels,
        pair_levels,
        read_levels,
    )
    from forgebench.suites.mandela.frame import FrameError, connect, resolve_judge

    _run_dir(run_dir)
    try:
        if human is None and (judge is None or against is None):
            raise CalibrationError("give HUMAN.csv, or two judges with --judge A --against-judge B")
        if human is not None:
            con = connect(run_dir)
            try:
                name = against or resolve_judge(con, judge)
            finally:
                con.close()
            if name is None:
                raise CalibrationError("no judge grades in this run: run forgebench judge first")
            reference, blank = read_levels(human)
            ref_name, col_name = "Human", name
        else:
            assert judge is not None and against is not None
            reference, blank = judge_levels(run_dir, judge), 0
            ref_name, col_name = judge, against
        pairs = pair_levels(reference, judge_levels(run_dir, col_name))
        if not pairs:
            raise CalibrationError(f"no answer has both a {ref_name} level and a {col_name} level")
    except (FrameError, CalibrationError) as exc:
        fail(str(exc), 2)
    matrix = confusion(pairs)
    a = agreement(matrix)
    t = Table(title=f"{ref_name} (rows) against {col_name} (columns), {a['n']} answers")
    for col in (ref_name, "E0", "E1", "E2", "E3", "E4", "n", "exact", "±1"):
        t.add_column(col, justify="left" if col == ref_name else "right")
    for lvl, row in enumerate(by_level(matrix)):
        ex = "-" if row["n"] == 0 else f"{row['exact']:.1f}"
        w1 = "-" if row["n"] == 0 else f"{row['within_one']:.1f}"
        t.add_row(f"E{lvl}", *(str(int(v)) for v in matrix[lvl]), str(row["n"]), ex, w1)
    console.print(t)
    console.print(
        f"exact {a['exact']:.1f}%  kappa {_kappa(a['kappa'])}  "
        f"weighted kappa {_kappa(a['weighted_kappa'])}  "
        f"within one {a['within_one']:.1f}%  E0 vs E1+ {a['e0_agreement']:.1f}%  "
        f"E3+ vs below {a['kgr_agreement']:.1f}%  judge above {a['judge_above']}, below {a['judge_below']}",
        markup=False,
    )
    if blank or len(pairs) < len(reference):
        console.print(
            f"skipped: {blank} rows without a level, {len(reference) - len(pairs)} without a {col_name} level",
            markup=False,
        )


@app.command("export")
def export_cmd(
    run_dir: Path = typer.Argument(..., help="Run directory."),
    fmt: str = typer.Option(
        "csv", "--format", help="csv, parquet, inspect, vlmevalkit or model-index."
    ),
    out: Path | None = typer.Option(
        None, "--out", help="File to write (default RUN/export.FORMAT); a folder for the others."
    ),
    judge: str | None = typer.Option(
        None, "--judge", help="Judge whose grades to include (default: the only one)."
    ),
    dataset_id: str | None = typer.Option(
        None, "--dataset-id", help="model-index: dataset.type (default forgebench/<benchmark>)."
    ),
    tsv: bool = typer.Option(False, "--tsv", help="vlmevalkit: .tsv files instead of .xlsx."),
) -> None:
    """Write the row-level table (one row per task) for analysis elsewhere, or the run in another
    tool's format: Inspect logs, VLMEvalKit prediction files, model-card model-index blocks."""
    from forgebench._cli.interop import export_run_format
    from forgebench.api import RUN_FORMATS
    from forgebench.suites.mandela.export import FORMATS, export_run
    from forgebench.suites.mandela.frame import FrameError

    if fmt in RUN_FORMATS:
        if out is None:
            fail(f"--format {fmt}: give --out DIR", 2)
        export_run_format(run_dir, fmt, out, judge=judge, dataset_id=dataset_id, tsv=tsv)
        return
    if fmt not in FORMATS:
        fail(f"--format: unknown format {fmt!r}; known: {', '.join(FORMATS)}", 2)
    _run_dir(run_dir)
    parse_verdicts(run_dir)
    try:
        path = export_run(run_dir, fmt, out, judge)
    except FrameError as exc:
        fail(str(exc), 2)
    console.print(f"exported: {path}", markup=False)


def _kappa(value: float) -> str:
    """A kappa for the console: ``undefined`` when both graders used one level (0/0)."""
    return "undefined" if value != value else f"{value:.2f}"
