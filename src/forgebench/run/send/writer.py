"""The store writer: one thread that owns a run's per-outcome writes, off the event loop.

Storing an answer is CPU and disk work that grows with its size: redacting and JSON-encoding the
request record, encoding the answer, writing output files, committing. Done on the asyncio event
loop, a multi-megabyte answer stalls every request in flight and leaves the process deaf to
Ctrl-C and SIGTERM until it is written. The loop hands each outcome to
:class:`StoreWriter` as a job instead; one thread runs the jobs in order on a connection of its
own (``sqlite3`` connections belong to the thread that opened them; WAL lets the loop's
connection read pending pages meanwhile).

Guarantees (the store's rules of ``store/core.py`` are unchanged):

- a job is written once, in its own transaction; :meth:`StoreWriter.flush` returns once every
  job submitted before it is committed, so counts read afterwards are exact;
- at most ``capacity`` jobs wait: :meth:`StoreWriter.submit` waits for room (the workers wait,
  the loop does not), so memory stays bounded when answers arrive faster than they are written;
- :meth:`StoreWriter.close` drains the queue; with ``abandon`` (a second Ctrl-C) it stops after
  the job being written and waits for that one at most :data:`ABANDON_WAIT_S` (another process
  may hold the store's write lock: the job's transaction is then never committed). Jobs never
  written leave their tasks pending: the next run asks them again (an answer is never stored
  twice: ``INSERT OR IGNORE`` on the task key);
- a job that fails (a full disk) stops the writer; the error is raised on the loop at the next
  :meth:`StoreWriter.submit`, :meth:`StoreWriter.flush` or :meth:`StoreWriter.close`.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from forgebench.run.store import Store

Job = Callable[[Store], None]
"""One write, run on the writer thread with its own :class:`Store`."""

CAPACITY = 32
"""Jobs that may wait to be written."""
ABANDON_WAIT_S = 2.0
"""How long :meth:`StoreWriter.close` with ``abandon`` waits for the job being written."""


class StoreWriter:
    """One writer thread for a run directory's store (use ``async with``)."""

    def __init__(self, run_dir: Path, *, capacity: int = CAPACITY) -> None:
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.run_dir = Path(run_dir)
        self.written = 0
        """Jobs run to the end."""
        self._capacity = capacity
        self._jobs: queue.SimpleQueue[Job | _Mark | None] = queue.SimpleQueue()
        self._abandon = threading.Event()
        self._error: BaseException | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._room: asyncio.Semaphore | None = None
        self._thread: threading.Thread | None = None

    async def __aenter__(self) -> StoreWriter:
        self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        cancelled = exc_type is not None and issubclass(exc_type, asyncio.CancelledError)
        try:
            await self.close(abandon=cancelled)
        except Exception:
            if exc_type is None:
                raise  # the writer's failure is the error; otherwise the one in flight is

    def start(self) -> None:
        """Start the thread (inside the running loop that will submit jobs)."""
        self._loop = asyncio.get_running_loop()
        self._room = asyncio.Semaphore(self._capacity)
        self._thread = threading.Thread(target=self._main, name="forgebench-store-writer")
        self._thread.daemon = True  # a third Ctrl-C may leave it; SQLite rolls back its write
        self._thread.start()

    async def submit(self, job: Job) -> None:
        """Queue ``job``, waiting (without blocking the loop) while ``capacity`` jobs wait."""
        self._raise_failure()
        assert self._room is not None, "start() the writer first"
        await self._room.acquire()
        self._jobs.put(job)

    async def flush(self) -> None:
        """Return once every job submitted so far is written (or raise the writer's error)."""
        assert self._loop is not None and self._room is not None, "start() the writer first"
        self._raise_failure()
        mark = _Mark(self._loop.create_future())
        await self._room.acquire()
        self._jobs.put(mark)
        await mark.done
        self._raise_failure()

    async def close(self, *, abandon: bool = False) -> None:
        """Write what waits (with ``abandon``: only the job being written), stop the thread and
        wait for it; raise the writer's error, if it had one."""
        if self._thread is None:
            return
        if abandon:
            self._abandon.set()
        self._jobs.put(None)
        thread, self._thread = self._thread, None
        await asyncio.to_thread(thread.join, ABANDON_WAIT_S if abandon else None)
        if thread.is_alive():
            return  # waiting on a store another process holds: what it writes is never half-done
        self._raise_failure()

    # -- the thread ------------------------------------------------------------------------------

    def _main(self) -> None:
        store: Store | None = None
        try:
            store = Store.open(self.run_dir, create=False)
        except BaseException as exc:  # handed to the loop
            self._error = exc
        while True:
            job = self._jobs.get()
            if job is None:
                break
            try:
                if isinstance(job, _Mark):
                    job.resolve(self._loop)
                elif store is not None and self._error is None and not self._abandon.is_set():
                    job(store)
                    self.written += 1
            except BaseException as exc:  # handed to the loop
                self._error = exc
            finally:
                self._release()
        if store is not None:
            store.close()

    def _release(self) -> None:
        loop, room = self._loop, self._room
        if loop is not None and room is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody waits
                loop.call_soon_threadsafe(room.release)

    def _raise_failure(self) -> None:
        if self._error is not None:
            raise self._error


class _Mark:
    """A place in the queue: resolved when the writer gets there (:meth:`StoreWriter.flush`)."""

    def __init__(self, done: asyncio.Future[None]) -> None:
        self.done = done

    def resolve(self, loop: asyncio.AbstractEventLoop | None) -> None:
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(self._set)

    def _set(self) -> None:
        if not self.done.done():
            self.done.set_result(None)
