"""CLI commands (running): ``run``, ``status``, ``cache clean``, ``export-batch``, ``import-batch``.

Exit codes of ``forgebench run``: 0 every task answered; 1 a model failed (a request the server
rejects, an unreachable server) or tasks ended as errors (``--retry-errors`` tries them again);
2 a usage error (bad flag, bad file, bad spec, a dataset ``validate`` rejects); 3 stopped by
``--max-cost``; 4 the run directory is in use by another paid stage (``--wait`` waits for it);
130 interrupted (Ctrl-C); everything answered is kept in every case.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from forgebench._cli.app import app, console, err_console, fail, model_configs, money
from forgebench._cli.guard import os_error_line, paid_stage, wait_option
from forgebench._cli.scaling import (
    check_executor,
    executor_option,
    get_executor,
    ray_address_option,
    workers_option,
)
from forgebench.errors import UserError
from forgebench.suites import Selection, Suite, SuiteError

if TYPE_CHECKING:
    from forgebench.models.spec import ModelConfig
    from forgebench.run.generate import GenerationResult

cache_app = typer.Typer(help="The image-variant cache.", no_args_is_help=True)
app.add_typer(cache_app, name="cache")


def _judge_and_metrics(run_dir: Path, judge: str) -> int:
    """``run --judge``: the judge stage (verdicts, then grades), metrics.csv and the summary;
    returns an exit code."""
    from forgebench import api
    from forgebench._cli.scoring import print_summaries
    from forgebench.run.judging import JudgeSettings

    with paid_stage(run_dir, "judge", True):
        outcomes = api.judge(run_dir, judge, JudgeSettings(console=err_console))
    for o in outcomes:
        err_console.print(o.summary, markup=False)
        if o.fatal:
            err_console.print(f"error: judge {judge}: {o.fatal}", markup=False)
            return 1
    name = outcomes[0].judge if outcomes else None
    path = api.metrics(run_dir, name)
    print_summaries(run_dir, name, console)
    console.print(f"wrote {path}", markup=False)
    return 0


def print_replicas(run_dir: Path, models: set[str]) -> None:
    """One line per replica of ``models`` (the run's stored totals), when any used replicas."""
    from forgebench.run.replica_stats import load_replicas
    from forgebench.run.store import Store

    with Store.open(run_dir, create=False) as store:
        rows = [r for r in load_replicas(store) if r.model in models]
    for r in rows:
        lat = "-" if r.mean_latency_s is None else f"{r.mean_latency_s * 1000:.0f} ms"
        err_console.print(
            f"{r.model} @ {r.url}: {r.answered} answered, {r.errors} errors, "
            f"{r.timeouts} timeouts, {r.rests} rests, "
            f"mean latency {lat}",
            markup=False,
        )


def _report(result: GenerationResult, progress_shown: bool) -> int:
    """Print the outcome of a run; return its exit code."""
    code = 0
    for m in result.models:
        if not progress_shown:
            err_console.print(
                f"{m.name}: {m.tasks - m.remaining}/{m.tasks} answered, {m.errors} errors, "
                f"{m.stats.retries} retries",
                markup=False,
            )
        if m.stats.fatal:
            skipped = m.remaining - m.errors
            err_console.print(
                f"error: model {m.name}: {m.stats.fatal} ({skipped} tasks not sent)", markup=False
            )
            code = 1
        elif m.errors and not result.interrupted:
            err_console.print(
                f"warning: model {m.name}: {m.errors} tasks ended as errors; "
                "run again with --retry-errors to retry them",
                markup=False,
            )
            code = 1
    if result.budget_stopped:
        err_console.print(
            f"stopped: --max-cost reached (${result.spent_usd or 0:.2f} spent); "
            f"{result.remaining} tasks remain",
            markup=False,
        )
        code = 3
    if result.interrupted:
        err_console.print(
            f"interrupted: {result.remaining} tasks remain; answers so far are saved, "
            "run the same command to resume",
            markup=False,
        )
        code = 130
    return code


@app.command("run")
def run(
    dataset: Path = typer.Argument(..., help="Dataset folder (items.jsonl + images)."),
    model: list[str] = typer.Option(
        [], "--model", help="[ALIAS=]PROVIDER/MODEL[@BASE_URL]; repeatable."
    ),
    models_file: Path | None = typer.Option(None, "--models-file", help="TOML file of [[models]]."),
    judge: str | None = typer.Option(
        None, "--judge", help="Judge model spec; judges and writes metrics.csv after generation."
    ),
    probes: str | None = typer.Option(
        None, "--probes", help="Comma-separated probes (narrows the protocol table)."
    ),
    conditions: str | None = typer.Option(
        None, "--conditions", help="Comma-separated conditions (narrows)."
    ),
    out: Path | None = typer.Option(
        None, "--out", help="Run directory (default runs/<dataset folder name>)."
    ),
    concurrency: int | None = typer.Option(
        None,
        "--concurrency",
        min=1,
        help="Requests in flight per model (overrides the models file).",
    ),
    rpm: float | None = typer.Option(
        None, "--rpm", min=0.001, help="Requests per minute per model."
    ),
    limit: int | None = typer.Option(
        None,
        "--sample",
        "--limit",
        min=1,
        help="The benchmark's sample (Mandela: the items of the first N seeds, pairs complete).",
    ),
    protocol: str | None = typer.Option(
        None,
        "--protocol",
        help="Opt-in protocol parts to run besides the default, comma-separated.",
    ),
    benchmark: str | None = typer.Option(
        None, "--benchmark", help="The dataset's benchmark (default: recognised from the folder)."
    ),
    retry_errors: bool = typer.Option(
        False, "--retry-errors", help="Try tasks that ended as errors again."
    ),
    dry_run: bool = typer.Option(
        False,
        "--dry-run",
        help="Print one request per model, task counts, tokens and cost; send nothing.",
    ),
    max_cost: float | None = typer.Option(
        None,
        "--max-cost",
        callback=lambda ctx, param, v: money(v, param),
        help="Stop before spending more than this many USD (needs prices).",
    ),
    cache_dir: Path | None = typer.Option(
        None,
        "--cache-dir",
        help="Image-variant cache (default $FORGEBENCH_CACHE or ~/.cache/forgebench/variants).",
    ),
    timeout: float | None = typer.Option(
        None, "--timeout", min=0.001, help="Seconds per request attempt."
    ),
    max_attempts: int | None = typer.Option(
        None, "--max-attempts", min=1, help="Attempts per task before it is stored as an error."
    ),
    retry_base_delay: float = typer.Option(
        1.0,
        "--retry-base-delay",
        min=0.0,
        help="First backoff bound in seconds (doubles per attempt, full jitter).",
    ),
    prepare: bool = typer.Option(
        False,
        "--prepare",
        help="Store the tasks and render images without sending (for export-batch).",
    ),
    wait: bool = wait_option(),
    executor: str = executor_option(),
    ray_address: str | None = ray_address_option(),
    workers: int | None = workers_option(),
) -> None:
    """Ask every model every pending task; resumable (the same command again continues)."""
    from forgebench.models.spec import SpecError, parse_spec
    from forgebench.run.generate import GenerationSettings, run_generation
    from forgebench.run.images import ConditionError
    from forgebench.run.progress import RunProgress
    from forgebench.run.retry import RetryPolicy
    from forgebench.run.store import StoreError

    suite, selection = suite_selection(dataset, benchmark, probes, conditions, protocol, limit)
    check_executor(executor, ray_address)
    overrides: dict[str, float | int | None] = {
        "concurrency": concurrency,
        "rpm": rpm,
        "timeout_s": timeout,
        "max_attempts": max_attempts,
    }
    configs = model_configs(model, models_file, overrides)
    if judge is not None:
        try:
            parse_spec(judge)
        except SpecError as exc:
            fail(f"--judge: {exc}", 2)
    run_dir = out if out is not None else Path("runs") / dataset.resolve().name
    try:
        if dry_run:
            _dry_run(suite, dataset, run_dir, configs, selection, cache_dir)
            return
        chosen = get_executor(executor, ray_address, workers)
        progress = RunProgress(err_console)

        def on_signal() -> None:
            err_console.print(
                "stopping: letting requests in flight finish (Ctrl-C again to abandon them)"
            )

        with paid_stage(run_dir, "run", wait), progress:
            settings = GenerationSettings(
                selection=selection,
                retry_errors=retry_errors,
                cache_dir=cache_dir,
                max_cost=max_cost,
                judge=judge,
                prepare_only=prepare,
                executor=chosen if chosen.name != "local" else None,
            )
            result = run_generation(
                suite,
                dataset,
                run_dir,
                configs,
                settings,
                progress=progress,
                retry=RetryPolicy(base_s=retry_base_delay),
                handle_signals=True,
                on_signal=on_signal,
            )
    except (SpecError, SuiteError, ConditionError, StoreError, UserError) as exc:
        fail(str(exc), 2)
    except OSError as exc:
        fail(os_error_line(exc, run_dir), 1)
    except sqlite3.Error as exc:
        fail(f"{run_dir / 'run.sqlite'}: {exc}", 1)
    except KeyboardInterrupt:
        err_console.print("interrupted while preparing; nothing was sent")
        raise typer.Exit(130) from None
    if prepare:
        console.print(f"prepared {run_dir}: tasks stored, nothing sent")
        return
    code = _report(result, progress.enabled)
    print_replicas(run_dir, {m.name for m in result.models})
    stopped = result.interrupted or result.budget_stopped
    if judge and not stopped and not any(m.stats.fatal for m in result.models):
        code = max(code, _judge_and_metrics(run_dir, judge))
    if code:
        raise typer.Exit(code)


def _dry_run(
    suite: Suite,
    dataset: Path,
    run_dir: Path,
    configs: list[ModelConfig],
    selection: Selection,
    cache_dir: Path | None,
) -> None:
    from forgebench.models.registry import create_model
    from forgebench.run.dryrun import preview
    from forgebench.run.generate import plan
    from forgebench.run.settings import secret_values
    from forgebench.util.redact import redact_text

    the_plan = plan(suite, dataset, configs, selection, cache_dir=cache_dir)
    models = {c.name: create_model(c) for c in configs}
    secrets = secret_values(configs)
    for p in preview(the_plan, models, run_dir):
        for line in p.lines():
            console.print(redact_text(line, secrets), markup=False)
    console.print("dry run: nothing sent, nothing written to the run directory", markup=False)


def suite_selection(
    dataset: Path,
    benchmark: str | None,
    probes: str | None,
    conditions: str | None,
    protocol: str | None,
    sample: int | None,
) -> tuple[Suite, Selection]:
    """The dataset's suite and what of its protocol to run; exit 2 on a bad flag or folder."""
    from forgebench import suites
    from forgebench.run.source import parse_list

    try:
        suite = suites.detect(dataset, benchmark)
        sel = Selection(
            probes=parse_list(probes, suite.probes, "probe"),
            conditions=parse_list(conditions, suite.conditions, "condition"),
            parts=parse_list(protocol, tuple(suite.parts), "protocol part") or (),
            sample=sample,
        )
    except (SuiteError, ValueError) as exc:
        fail(str(exc), 2)
    return suite, sel


@app.command("status")
def status(run_dir: Path = typer.Argument(..., help="Run directory.")) -> None:
    """Done / pending / error counts per model x probe x condition, and tokens per model."""
    from rich.table import Table

    from forgebench.run.replica_stats import load_replicas
    from forgebench.run.store import Store, StoreError

    try:
        store = Store.open(run_dir, create=False)
    except StoreError as exc:
        fail(str(exc), 2)
    with store:
        rows = store.counts()
        tokens = store.token_totals()
        replicas = load_replicas(store)
    table = Table(title=f"{run_dir}", show_lines=False)
    for col in ("model", "probe", "condition", "done", "pending", "errors", "total"):
        table.add_column(
            col, justify="right" if col in ("done", "pending", "errors", "total") else "left"
        )
    for r in rows:
        table.add_row(
            r.model, r.probe, r.condition, str(r.done), str(r.pending), str(r.errors), str(r.total)
        )
    console.print(table)
    tok = Table(title="tokens")
    for col in ("model", "answers", "input tokens", "output tokens"):
        tok.add_column(col, justify="left" if col == "model" else "right")
    for t in tokens:
        tok.add_row(t.model, str(t.answers), f"{t.input_tokens:,}", f"{t.output_tokens:,}")
    console.print(tok)
    if replicas:
        rep = Table(title="replicas")
        cols = ("model", "url", "sent", "answered", "errors", "timeouts", "rests", "mean latency")
        for col in cols:
            rep.add_column(col, justify="left" if col in ("model", "url") else "right")
        for rr in replicas:
            lat = rr.mean_latency_s
            rep.add_row(
                rr.model, rr.url, str(rr.sent), str(rr.answered), str(rr.errors),
                str(rr.timeouts), str(rr.rests), "-" if lat is None else f"{lat * 1000:.0f} ms",
            )  # fmt: skip
        console.print(rep)


@cache_app.command("clean")
def cache_clean(
    cache_dir: Path | None = typer.Option(
        None,
        "--cache-dir",
        help="Cache folder (default $FORGEBENCH_CACHE or ~/.cache/forgebench/variants).",
    ),
) -> None:
    """Remove every cached image variant (they are rendered again when needed)."""
    from forgebench.run.images import VariantCache

    cache = VariantCache(cache_dir)
    files, freed = cache.clean()
    console.print(f"removed {files} files ({freed / 1e6:.1f} MB) from {cache.dir}")


@app.command("export-batch")
def export_batch_cmd(
    run_dir: Path = typer.Argument(..., help="Run directory."),
    file: Path = typer.Argument(..., help="Output JSONL; more parts go to STEM.part2.SUFFIX, ..."),
    model: str = typer.Option(..., "--model", help="Model name in the run."),
    max_bytes: int = typer.Option(190_000_000, "--max-bytes", min=1, help="Largest file size."),
    max_lines: int = typer.Option(
        50_000, "--max-lines", min=1, help="Most requests per file (shards for run_batch, Ray)."
    ),
    retry_errors: bool = typer.Option(
        False, "--retry-errors", help="Include tasks that ended as errors."
    ),
) -> None:
    """Write a model's pending tasks as OpenAI Batch API JSONL (custom_id = task key)."""
    from forgebench.run.batch import BatchError, export_batch
    from forgebench.run.store import Store, StoreError

    try:
        with Store.open(run_dir, create=False) as store:
            files, n = export_batch(
                store,
                model,
                file,
                max_bytes=max_bytes,
                max_lines=max_lines,
                retry_errors=retry_errors,
            )
    except (StoreError, BatchError) as exc:
        fail(str(exc), 2)
    if not files:
        console.print(f"model {model}: nothing pending, no file written")
        return
    console.print(f"wrote {n} requests to {len(files)} file(s): {', '.join(map(str, files))}")


@app.command("import-batch")
def import_batch_cmd(
    run_dir: Path = typer.Argument(..., help="Run directory."),
    files: list[Path] = typer.Argument(..., help="Batch output JSONL file(s)."),
) -> None:
    """Store batch results as answers or errors (never a second answer for a task)."""
    from forgebench.run.batch import BatchError, import_batch
    from forgebench.run.store import Store, StoreError

    try:
        with Store.open(run_dir, create=False) as store:
            stats = import_batch(store, files)
    except (StoreError, BatchError) as exc:
        fail(str(exc), 2)
    console.print(
        f"stored {stats.answers} answers and {stats.errors} errors; "
        f"{stats.already_answered} already answered, {stats.unknown} unknown custom_id"
    )
