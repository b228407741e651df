"""Generation: expand a dataset into tasks, store them, and send what is still pending.

:func:`plan` asks a benchmark (a :class:`~forgebench.run.source.QuestionSource`, i.e. a suite)
for its questions, rendering image variants into the content-addressed cache, and binds the
questions to each model (what a dry run previews); a model with image limits is sent a resized
variant of every image over them (``run/fit.py``), the only tasks whose keys the limits change. :func:`run_generation` stores items and tasks
in batches (:func:`store_questions`), then sends every pending task (``send/sending.py``).

Resume rules: only tasks of this invocation without an answer are sent (errored ones too with
``retry_errors``); an answer is never overwritten and never duplicated (``store/``). A model name
already used in the run directory with another provider, model id or generation parameters is
refused (its answers would mix). What ``--sample`` keeps is the suite's choice (Mandela: the items
of the first N seeds, so paired analyses stay complete).
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forgebench import __version__
from forgebench.models.registry import create_model
from forgebench.models.spec import (
    ModelConfig,
    NumberRule,
    SpecError,
    check_unique_names,
    number_problem,
)
from forgebench.run.binding import (
    check_choice,
    check_images,
    check_model_settings,
    for_model,
    with_benchmark,
)
from forgebench.run.blobs import BlobStore, blob_dir
from forgebench.run.costs import Budget, cost_usd
from forgebench.run.fit import Fitter
from forgebench.run.images import VariantCache, default_cache_dir
from forgebench.run.prerender import prerender
from forgebench.run.send.options import SendOptions
from forgebench.run.send.sending import GenerationResult, send
from forgebench.run.settings import RunSettings, scrub, secret_values, write_settings
from forgebench.run.source import Loaded, QuestionSource, Selection
from forgebench.run.store import Store
from forgebench.run.store.items import item_row
from forgebench.run.tasks import Task, TaskKeys, make_task

if TYPE_CHECKING:
    from forgebench.run.executor import Executor

__all__ = [
    "GenerationResult",
    "GenerationSettings",
    "Plan",
    "SendOptions",
    "plan",
    "run_generation",
    "store_questions",
]


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
    epochs: int = 1
    """How many times every question is asked (``--epochs``, Inspect's word): epochs 1..N, the
    epoch part of the task key only from 2 on (:func:`~forgebench.run.tasks.task_key`), so a
    run made with fewer epochs resumes and only the new epochs are asked."""

    def __post_init__(self) -> None:
        check_epochs(self.epochs, "epochs")


EPOCHS = NumberRule(1, 10**6, integer=True)
"""The range of ``--epochs`` (checked as :data:`~forgebench.models.spec.NUMBER_RULES` are)."""


def check_epochs(value: Any, where: str = "--epochs") -> None:
    """Refuse an epoch count that is not a whole number from 1 (:class:`SpecError`, one line
    naming ``where``): ``--epochs 0`` would ask nothing and a negative count means nothing."""
    why = number_problem("epochs", value, EPOCHS)
    if why is not None:
        raise SpecError(f"{where} {why}")


def plan(
    source: QuestionSource,
    dataset_root: Path,
    configs: list[ModelConfig],
    selection: Selection | None = None,
    *,
    cache_dir: Path | None = None,
    render_images: bool = True,
    executor: Executor | None = None,
    epochs: int = 1,
) -> Plan:
    """Load the dataset, expand it into questions and bind them to every model (each question
    ``epochs`` times: the repeats follow the first asks); with ``executor``, missing image
    variants are rendered there first (``run/prerender.py``)."""
    selection = selection or Selection()
    loaded = source.load(Path(dataset_root), selection)
    cache = VariantCache(cache_dir, root=loaded.root)
    if executor is not None and render_images:
        prerender(source, loaded, selection, cache, executor)
    questions = [
        with_benchmark(q, source.name)
        for q in source.questions(loaded, selection, cache, render_images=render_images)
    ]
    constrains: dict[str, bool] = {}
    for q in questions:
        check_images(q, configs)
        check_choice(q, configs, constrains)
    tasks: dict[str, list[Task]] = {}
    fitter = Fitter(cache, configs)
    for i, c in enumerate(configs):
        params = c.generation_params()
        bound = (
            make_task(fitter.fit(for_model(q, c), i), c.name, params, e)
            for e in range(1, epochs + 1)
            for q in questions
        )
        tasks[c.name] = list({t.key: t for t in bound}.values())  # a fallback also asked
    cache.flush()
    return Plan(benchmark=source.name, loaded=loaded, configs=configs, tasks=tasks)


STORE_BATCH = 20_000
"""Tasks bound, keyed and stored per transaction while a dataset is expanded."""
ITEM_ROWS = 1000
"""Item rows held before they are written (a row is the item's JSON)."""


class _StoredAsRead(Sequence[Any]):
    """A dataset's items as a suite's questions read them, each handed to ``keep`` on the first
    pass through them (in order): the items are stored from the read that expands them, so a
    dataset kept on disk is read and validated once more at load time, not twice. ``complete``
    tells whether that pass reached the end (a suite that reads its items another way, or not
    at all, gets them stored whole afterwards, as before)."""

    def __init__(self, items: Sequence[Any], keep: Callable[[Any], None]) -> None:
        self._items = items
        self._keep = keep
        self._started = False
        self.complete = False

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, index: Any) -> Any:
        return self._items[index]

    def __iter__(self) -> Iterator[Any]:
        if self._started:
            return iter(self._items)
        self._started = True
        return self._first_pass()

    def _first_pass(self) -> Iterator[Any]:
        for item in self._items:
            self._keep(item)
            yield item
        self.complete = True

    def __getattr__(self, name: str) -> Any:  # the suite's own sequence type (ItemFile.only)
        if name.startswith("_"):  # not set yet (a copy being made): never the wrapped one's
            raise AttributeError(name)
        return getattr(self._items, name)


def _scrubbed(tasks: Iterable[Task], secrets: list[str]) -> Iterator[Task]:
    for t in tasks:
        yield dataclasses.replace(t, params=scrub(dict(t.params), secrets))


def store_questions(
    store: Store,
    source: QuestionSource,
    loaded: Loaded,
    selection: Selection,
    configs: list[ModelConfig],
    cache_dir: Path | None,
    *,
    batch: int = STORE_BATCH,
    invocation: bool = True,
    epochs: int = 1,
) -> int:
    """Expand the dataset and store its tasks for every model in batches, never holding them
    all: peak memory does not grow with the number of tasks. Returns the questions stored.

    With ``epochs`` > 1 every question is bound ``epochs`` times (its repeats, each its own
    task: :func:`~forgebench.run.tasks.task_key`), one after the other.

    With ``invocation`` the stored tasks are this invocation's, the ones a run sends
    (:meth:`Store.begin_invocation`); a prepare that sends nothing leaves that out."""
    check_model_settings(store, configs)
    if invocation:
        store.begin_invocation()
    secrets = secret_values(configs)
    # per model, once: its name, the parameters its keys hash and the scrubbed ones stored
    bound = [(c.name, c.generation_params()) for c in configs]
    stored = [(name, scrub(dict(params), secrets)) for name, params in bound]
    keys_of = TaskKeys(bound)
    count = 0

    cache = VariantCache(cache_dir, root=loaded.root)
    fitter = Fitter(cache, configs)
    constrains: dict[str, bool] = {}

    def batches() -> Iterator[list[Task]]:
        nonlocal count
        count = 0
        buf: list[Task] = []
        rows: list[tuple[str, str, str]] = []

        def keep(item: Any) -> None:
            rows.append(item_row(source.name, item))
            if len(rows) >= ITEM_ROWS:
                store.put_item_rows(rows)
                rows.clear()

        items = _StoredAsRead(loaded.items, keep)
        for q in source.questions(dataclasses.replace(loaded, items=items), selection, cache):
            q = with_benchmark(q, source.name)
            check_images(q, configs)
            check_choice(q, configs, constrains)
            count += 1
            asked = [for_model(q, c) for c in configs]
            keys = keys_of(q)
            if q.fallback is not None and any(a is q.fallback for a in asked):
                keys = [
                    k if a is q else f
                    for a, k, f in zip(asked, keys, keys_of(q.fallback), strict=True)
                ]
            if fitter.active:  # a model with image limits: images over them resized
                for i, a in enumerate(asked):
                    fitted = fitter.fit(a, i)
                    if fitted is not a:
                        asked[i], keys[i] = fitted, keys_of(fitted)[i]
            buf += [
                Task(key, name, a, params)  # positional: 1.58M of them in a release's prepare
                for (name, params), key, a in zip(stored, keys, asked, strict=True)
            ]
            for e in range(2, epochs + 1):
                # each model's question as asked (the question, its fallback or a resized one)
                by_question: dict[int, list[str]] = {}
                again = [
                    by_question.setdefault(id(a), keys_of(a, e))[i] for i, a in enumerate(asked)
                ]
                buf += [
                    Task(key, name, a, params, e)
                    for (name, params), key, a in zip(stored, again, asked, strict=True)
                ]
            if len(buf) >= batch:
                yield buf
                buf = []
        store.put_item_rows(rows)
        rows.clear()
        if not items.complete:  # the suite did not read its items through once, in order
            store.put_items(source.name, loaded.items)
        if buf:
            yield buf

    store.load_tasks(batches)
    cache.flush()
    return count


def run_generation(
    source: QuestionSource,
    dataset_root: Path,
    run_dir: Path,
    configs: list[ModelConfig],
    settings: GenerationSettings | None = None,
    *,
    options: SendOptions | None = None,
) -> GenerationResult:
    """Plan, store and send; the CLI's ``forgebench run`` (without ``--dry-run``).

    ``options`` say how the requests go out (:class:`SendOptions`: progress, retry, signals).
    With ``options.handle_signals`` the first SIGINT/SIGTERM stops scheduling (requests in flight
    get a few seconds) and the second abandons them; either way everything answered is committed.
    ``prepare_only`` stores the tasks without sending anything (for ``export-batch``).
    """
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
            epochs=settings.epochs,
            cache_dir=str(Path(cache_dir or default_cache_dir()).resolve()),
        )
        write_settings(run_dir, record)
        store.meta_set("settings", scrub(record.model_dump(mode="json"), secret_values(configs)))
        datasets = store.meta_get("datasets") or {}  # one per benchmark: a run may hold several
        store.meta_set("datasets", {**datasets, source.name: str(loaded.root)})
        if settings.executor is not None:
            prerender(
                source, loaded, sel, VariantCache(cache_dir, root=loaded.root), settings.executor
            )
        store_questions(
            store, source, loaded, sel, configs, cache_dir,
            invocation=not settings.prepare_only, epochs=settings.epochs,
        )  # fmt: skip
        if settings.prepare_only:
            return GenerationResult()
        budget = Budget(max_cost) if max_cost is not None else None
        return asyncio.run(
            send(
                store, configs, models, retry_errors=settings.retry_errors, budget=budget,
                options=options, blobs=BlobStore(blob_dir(cache_dir)),
            )
        )  # fmt: skip
    finally:
        store.close()
