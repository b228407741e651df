"""The asking verbs: ``run`` (and its dry run), ``status``, the batch files, ``ray-batch`` and the
image cache. ``run`` holds the run directory's lock (:mod:`forgebench.run.lock`) while it sends."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forgebench import suites
from forgebench._api.common import StageResult
from forgebench.errors import UserError
from forgebench.models.registry import create_model
from forgebench.run.lock import run_lock
from forgebench.run.store import Store
from forgebench.suites.base import JudgeOutcome
from forgebench.util.redact import redact_text

if TYPE_CHECKING:
    from forgebench.models.spec import ModelConfig
    from forgebench.run.batch import ImportStats
    from forgebench.run.generate import GenerationResult, GenerationSettings
    from forgebench.run.judging import JudgeSettings
    from forgebench.run.send.options import SendOptions
    from forgebench.run.send.sending import ModelResult
    from forgebench.util.owned import CacheClean


def configs_of(models: Sequence[str | ModelConfig]) -> list[ModelConfig]:
    """Specs or configs as configs (:func:`forgebench.models.configs.model_configs`, the one
    place specs become configs)."""
    # inside: light path (status)
    from forgebench.models.configs import model_configs

    return model_configs(models)


@dataclass
class RunResult:
    """What :func:`run` did: the generation (per model) and the stages it went on to. It reads
    as the :class:`~forgebench.run.generate.GenerationResult` it holds (``models``,
    ``interrupted``, ``budget_stopped``, ``spent_usd``, ``remaining``)."""

    generation: GenerationResult
    """The generation, per model."""
    judged: list[JudgeOutcome] = field(default_factory=list)
    """The judge stage's outcomes (``judge=``), in order; the first ``fatal`` one stopped it."""
    metrics: Path | None = None
    """``RUN/metrics.csv`` when it was written (``judge=`` or ``score=``)."""
    skipped: list[str] = field(default_factory=list)
    """One line per benchmark of the run without the metrics stage (the "skipped" notes)."""
    tables: StageResult | None = None
    """The tables written (``tables=True``)."""

    @property
    def models(self) -> list[ModelResult]:
        return self.generation.models

    @property
    def interrupted(self) -> bool:
        return self.generation.interrupted

    @property
    def budget_stopped(self) -> bool:
        return self.generation.budget_stopped

    @property
    def spent_usd(self) -> float | None:
        return self.generation.spent_usd

    @property
    def remaining(self) -> int:
        """Tasks still without an answer, over all models."""
        return self.generation.remaining

    @property
    def went_through(self) -> bool:
        """Not interrupted, not stopped by ``max_cost``, no model stopped by the runner: the
        stages after generation may run."""
        return not (
            self.interrupted or self.budget_stopped or any(m.stats.fatal for m in self.models)
        )

    @property
    def judge_failed(self) -> JudgeOutcome | None:
        """The judge outcome that stopped the stages (a judge that could not be asked)."""
        return next((o for o in self.judged if o.fatal), None)


