"""Render candidates of verified specifications with an editor: stored, resumable, capped.

Seed 000 Appendix C: "Each edit specification is rendered once initially. A new identity or a
fresh render is generated only when the editor refuses the request or the candidate fails
quality control, with at most two to four candidates per specification. The best valid
candidate is retained." :func:`render_all` does that per specification: candidate 0, its gates,
and a next candidate only while none passed, up to ``max_candidates``.

Storage (the seam to the engine's store): candidate images are blobs named by the SHA-256 of
their PNG bytes under ``WORK/blobs/``; every finished call appends one :class:`CandidateRecord`
to ``WORK/candidates.jsonl`` (flushed and fsynced) under a key that hashes the specification,
the editor name and the candidate index. A key with a record is never sent again: a killed build
resumes without paying twice for a candidate. Errors (after the last attempt) are recorded but not
taken as done, so the next run retries them. This ledger stands in for the generic run store until
the engine's runner takes generic calls; the editor interface is already the runner's shape
(async call, ``ModelError`` with ``retryable`` / ``retry_after``).

Cost: each editor states a price per image; ``max_cost`` stops starting calls once the spend
recorded in the ledger (this run and earlier ones) plus the next call's price would exceed it.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

import numpy as np
from PIL import Image
from pydantic import BaseModel

from forgebench.construct.edit_api import Editor, EditOutcome, EditRequest, content_hash, decode_rgb
from forgebench.construct.specs import EditSpec, EditStep
from forgebench.models.base import ModelError
from forgebench.run.retry import RetryPolicy

LEDGER = "candidates.jsonl"


class CandidateRecord(BaseModel):
    """One finished editor call (a candidate, a refusal, a block, or a final error)."""

    key: str
    """Hash of (specification, editor, candidate index)."""
    spec_id: str
    """The specification."""
    candidate: int
    """Candidate index."""
    editor: str
    """The editor's name."""
    status: str
    """``ok``, ``refused``, ``blocked`` or ``error``."""
    blob: str | None = None
    """SHA-256 of the candidate PNG (``WORK/blobs/<blob>.png``)."""
    message: str | None = None
    """Refusal / block / error text."""
    cost: float = 0.0
    """What the call cost."""
    attempts: int = 1
    """Attempts made."""


def candidate_key(spec: EditSpec, editor: str, index: int) -> str:
    """Stable key of one candidate (the specification's JSON, the editor, the index)."""
    payload = json.dumps(
        [spec.model_dump(mode="json", exclude={"proposer", "verification"}), editor, index],
        sort_keys=True,
    )
    return hashlib.sha256(payload.encode()).hexdigest()[:24]


