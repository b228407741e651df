"""Sending: ask every model the pending tasks of this invocation, storing each outcome as it
arrives.

:func:`generate` runs all models at once (each with its own concurrency and rate limit) through
:func:`forgebench.run.send.runner.execute`, reading pending tasks back from the store in pages and
committing every answer on the store's writer thread (``writer.py``), so that storing a huge
answer never stalls the event loop (requests in flight, Ctrl-C and SIGTERM). :func:`send` adds
the signal handling of ``forgebench run``; both take the run's :class:`SendOptions`. Resume
rules (``generate.py``): only tasks of this invocation without an answer are sent (errored ones
too with ``retry_errors``); an answer is never overwritten and never duplicated (the store).
"""

from __future__ import annotations

import asyncio
import json
import signal
import sqlite3
import sys
from collections.abc import AsyncIterator, Awaitable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from forgebench.models.base import ImageRef, Model, Request
from forgebench.models.registry import describe_request
from forgebench.models.replicas import ReplicatedModel
from forgebench.models.spec import ModelConfig
from forgebench.run.blobs import BlobStore, blob_dir, put_outputs
from forgebench.run.costs import Budget
from forgebench.run.images import B64Cache
from forgebench.run.send.options import SendOptions
from forgebench.run.send.progress import ModelProgress
from forgebench.run.send.replicas import record_replicas
from forgebench.run.send.runner import Call, CallOutcome, ExecSettings, ExecStats, execute
from forgebench.run.send.writer import StoreWriter
from forgebench.run.settings import scrub, secret_values
from forgebench.run.store import Store, task_images
from forgebench.run.tasks import Question, Task

if TYPE_CHECKING:
    from forgebench.run.images import B64Cache

B64_CACHE_BYTES = 32 * 1024 * 1024
"""Bound of the in-process base64 cache (bytes of base64 text)."""
PAGE = 1000
"""Pending tasks read back from the store at a time while sending."""


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
    resized: int = 0
    """Tasks of this invocation sent resized images (the model's image limits, ``run/fit.py``)."""


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


INLINE_B64_BYTES = 1 << 20
"""An image file up to this size is base64-encoded on the loop (well under a millisecond); a
larger one on a thread, so that a huge file never stalls the requests in flight. Handing every
image to a thread cost more than encoding it: each hand-off wakes a thread that then holds the
interpreter while the loop waits to resume."""
SWITCH_INTERVAL_S = 0.0005
"""The interpreter's thread switch interval while sending (Python's default is 5 ms). The store
writer and the encoding threads run Python code; whenever the loop wants the interpreter back it
waits up to this long, and with the default every outcome handed to the writer could hold up
every request in flight by 5 ms."""


async def _encode(b64: B64Cache, ref: ImageRef) -> str:
    """The base64 of ``ref`` (cached by ``b64``): small files here, large ones on a thread."""
    try:
        small = ref.path.stat().st_size <= INLINE_B64_BYTES
    except OSError:
        small = False  # the thread reports the error as the encoding does
    return b64.get(ref) if small else await asyncio.to_thread(b64.get, ref)


def _task_of(row: sqlite3.Row, config: ModelConfig) -> Task:
    """A stored task, rebuilt for sending: the model's real generation parameters (the store
    keeps them scrubbed), the image where this invocation put it."""
    images = task_images(row) if row["image_path"] else ()
    q = Question(
        item_id=row["item_id"], probe=row["probe"], condition=row["condition"],
        prompt=row["prompt"], prompt_version=row["prompt_version"], images=images,
        extra=json.loads(row["extra"] or "{}"), benchmark=row["benchmark"],
    )  # fmt: skip
    epoch = int(row["epoch"]) if "epoch" in row.keys() else 1  # noqa: SIM118 (Row: in = values)
    params = config.generation_params()
    return Task(key=row["key"], model=config.name, question=q, params=params, epoch=epoch)


def _request(task: Task, images_b64: tuple[str | None, ...] | None = None) -> Request:
    """The request of ``task``: every image in order, with the runner's base64 of each where it
    was encoded (None: not encoded, as for the stored description)."""
    q = task.question
    return Request(
        prompt=q.prompt,
        images=q.images,
        params=dict(task.params),
        images_b64=images_b64 or (),
        choice=tuple(q.extra.get("choice") or ()),
        meta={
            "task_key": task.key,
            "item_id": q.item_id,
            "probe": q.probe,
            "condition": q.condition,
            "extra": dict(q.extra),
            **({"epoch": task.epoch} if task.epoch > 1 else {}),  # a repeat (run --epochs)
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
    options: SendOptions | None = None,
    stop: asyncio.Event | None = None,
    blobs: BlobStore | None = None,
) -> GenerationResult:
    """Send every pending task of this invocation (``generate.store_questions``) for
    every model, concurrently; pending tasks are read from the store in pages. ``options``:
    its progress bars, retry policy and grace after ``stop`` (its signal fields are
    :func:`send`'s)."""
    opts = options or SendOptions()
    progress = opts.progress
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
                    for ref in task.question.images:  # cached, else encoded (see _encode)
                        hit = b64.cached(ref)
                        encoded.append(hit if hit is not None else await _encode(b64, ref))
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
                ExecSettings.of(config, retry=opts.retry, grace_s=opts.grace_s),
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
        resized = store.resized_count(name) if config.limits() is not None else 0
        return ModelResult(name, total, sent, stats, left, errored, resized)

    switch = sys.getswitchinterval()
    sys.setswitchinterval(min(switch, SWITCH_INTERVAL_S))
    try:
        async with StoreWriter(store.run_dir) as writer:
            result.models = list(await asyncio.gather(*(one(c) for c in configs)))
    finally:
        sys.setswitchinterval(switch)
    result.interrupted = stop.is_set()
    if budget is not None:
        result.budget_stopped = budget.exhausted
        result.spent_usd = budget.spent
    return result


async def send(
    store: Store,
    configs: list[ModelConfig],
    models: dict[str, Model],
    *,
    retry_errors: bool = False,
    budget: Budget | None = None,
    options: SendOptions | None = None,
    blobs: BlobStore | None = None,
) -> GenerationResult:
    """Send this invocation's stored tasks (:func:`generate`); with ``options.handle_signals``
    the first SIGINT/SIGTERM stops scheduling (requests in flight get ``options.grace_s``
    seconds; ``options.on_signal`` is called), the second abandons them."""
    opts = options or SendOptions()
    handle_signals, on_signal = opts.handle_signals, opts.on_signal
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
            options=opts,
            stop=stop,
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
