"""Generation: expand a dataset into tasks, store them, and ask every model what is still pending.

:func:`plan` asks a benchmark (a :class:`~forgebench.run.source.QuestionSource`, i.e. a suite)
for its questions, rendering image variants into the content-addressed cache, and binds the
questions to each model. :func:`generate`
stores items and tasks, then runs all models at once (each with its own concurrency and rate
limit) through :func:`forgebench.run.runner.execute`, committing every answer as it arrives on the
store's writer thread (``writer.py``), so that storing a huge answer never stalls the event loop
(requests in flight, Ctrl-C and SIGTERM).

Resume rules: only tasks of this invocation without an answer are sent (errored ones too with
``retry_errors``); an answer is never overwritten and never duplicated (``store.py``). A model name
already used in the run directory with another provider, model id or generation parameters is
refused (its answers would mix). ``limit`` keeps the items of the first N seeds (canonical
images, in file order), so paired analyses (a forgery and its original) stay complete.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import signal
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from forgebench import __version__
from forgebench.models.base import Model, Request
from forgebench.models.registry import create_model, describe_request
from forgebench.models.replicas import ReplicatedModel
from forgebench.models.spec import ModelConfig, SpecError, check_unique_names
from forgebench.run.blobs import BlobStore, blob_dir, put_outputs
from forgebench.run.costs import Budget, cost_usd
from forgebench.run.progress import ModelProgress, RunProgress
from forgebench.run.replica_stats import record_replicas
from forgebench.run.retry import RetryPolicy
from forgebench.run.runner import Call, CallOutcome, ExecSettings, ExecStats, execute
from forgebench.run.settings import RunSettings, scrub, secret_values, write_settings
from forgebench.run.source import Loaded, QuestionSource, Selection
from forgebench.run.store import Store, task_images
from forgebench.run.tasks import Question, Task, make_task
from forgebench.run.writer import StoreWriter

if TYPE_CHECKING:
    from forgebench.run.executor import Executor

B64_CACHE_BYTES = 32 * 1024 * 1024
"""Bound of the in-process base64 cache (bytes of base64 text)."""


@dataclass
class Plan:
    """A benchmark's questions bound to each model."""

    benchmark: str
    """The benchmark stored beside every item and task."""
    loaded: Loaded
    """The dataset (its items are stored in the run)."""
    configs: list[ModelConfig]
    tasks: dict[str, list[Task]]
    """Model name -> its tasks, in protocol order."""


@dataclass
class GenerationSettings:
    """How ``forgebench run`` runs (everything but the dataset, the run directory and models)."""

    selection: Selection = field(default_factory=Selection)
    """Probes, conditions, opt-in parts and sample."""
    retry_errors: bool = False
    """Send tasks that ended as errors again."""
    cache_dir: Path | None = None
    """The image-variant cache (default ``$FORGEBENCH_CACHE`` or ``~/.cache/forgebench``)."""
    max_cost: float | None = None
    """Stop before spending more than this many USD (needs prices)."""
    judge: str | None = None
    """A judge spec to run after generation (recorded in config.json)."""
    prepare_only: bool = False
    """Store the tasks without sending anything (for ``export-batch``)."""
    executor: Executor | None = None
    """Where missing image variants are rendered (``--executor ray``; None: in this process
    while expanding)."""


@dataclass
class ModelResult:
    """How generation went for one model."""

    name: str
    tasks: int
    sent: int
    stats: ExecStats
    remaining: int
    """Tasks of this invocation still without an answer (errors included)."""
    errors: int
    """Tasks of this invocation whose stored outcome is an error."""


@dataclass
class GenerationResult:
    """What :func:`generate` did, per model."""

    models: list[ModelResult] = field(default_factory=list)
    interrupted: bool = False
    budget_stopped: bool = False
    spent_usd: float | None = None

    @property
    def remaining(self) -> int:
        """Tasks still without an answer, over all models."""
        return sum(m.remaining for m in self.models)


def plan(
    source: QuestionSource,
    dataset_root: Path,
    configs: list[ModelConfig],
    selection: Selection | None = None,
    *,
    cache_dir: Path | None = None,
    render_images: bool = True,
    executor: Executor | None = None,
) -> Plan:
    """Load the dataset, expand it into questions and bind them to every model; with
    ``executor``, missing image variants are rendered there first (``run/prerender.py``)."""
    import dataclasses as dc

    from forgebench.run.images import VariantCache

    selection = selection or Selection()
    loaded = source.load(Path(dataset_root), selection)
    cache = VariantCache(cache_dir, root=loaded.root)
    if executor is not None and render_images:
        from forgebench.run.prerender import prerender

        prerender(source, loaded, selection, cache, executor)
    questions = [
        q if q.benchmark else dc.replace(q, benchmark=source.name)
        for q in source.questions(loaded, selection, cache, render_images=render_images)
    ]
    for q in questions:
        check_images(q, configs)
    tasks = {
        c.name: [make_task(q, c.name, c.generation_params()) for q in questions] for c in configs
    }
    return Plan(benchmark=source.name, loaded=loaded, configs=configs, tasks=tasks)


