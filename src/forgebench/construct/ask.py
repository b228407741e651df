"""Ask any model backend construction questions, through the engine's runner and the work store.

Construction asks models three things: edit specifications (``propose --model``), the grounding
question of an inserted object, and PIXAR's fidelity assessment. :class:`Asker` builds the backend
from a model spec (``[ALIAS=]PROVIDER/MODEL[@URL]``, as ``forgebench run``) and sends a batch of
questions through :meth:`~forgebench.construct.workstore.WorkStore.send` (the runner's
concurrency, rate limit, retries and ``Retry-After``); each question is a task of the work store
under a key that hashes the model, the prompt version, the prompt, the image's bytes and the
generation parameters, so a question with a stored answer is never asked again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from forgebench.construct.workstore import BENCHMARK, Job, WorkStore
from forgebench.models.base import ImageRef, Request
from forgebench.models.registry import create_model
from forgebench.models.spec import ModelConfig
from forgebench.run.send.retry import RetryPolicy
from forgebench.run.tasks import Question, Task


class AskError(Exception):
    """A question that could not be answered (after retries, or a non-retryable failure)."""


@dataclass(frozen=True)
class Ask:
    """One question: its prompt version, prompt and image, and what it is about."""

    version: str
    prompt: str
    image: Path | None = None
    subject: str = ""
    """What is asked about (a scene id, a candidate key): the stored task's item."""


class Asker:
    """One model, asked through the work store (``work``: given here, or set before asking;
    building the backend first lets a bad spec fail before anything is written)."""

    def __init__(
        self,
        spec: str,
        work: WorkStore | None = None,
        attempts: int = 4,
        retry: RetryPolicy | None = None,
    ) -> None:
        self.config = ModelConfig(spec=spec, max_attempts=attempts)
        self.model = create_model(self.config)
        self.name = self.model.name
        self.params = self.config.generation_params()
        self.work = work
        self.retry = retry

    def key(self, version: str, prompt: str, image: Path | None) -> str:
        """The stored answer's key."""
        h = hashlib.sha256()
        digest = hashlib.sha256(image.read_bytes()).hexdigest() if image else ""
        h.update(
            json.dumps([self.name, version, prompt, digest, self.params], sort_keys=True).encode()
        )
        return h.hexdigest()[:24]

    def _job(self, q: Ask) -> Job:
        key = self.key(q.version, q.prompt, q.image)
        ref = None
        if q.image is not None:
            media = "image/png" if q.image.suffix.lower() == ".png" else "image/jpeg"
            variant = hashlib.sha256(q.image.read_bytes()).hexdigest()[:16]
            ref = ImageRef(variant_id=variant, path=q.image, media_type=media)
        question = Question(
            item_id=q.subject or "-", probe=q.version, condition=key, prompt=q.prompt,
            prompt_version=q.version, image=ref, benchmark=BENCHMARK,
        )  # fmt: skip
        task = Task(key=key, model=self.name, question=question, params=dict(self.params))
        request = Request(
            prompt=q.prompt,
            images=question.images,
            params=dict(self.params),
            meta={"task_key": key},
        )
        return Job(task, request)

    async def ask_many(self, questions: Sequence[Ask]) -> list[str | AskError]:
        """Every question's answer text (stored, or asked now), or why there is none."""
        if not questions:
            return []
        if self.work is None:
            raise RuntimeError("Asker.work is not set")
        jobs = [self._job(q) for q in questions]
        sent = await self.work.send(self.model, self.config, jobs, retry=self.retry)
        out: list[str | AskError] = []
        for job in jobs:
            got = self.work.answer(job.task.key)
            if got is not None:
                out.append(got[0])
                continue
            err = self.work.error(job.task.key)
            why = err[0] if err is not None else f"not asked ({sent.stats.fatal or 'stopped'})"
            out.append(AskError(f"{self.name}: {why}"))
        return out

    async def ask(self, version: str, prompt: str, image: Path | None = None) -> str:
        """One question's answer text; :class:`AskError` when there is none."""
        (answer,) = await self.ask_many([Ask(version, prompt, image)])
        if isinstance(answer, AskError):
            raise answer
        return answer

    async def aclose(self) -> None:
        """Release the backend's connections."""
        await self.model.aclose()