def run(
    dataset: str | Path,
    run_dir: str | Path,
    models: Sequence[str | ModelConfig],
    settings: GenerationSettings | None = None,
    *,
    benchmark: str | None = None,
    send: SendOptions | None = None,
    wait: bool = False,
    on_wait: Callable[[str], None] | None = None,
    judge: str | ModelConfig | None = None,
    judge_settings: JudgeSettings | None = None,
    score: bool = False,
    options: Mapping[str, str] | None = None,
    tables: bool = False,
    on_generated: Callable[[RunResult], None] | None = None,
    on_judged: Callable[[list[JudgeOutcome]], None] | None = None,
    on_skip: Callable[[str], None] | None = None,
    epochs: int | None = None,
) -> RunResult:
    """Ask every model every pending question of the dataset's benchmark (resumable), holding
    the run directory's lock (``RunLocked``, exit 4, when another stage holds it, unless
    ``wait``). ``send`` says how the requests go out (:class:`SendOptions`: progress bars,
    retry policy; with ``handle_signals`` Ctrl-C stops scheduling and a second one abandons the
    requests in flight; everything answered is kept); its progress is shown while sending
    (entered and left here).

    Then, when the generation went through (:attr:`RunResult.went_through`), the stages that
    were asked for, as ``forgebench run --judge`` and ``forgebench pixar run`` do: with
    ``judge`` (a spec or config, checked before anything is sent; recorded in config.json as
    ``settings.judge``) the judge stage (:func:`forgebench.api.judge`, waiting for the lock,
    ``judge_settings``) and, unless a judge could not be asked, ``RUN/metrics.csv``
    (:func:`forgebench.api.metrics` with that judge's grades); with ``score`` the metrics stage
    alone; ``options`` are the suites' own metrics options; with ``tables`` each suite's tables
    in ``RUN/report`` (:func:`forgebench.api.tables`). ``on_generated`` sees the generation's
    result before those stages, ``on_judged`` the judge stage's outcomes before metrics.csv is
    written and ``on_skip`` each "skipped" line of the metrics stage (the command line prints
    them there, in order); an exception one raises stops the stages. ``epochs``: ask every
    question that many times (``--epochs``; overrides ``settings.epochs``; a stored run asks
    only the epochs it lacks)."""
    # inside: light path (status, run --dry-run)
    from forgebench._api.outputs import tables as tables_stage
    from forgebench._api.scoring import judge as judge_stage
    from forgebench._api.scoring import judge_config
    from forgebench._api.scoring import metrics as metrics_stage
    from forgebench.run.generate import GenerationSettings, check_epochs, run_generation

    if epochs is not None:
        check_epochs(epochs, "epochs")
        settings = dataclasses.replace(settings or GenerationSettings(), epochs=epochs)

    suite = suites.detect(Path(dataset), benchmark)
    configs = configs_of(models)
    chosen = settings or GenerationSettings()
    if judge is not None:  # a bad or unusable judge: one line before anything is sent
        judge = judge_config(judge)
        if chosen.judge is None:
            chosen = dataclasses.replace(chosen, judge=judge.spec)
    with (
        run_lock(Path(run_dir), "run", wait=wait, on_wait=on_wait),
        send.progress if send is not None and send.progress is not None else nullcontext(),
    ):
        generated = run_generation(
            suite, Path(dataset), Path(run_dir), configs, chosen, options=send,
        )  # fmt: skip
    result = RunResult(generated)
    if on_generated is not None:
        on_generated(result)
    if chosen.prepare_only or not result.went_through:
        return result
    name: str | None = None
    if judge is not None:
        result.judged = judge_stage(run_dir, judge, judge_settings, wait=True, on_wait=on_wait)
        if on_judged is not None:
            on_judged(result.judged)
        if result.judge_failed is not None:
            return result
        name = next((o.judge for o in result.judged if not o.skipped), None)
    if judge is not None or score:
        result.metrics = metrics_stage(
            run_dir, name, benchmark=suite.name if score and judge is None else None,
            options=options, on_skip=lambda line: _noted(result.skipped, on_skip, line),
        )  # fmt: skip
    if tables:
        result.tables = tables_stage(run_dir, benchmark=suite.name)
    return result


def _noted(lines: list[str], on_skip: Callable[[str], None] | None, line: str) -> None:
    lines.append(line)
    if on_skip is not None:
        on_skip(line)


