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

from forgebench._cli.app import (
    console,
    err_console,
    fail,
    model_configs,
    money,
    suite_options,
    verbs,
)
from forgebench._cli.dataset import benchmark_option
from forgebench.cli_support import (
    executor_option,
    get_executor,
    os_error_line,
    ray_address_option,
    say,
    user_error_line,
    wait_option,
    workers_option,
)

if TYPE_CHECKING:
    from forgebench._api.running import RunResult
    from forgebench.suites.base import JudgeOutcome

cache_app = typer.Typer(help="The image-variant cache.", no_args_is_help=True)
verbs.add_typer(cache_app, name="cache")


def _judged(outcomes: list[JudgeOutcome], judge: str) -> int:
    """``run --judge``: the judge stage's lines (``api.run`` judged); returns an exit code."""
    for o in outcomes:
        say(o.summary, err=True)
        if o.fatal:
            say(f"error: judge {judge}: {o.fatal}", err=True)
            return 1
    return 0


def print_replicas(run_dir: Path, models: set[str]) -> None:
    """One line per replica of ``models`` (the run's stored totals), when any used replicas."""
    from forgebench import api

    for r in api.replicas(run_dir, models):
        lat = "-" if r.mean_latency_s is None else f"{r.mean_latency_s * 1000:.0f} ms"
        say(f"{r.model} @ {r.url}: {r.answered} answered, {r.errors} errors, "
            f"{r.timeouts} timeouts, {r.rests} rests, mean latency {lat}", err=True)  # fmt: skip


def _outcome(result: RunResult, progress_shown: bool) -> int:
    """Print the outcome of a run; return its exit code."""
    code = 0
    resized = [f"{m.name} {m.resized}/{m.tasks}" for m in result.models if m.resized]
    if resized:
        say(f"images resized to fit the model's image limits (tasks): {', '.join(resized)}",
            err=True)  # fmt: skip
    for m in result.models:
        if not progress_shown:
            say(f"{m.name}: {m.tasks - m.remaining}/{m.tasks} answered, {m.errors} errors, "
                f"{m.stats.retries} retries", err=True)  # fmt: skip
        if m.stats.fatal:
            skipped = m.remaining - m.errors
            say(f"error: model {m.name}: {m.stats.fatal} ({skipped} tasks not sent)", err=True)
            code = 1
        elif m.errors and not result.interrupted:
            say(f"warning: model {m.name}: {m.errors} tasks ended as errors; "
                "run again with --retry-errors to retry them", err=True)  # fmt: skip
            code = 1
    if result.budget_stopped:
        say(f"stopped: --max-cost reached (${result.spent_usd or 0:.2f} spent); "
            f"{result.remaining} tasks remain", err=True)  # fmt: skip
        code = 3
    if result.interrupted:
        say(f"interrupted: {result.remaining} tasks remain; answers so far are saved, "
            "run the same command to resume", err=True)  # fmt: skip
        code = 130
    return code


