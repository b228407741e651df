"""builtin/verifier's tool results computed ahead of its questions, in the background.

The verifier's cost is its tools (OCR, scene matching, faces), which run in native code that
releases the GIL. When the images it will be asked about are known before it is asked (the demo
knows them once the dataset is built), :class:`Prewarm` computes their tool results on two
background threads while the caller does other work: one driver builds the verifier and runs
scene matching and faces image by image, a second reads the text of the images whose probes need
it. OCR is the longest chain, so the text driver never waits for a scene match to start an image:
it reads each image as it is and keeps that reading unless the image's scene turns out mirrored,
when it reads it again flipped (:meth:`.Verifier.warm_text`); while the verifier is still being
built it reads up to ``pending`` images ahead. Results land in the :class:`Verifier`'s own cache
(single flight per image and tool), so a runner given the same verifier
(:func:`.model.reusing`) answers from them, or waits for one being computed; nothing is written
to a run.

A tool that fails on an image is noted (:attr:`Prewarm.failed`) and skipped: the verifier's
answer computes it again inline and reports the failure as the task's error, as it would with
no prewarm. :meth:`Prewarm.cancel` stops it between images; it never blocks a caller beyond the
image each driver is on.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from forgebench.models.images import load_rgb
from forgebench.suites.mandela.verifier.model import VERDICT_PROBES, Verifier, read_ahead
from forgebench.suites.mandela.verifier.ocr import TextLine


@dataclass(frozen=True)
class Job:
    """One image variant and the probes it will be asked."""

    path: Path
    key: str
    """Its variant id (the verifier's cache key)."""
    probes: frozenset[str]


def jobs_of(tasks: Iterable[tuple[str, Path, str]]) -> list[Job]:
    """``(probe, image path, variant id)`` of each task -> one job per variant, in the order of
    its first task (the order a runner asks them)."""
    order: dict[str, tuple[Path, set[str]]] = {}
    for probe, path, key in tasks:
        order.setdefault(key, (path, set()))[1].add(probe)
    return [Job(path, key, frozenset(probes)) for key, (path, probes) in order.items()]


class Prewarm:
    """Tool results of ``jobs`` computed on two daemon threads (see the module docstring).

    ``make`` builds the verifier on the first driver (decoding its KB's portraits and scenes;
    the scene index's features are computed by the first scene match, the portraits' embeddings
    by the first answer that identifies a face, so a prewarm whose results are all kept on disk
    computes neither); :meth:`verifier` waits for it. ``stored`` says whether an image's text is
    already kept on disk (:mod:`.toolcache`): such an image is not read ahead of the verifier,
    which reads it from there. At most ``pending`` images are read ahead while the verifier is
    built (in the demo, two read as fast as more and held its peak about 20 MB lower).
    """

    def __init__(
        self,
        make: Callable[[], Verifier],
        jobs: list[Job],
        *,
        pending: int = 2,
        stored: Callable[[str], bool] | None = None,
    ) -> None:
        self._make = make
        self._verifier: Verifier | None = None
        self._ready = threading.Event()
        self.jobs = jobs
        self.failed: list[str] = []
        """``variant id: error`` of each image whose tool failed here (answered inline later)."""
        self.done = 0
        """Jobs finished (every tool they need computed or failed)."""
        self._pending = pending
        self._stored = stored or (lambda key: False)
        self._count = threading.Lock()
        self._left = {j.key: 2 if j.probes & VERDICT_PROBES else 1 for j in jobs}
        self._cancel = threading.Event()
        self._threads = [
            threading.Thread(target=self._vision, name="forgebench-prewarm-vision", daemon=True),
            threading.Thread(target=self._text, name="forgebench-prewarm-text", daemon=True),
        ]

    def start(self) -> Prewarm:
        for t in self._threads:
            t.start()
        return self

    def verifier(self) -> Verifier | None:
        """The verifier once built (None when building it failed: see :attr:`failed`)."""
        self._ready.wait()
        return self._verifier

    def cancel(self) -> None:
        """Stop after the image each driver is on."""
        self._cancel.set()

    def join(self, timeout: float | None = None) -> bool:
        """Wait for both drivers (True when they have finished)."""
        for t in self._threads:
            t.join(timeout)
        return not any(t.is_alive() for t in self._threads)

    def _finished(self, job: Job) -> None:
        """One driver is done with ``job`` (a verdict image has two)."""
        with self._count:
            self._left[job.key] -= 1
            if self._left[job.key] == 0:
                self.done += 1

    def _note(self, what: str, exc: BaseException) -> None:
        self.failed.append(f"{what}: {type(exc).__name__}: {exc}")

    def _vision(self) -> None:
        try:
            verifier = self._verifier = self._make()
        except Exception as exc:
            self._note("verifier", exc)
            return
        finally:
            self._ready.set()
        for job in self.jobs:
            if self._cancel.is_set():
                break
            try:
                rgb = load_rgb(job.path, "builtin/verifier", task_only=True)
                verifier.warm(rgb, job.key, job.probes, text=False)
            except Exception as exc:
                self._note(job.key, exc)
            self._finished(job)

    def _text(self) -> None:
        early: list[tuple[Job, np.ndarray, list[TextLine]]] = []
        """Images read before the verifier was built, kept until it is."""
        for job in self.jobs:
            if not job.probes & VERDICT_PROBES:
                continue
            if self._cancel.is_set():
                return
            try:
                rgb = load_rgb(job.path, "builtin/verifier", task_only=True)
                ahead = not self._ready.is_set() and len(early) < self._pending
                if ahead and not self._stored(job.key):
                    early.append((job, rgb, read_ahead(rgb)))
                    continue
            except Exception as exc:
                if self.verifier() is None:  # nothing to answer from: not worth a note
                    return
                self._note(job.key, exc)
                self._finished(job)
                continue
            if not self._settle(early, (job, rgb, None)):
                return
        if not self._cancel.is_set():
            self._settle(early)

    def _settle(
        self,
        early: list[tuple[Job, np.ndarray, list[TextLine]]],
        *more: tuple[Job, np.ndarray, list[TextLine] | None],
    ) -> bool:
        """Keep the text of the images read early and of ``more`` in the verifier (False when
        there is none to keep them in)."""
        verifier = self.verifier()
        if verifier is None:
            return False
        for job, rgb, unflipped in [*early, *more]:
            try:
                verifier.warm_text(rgb, job.key, unflipped)
            except Exception as exc:
                self._note(job.key, exc)
            self._finished(job)
        early.clear()
        return True
