"""The asking verbs: ``run`` (and its dry run), ``status``, the batch files, ``ray-batch`` and the
image cache. ``run`` holds the run directory's lock (:mod:`forgebench.run.lock`) while it sends."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forgebench import suites

if TYPE_CHECKING:
    from forgebench.models.spec import ModelConfig
    from forgebench.run.batch import ImportStats
    from forgebench.run.generate import GenerationResult, GenerationSettings
    from forgebench.run.send.options import SendOptions
    from forgebench.util.owned import CacheClean


def configs_of(models: Sequence[str | ModelConfig]) -> list[ModelConfig]:
    """Specs or configs as configs."""
    from forgebench.models.spec import ModelConfig

    return [m if isinstance(m, ModelConfig) else ModelConfig(spec=m) for m in models]


def run(
    dataset: str | Path,
    run_dir: str | Path,
    models: Sequence[str | ModelConfig],
    settings: GenerationSettings | None = None,
    *,
    benchmark: str | None = None,
    options: SendOptions | None = None,
    wait: bool = False,
    on_wait: Callable[[str], None] | None = None,
    epochs: int | None = None,
) -> GenerationResult:
    """Ask every model every pending question of the dataset's benchmark (resumable), holding
    the run directory's lock (``RunLocked``, exit 4, when another stage holds it, unless
    ``wait``). ``options`` say how the requests go out (:class:`SendOptions`: progress bars,
    retry policy; with ``handle_signals`` Ctrl-C stops scheduling and a second one abandons the
    requests in flight; everything answered is kept). ``epochs``: ask every question that
    many times (``--epochs``; overrides ``settings.epochs``; a stored run asks only the epochs
    it lacks)."""
    import dataclasses

    from forgebench.run.generate import GenerationSettings, check_epochs, run_generation
    from forgebench.run.lock import run_lock

    if epochs is not None:
        check_epochs(epochs, "epochs")
        settings = dataclasses.replace(settings or GenerationSettings(), epochs=epochs)

    suite = suites.detect(Path(dataset), benchmark)
    with run_lock(Path(run_dir), "run", wait=wait, on_wait=on_wait):
        return run_generation(
            suite, Path(dataset), Path(run_dir), configs_of(models), settings,
            options=options,
        )  # fmt: skip


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
    from forgebench.models.registry import create_model
    from forgebench.run.dryrun import preview
    from forgebench.run.generate import GenerationSettings, plan
    from forgebench.run.settings import secret_values
    from forgebench.util.redact import redact_text

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
    from forgebench.run.store import Store

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
    from forgebench.run.batch import export_batch as write
    from forgebench.run.store import Store

    with Store.open(Path(run_dir), create=False) as store:
        files, n = write(
            store, model, Path(file), max_bytes=max_bytes, max_lines=max_lines,
            retry_errors=retry_errors,
        )  # fmt: skip
    return list(files), n


def import_batch(run_dir: str | Path, files: Sequence[str | Path]) -> ImportStats:
    """Store batch results as answers or errors (never a second answer for a task)."""
    from forgebench.run.batch import import_batch as read
    from forgebench.run.store import Store

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
    from forgebench.errors import UserError

    missing = [str(p) for p in shards if not Path(p).is_file()]
    if missing:
        raise UserError(f"{missing[0]}: no such file")
    if not url.startswith(("http://", "https://")):
        raise UserError(f"--url {url!r} does not start with http:// or https://")
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
    from forgebench.run.images import VariantCache

    cache = VariantCache(Path(cache_dir) if cache_dir is not None else None)
    return cache.clean(), cache.dir