def dry_run(
    dataset: str | Path,
    run_dir: str | Path,
    models: Sequence[str | ModelConfig],
    settings: GenerationSettings | None = None,
    *,
    benchmark: str | None = None,
) -> list[str]:
    """What ``run`` would send, per model (one request, task counts, tokens, cost), redacted;
    nothing is sent and nothing is written to the run directory."""
    # inside: light path (status)
    from forgebench.run.dryrun import preview
    from forgebench.run.generate import GenerationSettings, plan
    from forgebench.run.settings import secret_values

    suite = suites.detect(Path(dataset), benchmark)
    configs = configs_of(models)
    chosen = settings or GenerationSettings()
    the_plan = plan(
        suite, Path(dataset), configs, chosen.selection, cache_dir=chosen.cache_dir,
        epochs=chosen.epochs,
    )  # fmt: skip
    live = {c.name: create_model(c) for c in configs}
    secrets = secret_values(configs)
    lines = [line for p in preview(the_plan, live, Path(run_dir)) for line in p.lines()]
    return [redact_text(line, secrets) for line in lines]


@dataclass
class Status:
    """``forgebench status``: the run's counts."""

    counts: list[Any] = field(default_factory=list)
    """Done / pending / errors per model x probe x condition (``Store.counts``)."""
    tokens: list[Any] = field(default_factory=list)
    """Answers and tokens per model."""
    replicas: list[Any] = field(default_factory=list)
    """Per replica of a model: sent, answered, errors, rests, latency."""


def status(run_dir: str | Path) -> Status:
    """The run's counts (it needs no lock: a running stage may be writing)."""
    with Store.open(Path(run_dir), create=False) as store:
        return Status(store.counts(), store.token_totals(), store.replicas())


def replicas(run_dir: str | Path, models: set[str]) -> list[Any]:
    """The stored totals of each replica of ``models`` (empty when none used replicas)."""
    return [r for r in status(run_dir).replicas if r.model in models]


def export_batch(
    run_dir: str | Path,
    file: str | Path,
    model: str,
    *,
    max_bytes: int = 190_000_000,
    max_lines: int = 50_000,
    retry_errors: bool = False,
) -> tuple[list[Path], int]:
    """Write a model's pending tasks as OpenAI Batch API JSONL: the files and the requests."""
    # inside: light path (status, run --dry-run)
    from forgebench.run.batch import export_batch as write

    with Store.open(Path(run_dir), create=False) as store:
        files, n = write(
            store, model, Path(file), max_bytes=max_bytes, max_lines=max_lines,
            retry_errors=retry_errors,
        )  # fmt: skip
    return list(files), n


def import_batch(run_dir: str | Path, files: Sequence[str | Path]) -> ImportStats:
    """Store batch results as answers or errors (never a second answer for a task)."""
    # inside: light path (status, run --dry-run)
    from forgebench.run.batch import import_batch as read

    with Store.open(Path(run_dir), create=False) as store:
        return read(store, [Path(f) for f in files])


def ray_batch(
    shards: Sequence[str | Path],
    url: str,
    out: str | Path,
    *,
    workers: int = 1,
    batch_size: int = 64,
    qps: int | None = None,
    max_retries: int = 3,
) -> int:
    """Send export-batch shards through Ray Data's LLM HTTP processor; the results written."""
    missing = [str(p) for p in shards if not Path(p).is_file()]
    if missing:
        raise UserError(f"{missing[0]}: no such file")
    if not url.startswith(("http://", "https://")):
        raise UserError(f"--url {url!r} does not start with http:// or https://")
    # inside: light path (status, run --dry-run)
    from forgebench.run.ray_batch import ray_batch as send

    try:
        return send(
            [Path(s) for s in shards], url, Path(out), concurrency=workers,
            batch_size=batch_size, qps=qps, max_retries=max_retries,
        )  # fmt: skip
    except ImportError:
        raise UserError("ray-batch needs Ray: pip install 'forgebench[ray]'") from None


def cache_clean(cache_dir: str | Path | None = None) -> tuple[CacheClean, Path]:
    """Remove the cache's own entries (variants, the source index, the suites' caches under it;
    :func:`forgebench.util.owned.clean_cache`): what was removed and left, the cache folder."""
    # inside: light path (status)
    from forgebench.run.images import VariantCache

    cache = VariantCache(Path(cache_dir) if cache_dir is not None else None)
    return cache.clean(), cache.dir
