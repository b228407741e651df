"""Render candidates of verified specifications with an editor: stored, resumable, capped.

Seed 000 Appendix C: "Each edit specification is rendered once initially. A new identity or a
fresh render is generated only when the editor refuses the request or the candidate fails
quality control, with at most two to four candidates per specification. The best valid
candidate is retained." :func:`render_all` does that in rounds: round ``i`` renders candidate
``i`` of every specification still without a passing candidate (all of them in round 0), gates
the new candidates, and a specification goes on to the next round only when its candidate was
refused, blocked or failed a gate, up to ``max_candidates``. A candidate that ended as an error
(after the runner's last attempt) stops its specification for this run; the next run retries it.

Each candidate is one task of the work store (``workstore.py``) under :func:`candidate_key`
(the specification, the editor's name, the candidate index), sent through the engine's runner
to the editor as a model (``editor_model.py``); a key with a stored outcome is never sent again.

Cost: the engine's price per image (``EditorConfig.price_image``) and spending cap
(:class:`forgebench.run.costs.Budget`): ``max_cost`` counts what the work store already spent
(earlier runs too, the kept steps of multi-step candidates that never finished included,
``steps.py``) and starts no call whose images (the steps still to render) would pass it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image
from pydantic import BaseModel

from forgebench.construct.edit_api import Editor
from forgebench.construct.editor_model import EditorConfig, EditorModel, edit_request
from forgebench.construct.specs import EditSpec
from forgebench.construct.steps import NO_IMAGE
from forgebench.construct.workstore import BENCHMARK, Job, WorkStore
from forgebench.run.costs import Budget
from forgebench.run.send.retry import RetryPolicy
from forgebench.run.tasks import Question, Task

EDIT_PROBE = "edit"
"""The probe column of candidate tasks."""
EDIT_VERSION = "edit-v1"
"""The prompt version of candidate tasks (the editor request's shape)."""


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
    """SHA-256 of the candidate PNG (in the work folder's blobs)."""
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


def candidate_task(spec: EditSpec, editor: str, index: int) -> Task:
    """The stored task of one candidate."""
    q = Question(
        item_id=spec.id, probe=EDIT_PROBE, condition=f"candidate {index}",
        prompt=" / ".join(s.instruction for s in spec.all_steps), prompt_version=EDIT_VERSION,
        extra={"candidate": index}, benchmark=BENCHMARK,
    )  # fmt: skip
    return Task(key=candidate_key(spec, editor, index), model=editor, question=q, params={})


def stored_record(
    work: WorkStore, spec_id: str, index: int, editor: str, key: str
) -> CandidateRecord | None:
    """The stored outcome of a candidate (an answer, else an error), or None."""
    head = {"key": key, "spec_id": spec_id, "candidate": index, "editor": editor}
    got = work.answer(key)
    if got is not None:
        text, raw, attempts = got
        return CandidateRecord(
            **head, status=text, blob=work.output(key) if text == "ok" else None,
            message=raw.get("message"), cost=float(raw.get("cost") or 0.0), attempts=attempts,
        )  # fmt: skip
    err = work.error(key)
    if err is not None:
        return CandidateRecord(**head, status="error", message=err[0], attempts=err[1])
    return None


def spent(work: WorkStore) -> float:
    """What the work store's candidates cost (every run): the kept steps (``steps.py``: every
    image the editor rendered, for candidates finished or not), plus the stored cost of
    candidates without kept steps (rendered before steps were kept, or imported)."""
    store = work.store
    return store.answers_cost(EDIT_PROBE, without_steps=True) + store.steps_cost()


def candidate_pixels(work: WorkStore, rec: CandidateRecord) -> np.ndarray:
    """A stored candidate's pixels (decoded from its blob)."""
    assert rec.blob is not None
    with Image.open(work.blob_path(rec.blob)) as im:
        return np.asarray(im.convert("RGB"))


Judged = list[tuple[EditSpec, CandidateRecord, np.ndarray]]
AcceptMany = Callable[[Judged], Awaitable[set[str]]]
"""Gates a round's new candidates; returns the keys of those that pass."""


@dataclass
class Rendered:
    """What :func:`render_all` did."""

    records: dict[str, list[CandidateRecord]]
    """Spec id -> its candidates' records, in order."""
    sent: int = 0
    """Requests sent to the editor by this run (one per step and attempt)."""
    budget_stopped: bool = False
    stopped: str | None = None
    """Why the runner stopped the editor (a non-retryable failure), if it did."""
    pixels: dict[str, np.ndarray] = field(default_factory=dict)
    """Decoded passing candidates by key (the assembler needs them)."""


async def render_all(
    specs: Sequence[tuple[EditSpec, np.ndarray]],
    seed_root: Path,
    editor: Editor,
    work: WorkStore,
    accept: AcceptMany,
    config: EditorConfig,
    max_candidates: int = 2,
    retry: RetryPolicy | None = None,
    max_cost: float | None = None,
) -> Rendered:
    """Every specification's candidates in rounds (module docstring).

    Specifications not reached because of ``max_cost`` have fewer (possibly no) records; run
    again with a higher cap to finish them.
    """
    model = EditorModel(editor, config, seed_root, work.steps)
    budget = Budget(max_cost, spent=spent(work)) if max_cost is not None else None
    done = Rendered({s.id: [] for s, _ in specs})
    active = list(specs)
    try:
        for i in range(max_candidates):
            if not active:
                break
            tasks = [(candidate_task(s, editor.name, i), s, seed) for s, seed in active]
            kept = work.store.kept_steps((t.key for t, _, _ in tasks), except_blob=NO_IMAGE)
            jobs = [
                Job(t, edit_request(t.key, s, i, seed), images=_to_do(s, kept.get(t.key, 0)))
                for t, s, seed in tasks
            ]
            give_up = len(jobs) + 1 if model.offline else None
            sent = await work.send(
                model, config, jobs, retry=retry, budget=budget, give_up_after=give_up,
                billed=model.take_billed,
            )  # fmt: skip
            judged: Judged = []
            again: set[str] = set()
            for t, s, _ in tasks:
                rec = stored_record(work, s.id, i, editor.name, t.key)
                if rec is None:
                    continue  # not sent: the cap, or the editor was stopped
                done.records[s.id].append(rec)
                if rec.status == "ok":
                    px = model.take_pixels(rec.blob or "")
                    judged.append((s, rec, px if px is not None else candidate_pixels(work, rec)))
                elif rec.status != "error":
                    again.add(s.id)  # refused or blocked: a fresh candidate
            passed = await accept(judged) if judged else set()
            for s, rec, px in judged:
                if rec.key in passed:
                    done.pixels[rec.key] = px
                else:
                    again.add(s.id)
            active = [(s, seed) for s, seed in active if s.id in again]
            done.budget_stopped = done.budget_stopped or sent.budget_stopped
            done.stopped = done.stopped or sent.stats.fatal
            if sent.budget_stopped or sent.stats.fatal:
                break
    finally:
        done.sent = model.requests
        await model.aclose()
    return done


def _to_do(spec: EditSpec, kept: int) -> int:
    """Steps of a candidate still to render (the images its call will bill, for the cap)."""
    return max(0, len(spec.all_steps) - kept)
