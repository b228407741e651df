"""Where per-file image work runs: in this process, or on Ray (``--executor local|ray``).

An executor maps a function over a list of small, picklable jobs (file paths and parameters)
and yields the results **in job order**. Workers only compute and return results (label PNG
bytes, rendered variants, decoded arrays); the caller, on the driver, alone writes files and the
run store, so SQLite keeps one writer and outputs are byte for byte those of the local executor.

:class:`RayExecutor` runs the jobs as Ray Data ``map_batches`` tasks over the job list: on the
cluster named by ``address`` (else ``RAY_ADDRESS``), or on a local Ray started for the purpose.
``workers`` caps the tasks running at once. A job that raises on a worker is re-raised on the
driver as the same exception (a :class:`~forgebench.suites.pixar.pairs.PairsError` keeps its
one-line message). ``ray`` is the optional extra ``forgebench[ray]``.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol, TypeVar, cast

from forgebench.errors import UserError

T = TypeVar("T")
R = TypeVar("R")

EXECUTORS: tuple[str, ...] = ("local", "ray")


class ExecutorError(UserError):
    """An executor that cannot be used (unknown name, Ray missing or unreachable); one line."""


class Executor(Protocol):
    """Maps a function over jobs, results in job order."""

    name: str

    def map(self, fn: Callable[[T], R], jobs: Sequence[T], *, batch_size: int = 8) -> Iterator[R]:
        """``fn(job)`` for every job, in order."""
        ...


class LocalExecutor:
    """Runs every job in this process, one after the other."""

    name = "local"

    def map(self, fn: Callable[[T], R], jobs: Sequence[T], *, batch_size: int = 8) -> Iterator[R]:
        """``fn(job)`` for every job, in order."""
        for job in jobs:
            yield fn(job)


class _ApplyBatch:
    """The ``map_batches`` function: unpickle each job (cloudpickle), apply ``fn``, pickle the
    outcome (``(True, result)`` or ``(False, exception)``)."""

    def __init__(self, fn: Callable[[Any], Any]) -> None:
        self.fn = fn

    def __call__(self, batch: dict[str, Any]) -> dict[str, Any]:
        import numpy as np

        outs = []
        for blob in batch["job"]:
            try:
                outcome: tuple[bool, Any] = (True, self.fn(pickle.loads(blob)))
            except Exception as exc:  # re-raised on the driver
                outcome = (False, exc)
            outs.append(pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL))
        out = np.empty(len(outs), dtype=object)
        out[:] = outs
        return {"i": batch["i"], "out": out}


class RayExecutor:
    """Runs jobs as Ray Data ``map_batches`` tasks (local Ray, or the cluster at ``address``)."""

    name = "ray"

    def __init__(
        self, address: str | None = None, workers: int | None = None, num_cpus: int | None = None
    ) -> None:
        try:
            import ray
            import ray.data
        except ImportError:
            raise ExecutorError("--executor ray needs Ray: pip install 'forgebench[ray]'") from None
        self.address = address or os.environ.get("RAY_ADDRESS") or None
        self.workers = workers
        quiet_ray_data()
        if not ray.is_initialized():
            try:
                if self.address:
                    ray.init(address=self.address, log_to_driver=False)
                else:
                    ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                where = self.address or "a local Ray"
                raise ExecutorError(f"cannot start or reach Ray at {where}: {exc}") from None

    def map(self, fn: Callable[[T], R], jobs: Sequence[T], *, batch_size: int = 8) -> Iterator[R]:
        """``fn(job)`` for every job on Ray workers; results yielded in job order as they
        arrive (out-of-order results wait in a buffer)."""
        import ray.data

        if not jobs:
            return
        from ray import cloudpickle  # jobs may hold closures (a variant's render function)

        rows = [{"i": i, "job": cloudpickle.dumps(job)} for i, job in enumerate(jobs)]
        blocks = max(1, min(-(-len(rows) // max(1, batch_size)), 200))
        ds = ray.data.from_items(rows, override_num_blocks=blocks).map_batches(
            cast(Any, _ApplyBatch(fn)),
            batch_size=batch_size,
            batch_format="numpy",
            compute=ray.data.TaskPoolStrategy(size=self.workers),
            num_cpus=1,
        )
        waiting: dict[int, Any] = {}
        next_i = 0
        for row in ds.iter_rows():
            waiting[int(row["i"])] = row["out"]
            while next_i in waiting:
                ok, value = pickle.loads(waiting.pop(next_i))
                if not ok:
                    raise value
                next_i += 1
                yield value


def quiet_ray_data() -> None:
    """No progress bars or per-dataset INFO logs from Ray Data in forgebench's output (warnings
    and errors still show)."""
    import logging

    import ray.data

    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    ctx.enable_auto_log_stats = False
    logging.getLogger("ray.data").setLevel(logging.WARNING)
    # each dataset run would say "Progress bars disabled" once: that is the point
    logging.getLogger("ray.data._internal.progress").setLevel(logging.ERROR)


def make_executor(name: str, *, address: str | None = None, workers: int | None = None) -> Any:
    """The executor called ``name`` (``local`` or ``ray``); :class:`ExecutorError` otherwise."""
    if name == "local":
        if address:
            raise ExecutorError("--ray-address needs --executor ray")
        return LocalExecutor()
    if name == "ray":
        return RayExecutor(address=address, workers=workers)
    raise ExecutorError(f"unknown executor {name!r}; known: {', '.join(EXECUTORS)}")