class Ledger:
    """``candidates.jsonl`` and the blob folder of one build."""

    def __init__(self, work: Path) -> None:
        self.work = work
        self.blobs = work / "blobs"
        self.blobs.mkdir(parents=True, exist_ok=True)
        self.path = work / LEDGER
        self.records: dict[str, CandidateRecord] = {}
        self.spent = 0.0
        self.pixels: dict[str, np.ndarray] = {}
        """Decoded candidates by blob (each is decoded once per build)."""
        if self.path.exists():
            for line in self.path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    try:
                        r = CandidateRecord.model_validate_json(line)
                    except ValueError:
                        continue  # a line cut by a kill: that call is redone
                    self.spent += r.cost
                    if r.status != "error":
                        self.records[r.key] = r

    def add(self, rec: CandidateRecord, png: bytes | None = None) -> None:
        """Store the blob (if any), then append the record durably."""
        if png is not None and rec.blob:
            blob = self.blobs / f"{rec.blob}.png"
            if not blob.exists():
                tmp = blob.with_suffix(".tmp")
                tmp.write_bytes(png)
                tmp.replace(blob)
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(rec.model_dump_json() + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        self.spent += rec.cost
        if rec.status != "error":
            self.records[rec.key] = rec

    def image(self, rec: CandidateRecord) -> np.ndarray:
        """The candidate's pixels (decoded once, then kept)."""
        assert rec.blob is not None
        if rec.blob not in self.pixels:
            path = self.blobs / f"{rec.blob}.png"
            self.pixels[rec.blob] = np.asarray(Image.open(path).convert("RGB"))
        return self.pixels[rec.blob]


class BudgetExceeded(Exception):
    """The next call would pass ``max_cost``."""


def _mask(step: EditStep, seed_root: Path, shape: tuple[int, int]) -> np.ndarray | None:
    if step.mask:
        m = np.asarray(Image.open(seed_root / step.mask).convert("L")) > 127
        if m.shape != shape:
            raise ModelError(
                f"mask {step.mask} is {m.shape[::-1]}, image {shape[::-1]}",
                retryable=False,
                task_only=True,
            )
        return m
    if step.region:
        x0, y0, x1, y1 = step.region
        m = np.zeros(shape, bool)
        m[y0:y1, x0:x1] = True
        return m
    return None


def _params(step: EditStep, seed_root: Path) -> dict[str, object]:
    out: dict[str, object] = {}
    for k, v in step.params.items():
        out[k] = (
            str(seed_root / v)
            if k in ("patch", "alpha", "background") and isinstance(v, str)
            else v
        )
    return out


async def _call(
    editor: Editor, req: EditRequest, retry: RetryPolicy, attempts: int
) -> tuple[EditOutcome, int]:
    for n in range(1, attempts + 1):
        try:
            return await editor.edit(req), n
        except ModelError as exc:
            if not exc.retryable or n == attempts:
                raise _Failed(str(exc), n) from None
            await asyncio.sleep(retry.delay(n, exc.retry_after))
    raise AssertionError("unreachable")


class _Failed(Exception):
    def __init__(self, message: str, attempts: int) -> None:
        super().__init__(message)
        self.attempts = attempts


async def render_candidate(
    spec: EditSpec,
    index: int,
    seed: np.ndarray,
    seed_root: Path,
    editor: Editor,
    ledger: Ledger,
    retry: RetryPolicy,
    attempts: int = 4,
    max_cost: float | None = None,
) -> CandidateRecord:
    """The stored record of candidate ``index`` (rendered now unless the ledger has it)."""
    key = candidate_key(spec, editor.name, index)
    if key in ledger.records:
        return ledger.records[key]
    steps = spec.all_steps
    if (
        max_cost is not None
        and ledger.spent + editor.price_per_image * len(steps) > max_cost + 1e-12
    ):
        raise BudgetExceeded(f"spent {ledger.spent:.2f} of max cost {max_cost:.2f}")
    img, cost, tries = seed, 0.0, 0
    rec: CandidateRecord
    try:
        out: EditOutcome | None = None
        for step in steps:
            req = EditRequest(
                image=img,
                mask=_mask(step, seed_root, img.shape[:2]),
                instruction=step.instruction,
                operation=step.operation,
                region=tuple(step.region) if step.region else None,  # type: ignore[arg-type]
                params=_params(step, seed_root),
                text=spec.text,
                candidate=index,
            )
            out, n = await _call(editor, req, retry, attempts)
            cost, tries = cost + out.cost, tries + n
            if out.status != "ok" or out.image is None:
                break
            img = out.pixels if out.pixels is not None else decode_rgb(out.image, editor.name)
            ledger.pixels[content_hash(out.image)] = img
        assert out is not None
        png = out.image if out.status == "ok" else None
        rec = CandidateRecord(
            key=key, spec_id=spec.id, candidate=index, editor=editor.name, status=out.status,
            blob=content_hash(png) if png else None, message=out.message, cost=cost, attempts=tries,
        )  # fmt: skip
        ledger.add(rec, png)
    except _Failed as exc:
        rec = CandidateRecord(
            key=key, spec_id=spec.id, candidate=index, editor=editor.name, status="error",
            message=str(exc), cost=cost, attempts=tries + exc.attempts,
        )  # fmt: skip
        ledger.add(rec)
    except ModelError as exc:  # a request that cannot be built (bad mask): this task only
        rec = CandidateRecord(
            key=key, spec_id=spec.id, candidate=index, editor=editor.name, status="error",
            message=str(exc), attempts=0,
        )  # fmt: skip
        ledger.add(rec)
    return rec


Accept = Callable[[EditSpec, CandidateRecord, np.ndarray], Awaitable[bool]]


async def render_all(
    specs: Sequence[tuple[EditSpec, np.ndarray]],
    seed_root: Path,
    editor: Editor,
    ledger: Ledger,
    accept: Accept,
    max_candidates: int = 2,
    concurrency: int = 4,
    retry: RetryPolicy | None = None,
    attempts: int = 4,
    max_cost: float | None = None,
) -> dict[str, list[CandidateRecord]]:
    """Every specification's candidates, in order, stopping at the first one ``accept`` keeps.

    Returns spec id -> its records. Specifications not reached because of ``max_cost`` have
    fewer (possibly no) records; run again with a higher cap to finish them.
    """
    retry = retry or RetryPolicy()
    sem = asyncio.Semaphore(concurrency)
    out: dict[str, list[CandidateRecord]] = {s.id: [] for s, _ in specs}
    stop = asyncio.Event()

    async def one(spec: EditSpec, seed: np.ndarray) -> None:
        async with sem:
            for i in range(max_candidates):
                if stop.is_set():
                    return
                try:
                    rec = await render_candidate(
                        spec, i, seed, seed_root, editor, ledger, retry, attempts, max_cost
                    )
                except BudgetExceeded:
                    stop.set()
                    return
                out[spec.id].append(rec)
                if rec.status == "error":
                    return  # retried by the next run, not replaced by a fresh candidate
                if rec.status == "ok" and await accept(spec, rec, ledger.image(rec)):
                    return

    await asyncio.gather(*(one(s, img) for s, img in specs))
    return out