@verbs.command("run")
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
        help="Requests in flight per model (overrides the models file).",
    ),
    rpm: float | None = typer.Option(
        None, "--rpm", help="Requests per minute per model (at least 0.001)."
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
    benchmark: str | None = benchmark_option(
        "The dataset's benchmark (default: recognised from the folder)."
    ),
    retry_errors: bool = typer.Option(
        False, "--retry-errors", help="Try tasks that ended as errors again."
    ),
    epochs: int = typer.Option(
        1,
        "--epochs",
        help="Ask every question N times (Inspect's epochs); metrics add the spread over them.",
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
    timeout: float | None = typer.Option(None, "--timeout", help="Seconds per request attempt."),
    max_reply_bytes: int | None = typer.Option(
        None,
        "--max-reply-bytes",
        help="Most bytes of one model reply read (default 67108864, 64 MiB); a longer reply is "
        "the task's error, not retried.",
    ),
    max_attempts: int | None = typer.Option(
        None, "--max-attempts", help="Attempts per task before it is stored as an error."
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
    from forgebench import api
    from forgebench.run.generate import check_epochs
    from forgebench.run.judging import JudgeSettings
    from forgebench.run.rundir import RunDir
    from forgebench.run.send.options import SendOptions
    from forgebench.run.send.progress import RunProgress
    from forgebench.run.send.retry import RetryPolicy

    check_epochs(epochs)  # one line before anything is read or written
    suite = api.suite_of(dataset, benchmark)
    selection = api.selection_for(
        suite, probes=probes, conditions=conditions, protocol=protocol, sample=limit,
        options=suite_options("run"),
    )  # fmt: skip
    overrides: dict[str, float | int | None] = {
        "concurrency": concurrency, "rpm": rpm, "timeout_s": timeout, "max_attempts": max_attempts,
        "max_reply_bytes": max_reply_bytes,
    }  # fmt: skip
    configs = model_configs(model, models_file, overrides)
    if judge is not None:  # one line before anything is sent (a dry run included)
        api.judge_config(judge)
    run_dir = out if out is not None else Path("runs") / dataset.resolve().name
    settings = api.GenerationSettings(
        selection=selection, retry_errors=retry_errors, cache_dir=cache_dir, max_cost=max_cost,
        judge=judge, prepare_only=prepare, epochs=epochs,
    )  # fmt: skip
    if dry_run:
        for line in api.dry_run(dataset, run_dir, configs, settings, benchmark=suite.name):
            say(line)
        say("dry run: nothing sent, nothing written to the run directory")
        return
    chosen = get_executor(executor, ray_address, workers)
    settings.executor = chosen if chosen.name != "local" else None
    progress = RunProgress(err_console)
    code = 0
    sending = True  # Ctrl-C, a file or store error before the stages after generation

    def generated(result: RunResult) -> None:  # printed before the judge stage starts
        nonlocal code, sending
        sending = False
        if not prepare:
            code = _outcome(result, progress.enabled)
            print_replicas(run_dir, {m.name for m in result.models})

    def judged(outcomes: list[JudgeOutcome]) -> None:
        nonlocal code
        code = max(code, _judged(outcomes, judge or ""))

    try:
        send = SendOptions(
            progress=progress, retry=RetryPolicy(base_s=retry_base_delay), handle_signals=True,
            on_signal=lambda: say("stopping: letting requests in flight finish "
                                  "(Ctrl-C again to abandon them)", err=True),
        )  # fmt: skip
        result = api.run(
            dataset, run_dir, configs, settings, benchmark=suite.name, send=send, wait=wait,
            on_wait=lambda m: say(m, err=True),
            judge=judge, judge_settings=JudgeSettings(console=err_console),
            on_generated=generated, on_judged=judged, on_skip=lambda line: say(line, err=True),
        )  # fmt: skip
    except OSError as exc:
        if not sending or user_error_line(exc) is not None:
            raise
        fail(os_error_line(exc, run_dir), 1)
    except sqlite3.Error as exc:
        if not sending:
            raise
        fail(f"{RunDir(run_dir).db}: {exc}", 1)
    except KeyboardInterrupt:
        if not sending:
            raise
        say("interrupted while preparing; nothing was sent", err=True)
        raise typer.Exit(130) from None
    if prepare:
        console.print(f"prepared {run_dir}: tasks stored, nothing sent")
        return
    if result.metrics is not None:  # run --judge
        from forgebench._cli.scoring import print_summaries

        print_summaries(run_dir, next((o.judge for o in result.judged if not o.skipped), None))
        say(f"wrote {result.metrics}")
    if code:
        raise typer.Exit(code)


@verbs.command("status")
def status(run_dir: Path = typer.Argument(..., help="Run directory.")) -> None:
    """Done / pending / error counts per model x probe x condition, and tokens per model."""
    from rich.table import Table

    from forgebench import api

    st = api.status(run_dir)
    table = Table(title=f"{run_dir}", show_lines=False)
    numeric = ("done", "pending", "errors", "total")
    for col in ("model", "probe", "condition", *numeric):
        table.add_column(col, justify="right" if col in numeric else "left")
    for r in st.counts:
        table.add_row(r.model, r.probe, r.condition, str(r.done), str(r.pending), str(r.errors),
                      str(r.total))  # fmt: skip
    console.print(table)
    tok = Table(title="tokens")
    for col in ("model", "answers", "input tokens", "output tokens"):
        tok.add_column(col, justify="left" if col == "model" else "right")
    for t in st.tokens:
        tok.add_row(t.model, str(t.answers), f"{t.input_tokens:,}", f"{t.output_tokens:,}")
    console.print(tok)
    if st.replicas:
        rep = Table(title="replicas")
        cols = ("model", "url", "sent", "answered", "errors", "timeouts", "rests", "mean latency")
        for col in cols:
            rep.add_column(col, justify="left" if col in ("model", "url") else "right")
        for rr in st.replicas:
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
    """Remove the cache's own entries (image variants, the source index, label and tool caches;
    made again when needed). Files forgebench did not write there are left, and named."""
    from forgebench import api

    done, where = api.cache_clean(cache_dir)
    say(f"removed {done.files} files ({done.bytes / 1e6:.1f} MB) from {where}")
    if done.left_count:
        more = ", ..." if done.left_count > len(done.left) else ""
        say(
            f"left {done.left_count} entries that forgebench did not write: "
            f"{', '.join(done.left)}{more}"
        )


@verbs.command("export-batch")
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
    from forgebench import api

    files, n = api.export_batch(
        run_dir, file, model, max_bytes=max_bytes, max_lines=max_lines, retry_errors=retry_errors
    )
    if not files:
        console.print(f"model {model}: nothing pending, no file written")
        return
    console.print(f"wrote {n} requests to {len(files)} file(s): {', '.join(map(str, files))}")


@verbs.command("import-batch")
def import_batch_cmd(
    run_dir: Path = typer.Argument(..., help="Run directory."),
    files: list[Path] = typer.Argument(..., help="Batch output JSONL file(s)."),
) -> None:
    """Store batch results as answers or errors (never a second answer for a task)."""
    from forgebench import api

    stats = api.import_batch(run_dir, files)
    console.print(
        f"stored {stats.answers} answers and {stats.errors} errors; "
        f"{stats.already_answered} already answered, {stats.unknown} unknown custom_id"
    )
