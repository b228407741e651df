"""Ask any model backend a construction question, with stored answers (resume) and retries.

Construction asks models three things: edit specifications (``propose --model``), the grounding
question of an inserted object, and PIXAR's fidelity assessment. :class:`Asker` builds the backend
from a model spec (``[ALIAS=]PROVIDER/MODEL[@URL]``, as ``forgebench run``), retries retryable
failures with the runner's policy, and appends every answer to a JSONL ledger under a key that
hashes the model, the prompt version, the prompt, the image's bytes and the generation
parameters; a key with a stored answer is never asked again. This ledger stands in for the run
store until the engine's runner takes generic calls (the call shape is the runner's: a
:class:`~forgebench.models.base.Request` to a :class:`~forgebench.models.base.Model`).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
from pathlib import Path

from forgebench.models.base import ModelError, Request
from forgebench.models.registry import create_model
from forgebench.models.spec import ModelConfig
from forgebench.run.retry import RetryPolicy
from forgebench.run.tasks import ImageRef


class AskError(Exception):
    """A question that could not be answered (after retries, or a non-retryable failure)."""


class Asker:
    """One model, its answer ledger and its retry policy."""

    def __init__(
        self, spec: str, ledger: Path, attempts: int = 4, retry: RetryPolicy | None = None
    ) -> None:
        self.config = ModelConfig(spec=spec)
        self.model = create_model(self.config)
        self.name = self.model.name
        self.params = self.config.generation_params()
        self.ledger = ledger
        self.attempts = attempts
        self.retry = retry or RetryPolicy()
        self.answers: dict[str, str] = {}
        self._lock = asyncio.Lock()
        if ledger.is_file():
            for line in ledger.read_text(encoding="utf-8").splitlines():
                try:
                    row = json.loads(line)
                    self.answers[row["key"]] = row["text"]
                except (json.JSONDecodeError, KeyError, TypeError):
                    continue  # a line cut by a kill: asked again

    def key(self, version: str, prompt: str, image: Path | None) -> str:
        """The stored answer's key."""
        h = hashlib.sha256()
        digest = hashlib.sha256(image.read_bytes()).hexdigest() if image else ""
        h.update(
            json.dumps([self.name, version, prompt, digest, self.params], sort_keys=True).encode()
        )
        return h.hexdigest()[:24]

    async def ask(self, version: str, prompt: str, image: Path | None = None) -> str:
        """The model's answer text (stored, or asked now)."""
        key = self.key(version, prompt, image)
        if key in self.answers:
            return self.answers[key]
        ref = None
        if image is not None:
            media = "image/png" if image.suffix.lower() == ".png" else "image/jpeg"
            ref = ImageRef(
                variant_id=hashlib.sha256(image.read_bytes()).hexdigest()[:16],
                path=image,
                media_type=media,
            )
        req = Request(prompt=prompt, image=ref, params=dict(self.params), meta={"task_key": key})
        for n in range(1, self.attempts + 1):
            try:
                resp = await self.model.generate(req)
                break
            except ModelError as exc:
                if not exc.retryable or n == self.attempts:
                    raise AskError(f"{self.name}: {exc}") from None
                await asyncio.sleep(self.retry.delay(n, exc.retry_after))
        async with self._lock:
            self.ledger.parent.mkdir(parents=True, exist_ok=True)
            with self.ledger.open("a", encoding="utf-8") as fh:
                fh.write(
                    json.dumps(
                        {"key": key, "model": self.name, "version": version, "text": resp.text}
                    )
                    + "\n"
                )
                fh.flush()
                os.fsync(fh.fileno())
            self.answers[key] = resp.text
        return resp.text

    async def aclose(self) -> None:
        """Release the backend's connections."""
        await self.model.aclose()