def check_images(question: Question, configs: list[ModelConfig]) -> None:
    """Refuse a question with more images than a model takes (``max_images``), before
    anything is sent (:class:`SpecError`, one line)."""
    if len(question.images) > 1:
        what = f"item {question.item_id} ({question.probe}, {question.condition})"
        for c in configs:
            c.check_images(len(question.images), what)


def check_model_settings(store: Store, configs: list[ModelConfig]) -> None:
    """Record each model's identity; refuse a name reused with other settings (SpecError)."""
    for c in configs:
        spec = c.parsed
        ident = {
            "provider": spec.provider,
            "model": spec.model,
            "params": scrub(c.generation_params(), secret_values(configs)),
        }
        key = f"model:{c.name}"
        before = store.meta_get(key)
        if before is not None and before.get("identity") != ident:
            raise SpecError(
                f"model name {c.name!r} already ran in {store.run_dir} with other settings "
                f"({before.get('identity')}); give this one another alias (ALIAS=PROVIDER/MODEL)"
            )
        config = scrub(c.model_dump(mode="json"), secret_values(configs))
        store.meta_set(key, {"identity": ident, "config": config})


STORE_BATCH = 2000
"""Tasks bound, keyed and stored per transaction while a dataset is expanded."""
PAGE = 1000
"""Pending tasks read back from the store at a time while sending."""


def _scrubbed(tasks: Iterable[Task], secrets: list[str]) -> Iterator[Task]:
    for t in tasks:
        yield dataclasses.replace(t, params=scrub(dict(t.params), secrets))


def store_plan(store: Store, the_plan: Plan) -> None:
    """Store a plan made in memory (items, model identities, tasks) as this invocation's tasks;
    credential-like parameters are scrubbed in the store (the keys stay)."""
    store.put_items(the_plan.benchmark, the_plan.loaded.items)
    check_model_settings(store, the_plan.configs)
    store.begin_invocation()
    secrets = secret_values(the_plan.configs)
    for c in the_plan.configs:
        store.put_tasks(_scrubbed(the_plan.tasks[c.name], secrets))


def store_questions(
    store: Store,
    source: QuestionSource,
    loaded: Loaded,
    selection: Selection,
    configs: list[ModelConfig],
    cache_dir: Path | None,
    *,
    batch: int = STORE_BATCH,
) -> int:
    """Expand the dataset and store its tasks for every model in batches, never holding them
    all: peak memory does not grow with the number of tasks. Returns the questions stored."""
    from forgebench.run.images import VariantCache

    store.put_items(source.name, loaded.items)
    check_model_settings(store, configs)
    store.begin_invocation()
    secrets = secret_values(configs)
    params = {c.name: c.generation_params() for c in configs}
    buf: list[Task] = []
    n = 0
    for q in source.questions(loaded, selection, VariantCache(cache_dir, root=loaded.root)):
        if not q.benchmark:
            q = dataclasses.replace(q, benchmark=source.name)
        check_images(q, configs)
        n += 1
        buf += [make_task(q, c.name, params[c.name]) for c in configs]
        if len(buf) >= batch:
            store.put_tasks(_scrubbed(buf, secrets))
            buf.clear()
    if buf:
        store.put_tasks(_scrubbed(buf, secrets))
    return n


def _task_of(row: sqlite3.Row, config: ModelConfig) -> Task:
    """A stored task, rebuilt for sending: the model's real generation parameters (the store
    keeps them scrubbed), the image where this invocation put it."""
    images = task_images(row) if row["image_path"] else ()
    q = Question(
        item_id=row["item_id"], probe=row["probe"], condition=row["condition"],
        prompt=row["prompt"], prompt_version=row["prompt_version"], images=images,
        extra=json.loads(row["extra"] or "{}"), benchmark=row["benchmark"],
    )  # fmt: skip
    return Task(key=row["key"], model=config.name, question=q, params=config.generation_params())


def _request(task: Task, images_b64: tuple[str | None, ...] | None = None) -> Request:
    """The request of ``task``: every image in order, with the runner's base64 of each where it
    was encoded (None: not encoded, as for the stored description)."""
    q = task.question
    return Request(
        prompt=q.prompt,
        images=q.images,
        params=dict(task.params),
        images_b64=images_b64 or (),
        meta={
            "task_key": task.key,
            "item_id": q.item_id,
            "probe": q.probe,
            "condition": q.condition,
            "extra": dict(q.extra),
        },
    )


