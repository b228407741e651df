"""The work folder of a construction stage: the engine's run store, output blobs and runner.

Every paid call of construction (an editor rendering a candidate, a model asked for edit
specifications, the grounding question, PIXAR's fidelity assessment) is a task of
``WORK/run.sqlite`` (:mod:`forgebench.run.store`, benchmark ``construct``) and is sent by the
engine's runner (:func:`forgebench.run.send.runner.execute`: concurrency, requests per minute,
retries with backoff and ``Retry-After``, per-attempt timeout). Every outcome is committed as it
arrives: a reply is an answer (an editor's refusal or safety block too), a failure after the last
attempt an error; files a reply carries (a candidate image) go to ``WORK/blobs/`` by content hash
(:class:`forgebench.run.blobs.BlobStore`) and are named in the ``outputs`` table. A key with an
answer is never sent again, so a build or a proposal killed at any point resumes without paying
twice; errored keys are sent again by the next run. The finished steps of a multi-step
candidate are kept as they are rendered (``steps.py``, table ``construct_steps``), so neither a
retry nor a later run sends them again, and what they cost counts before the candidate ends.

Work folders written before the run store (``candidates.jsonl`` with ``blobs/SHA.png``, and the
``answers.jsonl`` of model questions) are imported when the store is opened: their records become
answers under the same keys (the images move into the blob layout), and the ledger is renamed
``*.imported``, so nothing already paid is asked again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forgebench.construct.steps import StepStore
from forgebench.models.base import Model, Request, Response, Usage
from forgebench.models.registry import describe_request
from forgebench.models.spec import ModelConfig
from forgebench.run.blobs import BlobStore, put_outputs
from forgebench.run.costs import Budget
from forgebench.run.send.retry import RetryPolicy
from forgebench.run.send.runner import Call, CallOutcome, ExecSettings, ExecStats, execute
from forgebench.run.settings import scrub, secret_values
from forgebench.run.store import Store
from forgebench.run.tasks import Task

BENCHMARK = "construct"
"""The benchmark column of construction tasks in the work store."""
PNG = "image/png"


@dataclass(frozen=True)
class Job:
    """One call to send: the stored task and the request built for it."""

    task: Task
    request: Request
    images: int | None = None
    """Images the call is expected to bill (editors: the specification's steps), for the cap."""


@dataclass
class Sent:
    """What :meth:`WorkStore.send` did."""

    stats: ExecStats
    budget_stopped: bool = False


class WorkStore:
    """``WORK/run.sqlite`` and ``WORK/blobs/`` of one construction work folder."""

    def __init__(self, work: Path) -> None:
        self.work = Path(work)
        self.store = Store.open(self.work)
        self.blobs = BlobStore(self.work / "blobs")
        self.steps = StepStore(self.store, self.blobs)
        """Finished steps of multi-step candidates (``steps.py``)."""
        # inside: circle (legacy imports render, which imports workstore)
        from forgebench.construct.legacy import import_ledgers

        self.imported = import_ledgers(self)
        """Records imported from a work folder of the previous version (0 when none)."""

    def close(self) -> None:
        """Close the store (everything is committed)."""
        self.store.close()

    # -- reading -------------------------------------------------------------------------------

    def answer(self, key: str) -> tuple[str, dict[str, Any], int] | None:
        """``(text, raw, attempts)`` of a stored answer, or None."""
        got = self.store.answer(key)
        return None if got is None else (got.text, got.raw, got.attempts)

    def error(self, key: str) -> tuple[str, int] | None:
        """``(reason, attempts)`` of a stored error, or None."""
        err = self.store.error(key)
        return None if err is None else (err.reason, err.attempts)

    def output(self, key: str) -> str | None:
        """The sha256 of a task's first output file (a candidate image), or None."""
        files = self.store.outputs(key)
        return files[0][1] if files else None

    def blob_path(self, sha256: str) -> Path:
        """Where a PNG output lives."""
        return self.blobs.path(sha256, PNG)

    # -- writing -------------------------------------------------------------------------------

    def store_response(
        self, key: str, response: Response, attempts: int, latency_s: float | None, request: Any
    ) -> None:
        """Files first (by hash), then the answer that names them."""
        put_outputs(self.blobs, self.store, key, response.outputs)
        self.store.put_answer(key, response, attempts, latency_s, request)

    async def send(
        self,
        model: Model,
        config: ModelConfig,
        jobs: Sequence[Job],
        *,
        retry: RetryPolicy | None = None,
        budget: Budget | None = None,
        give_up_after: int | None = None,
        billed: Callable[[str], int] | None = None,
    ) -> Sent:
        """Store the jobs' tasks and send those without an answer through the runner.

        With ``budget``, each call reserves its estimated cost before it is sent and none is
        started past the cap (``run/costs.py``); ``Sent.budget_stopped`` says so. ``billed``
        says how many images a call that ended as an error billed all the same (the finished
        steps of a multi-step candidate), so the cap counts them.
        """
        secrets = secret_values([config])
        unique = list({j.task.key: j for j in jobs}.values())
        self.store.put_tasks(_scrubbed(j.task, secrets) for j in unique)
        done = self.store.answered({j.task.key for j in unique})
        todo = [j for j in unique if j.task.key not in done]
        reserved: dict[str, float] = {}
        sending: dict[str, Job] = {}
        state = Sent(ExecStats())

        def calls() -> Iterator[Call]:
            for job in todo:
                if budget is not None:
                    est = budget.reserve(config, job.task, images=job.images)
                    if est is None:
                        state.budget_stopped = True
                        return
                    reserved[job.task.key] = est
                sending[job.task.key] = job
                yield Call(job.task.key, job.request)

        def on_outcome(outcome: CallOutcome) -> None:
            job = sending.pop(outcome.key)
            r = outcome.response
            if r is not None:
                described = scrub(describe_request(model, job.request), secrets)
                self.store_response(outcome.key, r, outcome.attempts, outcome.latency_s, described)
            else:
                self.store.put_error(
                    outcome.key, outcome.error or "unknown error", outcome.status, outcome.attempts
                )
            usage, n = (r.usage, _images(r)) if r is not None else (None, 0)
            if r is None and billed is not None and (n := billed(outcome.key)):
                usage = Usage(0, 0)  # an error that billed images all the same
            if budget is not None:
                budget.settle(config, reserved.pop(outcome.key, 0.0), usage, n)

        state.stats = await run_calls(model, config, calls(), on_outcome, retry, give_up_after)
        return state


def _images(response: Response | None) -> int:
    """Images a reply billed in this process: an editor says so in ``raw["billed"]`` (its
    ``raw["images"]`` counts steps kept from earlier runs too), else its output files."""
    if response is None:
        return 0
    n = response.raw.get("billed", response.raw.get("images"))
    return int(n) if isinstance(n, int) else len(response.outputs)


def _scrubbed(task: Task, secrets: list[str]) -> Task:
    from dataclasses import replace

    return replace(task, params=scrub(dict(task.params), secrets))


async def run_calls(
    model: Model,
    config: ModelConfig,
    calls: Iterator[Call],
    on_outcome: Callable[[CallOutcome], None],
    retry: RetryPolicy | None,
    give_up_after: int | None,
) -> ExecStats:
    """The one place construction calls the engine's runner (its arguments from ``config``)."""
    settings = ExecSettings.of(config, retry=retry, give_up_after=give_up_after)
    return await execute(model, calls, settings, on_outcome=on_outcome)