def _write_outcome(
    model: Model,
    task: Task,
    outcome: CallOutcome,
    secrets: list[str],
    blobs: BlobStore | None,
    store: Store,
) -> None:
    """Store one outcome (on the writer thread): an answer with its files and its request record
    (redacted), or an error."""
    if outcome.response is None:
        store.put_error(
            outcome.key, outcome.error or "unknown error", outcome.status, outcome.attempts
        )
        return
    if outcome.response.outputs:
        where = blobs or BlobStore(blob_dir(None))
        put_outputs(where, store, outcome.key, outcome.response.outputs)
    described = scrub(describe_request(model, _request(task, None)), secrets)
    store.put_answer(outcome.key, outcome.response, outcome.attempts, outcome.latency_s, described)


async def generate(
    store: Store,
    configs: list[ModelConfig],
    models: dict[str, Model],
    *,
    retry_errors: bool = False,
    budget: Budget | None = None,
    progress: RunProgress | None = None,
    stop: asyncio.Event | None = None,
    retry: RetryPolicy | None = None,
    grace_s: float = 5.0,
    blobs: BlobStore | None = None,
) -> GenerationResult:
    """Send every pending task of this invocation (``store_plan`` / ``store_questions``) for
    every model, concurrently; pending tasks are read from the store in pages."""
    from forgebench.run.images import B64Cache

    b64 = B64Cache(B64_CACHE_BYTES)
    stop = stop if stop is not None else asyncio.Event()
    result = GenerationResult()
    secrets = secret_values(configs)

    async def one(config: ModelConfig) -> ModelResult:
        name = config.name
        model = models[name]
        total = store.invocation_count(name)
        pending = store.pending_count(name, retry_errors=retry_errors)
        bar: ModelProgress | None = progress.add(name, pending) if progress else None
        if bar is not None and isinstance(model, ReplicatedModel):
            bar.detail = model.summary
        reserved: dict[str, float] = {}
        sending: dict[str, Task] = {}

        async def calls() -> AsyncIterator[Call]:
            # a page of the store (the invocation's TEMP table lives on this connection) and an
            # image's base64 are read on a thread: the loop goes on sending meanwhile
            pages = store.pending_pages(name, retry_errors=retry_errors, page=PAGE)
            while (page := await asyncio.to_thread(next, pages, None)) is not None:
                for row in page:
                    task = _task_of(row, config)
                    if budget is not None:
                        est = budget.reserve(config, task)
                        if est is None:
                            return
                        reserved[task.key] = est
                    sending[task.key] = task
                    encoded: list[str | None] = []
                    for ref in task.question.images:  # cached, else encoded on a thread
                        hit = b64.cached(ref)
                        encoded.append(
                            hit if hit is not None else await asyncio.to_thread(b64.get, ref)
                        )
                    yield Call(task.key, _request(task, tuple(encoded)))

        def on_outcome(outcome: CallOutcome) -> Awaitable[None]:
            task = sending.pop(outcome.key)
            if budget is not None:  # on the loop: the next reservation depends on it
                usage = outcome.response.usage if outcome.response is not None else None
                images = len(outcome.response.outputs) if outcome.response is not None else 0
                budget.settle(config, reserved.pop(outcome.key, 0.0), usage, images)
            return writer.submit(partial(_write_outcome, model, task, outcome, secrets, blobs))

        try:
            stats = await execute(
                model,
                calls(),
                ExecSettings.of(config, retry=retry, grace_s=grace_s),
                on_outcome=on_outcome,
                progress=bar,
                stop=stop,
            )
        finally:
            await model.aclose()
            record_replicas(store, model)
        await writer.flush()  # every outcome reported is committed before counting
        left = store.pending_count(name, retry_errors=True)
        errored = left - store.pending_count(name, retry_errors=False)
        sent = stats.answered + stats.errors + stats.abandoned
        return ModelResult(name, total, sent, stats, left, errored)

    async with StoreWriter(store.run_dir) as writer:
        result.models = list(await asyncio.gather(*(one(c) for c in configs)))
    result.interrupted = stop.is_set()
    if budget is not None:
        result.budget_stopped = budget.exhausted
        result.spent_usd = budget.spent
    return result


def run_generation(
    source: QuestionSource,
    dataset_root: Path,
    run_dir: Path,
    configs: list[ModelConfig],
    settings: GenerationSettings | None = None,
    *,
    progress: RunProgress | None = None,
    retry: RetryPolicy | None = None,
    handle_signals: bool = False,
    on_signal: Callable[[], None] | None = None,
) -> GenerationResult:
    """Plan, store and send; the CLI's ``forgebench run`` (without ``--dry-run``).

    With ``handle_signals`` the first SIGINT/SIGTERM stops scheduling (requests in flight get a
    few seconds) and the second abandons them; either way everything answered is committed.
    ``prepare_only`` stores the tasks without sending anything (for ``export-batch``).
    """
    from forgebench.run.images import default_cache_dir

    settings = settings or GenerationSettings()
    sel = settings.selection
    max_cost, cache_dir = settings.max_cost, settings.cache_dir
    check_unique_names(configs)
    if max_cost is not None:
        unpriced = [c.name for c in configs if cost_usd(c, 0, 0) is None]
        if unpriced:
            raise SpecError(
                f"--max-cost needs price_in and price_out for model {unpriced[0]!r} "
                "(set them in a models file)"
            )
    loaded = source.load(Path(dataset_root), sel)
    models = {c.name: create_model(c) for c in configs}
    store = Store.open(run_dir)
    try:
        record = RunSettings(
            forgebench=__version__,
            benchmark=source.name,
            dataset=str(loaded.root),
            models=configs,
            probes=list(sel.probes) if sel.probes is not None else None,
            conditions=list(sel.conditions) if sel.conditions is not None else None,
            parts=list(sel.parts),
            limit=sel.sample,
            retry_errors=settings.retry_errors,
            max_cost=max_cost,
            judge=settings.judge,
            cache_dir=str(Path(cache_dir or default_cache_dir()).resolve()),
        )
        write_settings(run_dir, record)
        store.meta_set("settings", scrub(record.model_dump(mode="json"), secret_values(configs)))
        datasets = store.meta_get("datasets") or {}  # one per benchmark: a run may hold several
        store.meta_set("datasets", {**datasets, source.name: str(loaded.root)})
        if settings.executor is not None:
            from forgebench.run.images import VariantCache
            from forgebench.run.prerender import prerender

            prerender(
                source, loaded, sel, VariantCache(cache_dir, root=loaded.root), settings.executor
            )
        store_questions(store, source, loaded, sel, configs, cache_dir)
        if settings.prepare_only:
            return GenerationResult()
        budget = Budget(max_cost) if max_cost is not None else None
        return asyncio.run(
            send(store, configs, models, settings.retry_errors, budget, progress, retry,
                 handle_signals, on_signal, blobs=BlobStore(blob_dir(cache_dir)))
        )  # fmt: skip
    finally:
        store.close()


async def run_plan(
    store: Store,
    the_plan: Plan,
    models: dict[str, Model],
    retry_errors: bool,
    budget: Budget | None,
    progress: RunProgress | None,
    retry: RetryPolicy | None,
    handle_signals: bool,
    on_signal: Callable[[], None] | None,
) -> GenerationResult:
    """Store a plan made in memory and send it (:func:`send`)."""
    store_plan(store, the_plan)
    return await send(
        store, the_plan.configs, models, retry_errors, budget, progress, retry, handle_signals,
        on_signal,
    )  # fmt: skip


async def send(
    store: Store,
    configs: list[ModelConfig],
    models: dict[str, Model],
    retry_errors: bool,
    budget: Budget | None,
    progress: RunProgress | None,
    retry: RetryPolicy | None,
    handle_signals: bool,
    on_signal: Callable[[], None] | None,
    *,
    blobs: BlobStore | None = None,
) -> GenerationResult:
    """Send this invocation's stored tasks (:func:`generate`); with ``handle_signals`` the
    first SIGINT/SIGTERM stops scheduling (requests in flight get a few seconds), the second
    abandons them."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    main_task = asyncio.current_task()
    presses = 0

    def on_sig() -> None:
        nonlocal presses
        presses += 1
        if presses == 1:
            stop.set()
            if on_signal is not None:
                on_signal()
        elif main_task is not None:
            main_task.cancel()

    if handle_signals:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, on_sig)
    try:
        return await generate(
            store,
            configs,
            models,
            retry_errors=retry_errors,
            budget=budget,
            progress=progress,
            stop=stop,
            retry=retry,
            blobs=blobs,
        )
    except asyncio.CancelledError:
        result = GenerationResult(interrupted=True)
        for c in configs:
            left = store.pending_count(c.name, retry_errors=True)
            total = store.invocation_count(c.name)
            result.models.append(ModelResult(c.name, total, 0, ExecStats(), left, 0))
        return result
    finally:
        if handle_signals:
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.remove_signal_handler(sig)
