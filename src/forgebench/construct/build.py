"""``forgebench build``: render verified specifications, gate the candidates, assemble a dataset.

Layout of ``OUT``::

    OUT/work/run.sqlite         the work store: every editor call and model question (resume)
    OUT/work/blobs/SH/SHA.png   candidate images by content hash
    OUT/work/gates.jsonl        every candidate's gate results
    OUT/work/dropped.jsonl      specifications without a kept candidate, and why
    OUT/dataset/                the Mandela dataset (``forgebench validate`` accepts it)
    OUT/pixar/                  PIXAR pairs (original/, edited/, labels/, pairs.jsonl)

Each specification is built by its benchmark's construction parts
(:class:`~forgebench.construct.parts.Construction`: its gates, its model-asked gates, its
assembly into ``OUT/<output>``, checked by the suite's validator afterwards). Each output folder
is written to a temporary sibling and moved into place when complete, so an interrupted build leaves the previous ones (or none), never half of one; the
work folder is what makes the next run resume (``render.py``, ``workstore.py``). A build holds
the work folder's lock (:mod:`forgebench.run.lock`) while it runs: a second build (or
``propose --model``) on the same folder is refused, or waits with ``wait``.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np
from PIL import Image
from pydantic import BaseModel, Field

from forgebench.construct.ask import Asker
from forgebench.construct.assemble import Kept
from forgebench.construct.edit_api import Editor
from forgebench.construct.editor_model import EditorConfig
from forgebench.construct.faces import FaceGateConfig
from forgebench.construct.facts import Knowledge
from forgebench.construct.gate_result import GateResult
from forgebench.construct.gates import PixelGateConfig, near_duplicates, phash
from forgebench.construct.model_gates import FIDELITY_MIN, fidelity_gates, grounding_gates
from forgebench.construct.parts import Construction, UnknownConstruction, Written, construction_of
from forgebench.construct.pixels import match_size
from forgebench.construct.render import (
    CandidateRecord,
    Judged,
    Rendered,
    candidate_key,
    candidate_pixels,
    render_all,
    spent,
)
from forgebench.construct.specs import EditSpec, write_jsonl
from forgebench.construct.steps import NO_IMAGE
from forgebench.construct.workstore import WorkStore
from forgebench.errors import UserError
from forgebench.models.spec import SpecError as ModelSpecError
from forgebench.run.costs import cost_usd
from forgebench.run.lock import run_lock
from forgebench.run.send.retry import RetryPolicy
from forgebench.run.store import DB_NAME, Store
from forgebench.util.atomic import clean_stale
from forgebench.util.owned import replace_folder, replace_guard


class BuildError(UserError):
    """A build that cannot start or finish (one line)."""


class BuildConfig(BaseModel):
    """How to build."""

    max_candidates: int = 2
    """Candidates per specification at most (Appendix C: two to four)."""
    concurrency: int = 4
    """Editor calls in flight."""
    attempts: int = 4
    """Attempts per call (retryable failures)."""
    max_cost: float | None = None
    """Start no call that would take the work store's spend (all runs) past this."""
    wait: bool = False
    """When another process holds the work folder, wait for it instead of refusing."""
    faces: FaceGateConfig = Field(default_factory=FaceGateConfig)
    """Face gate thresholds."""
    pixels: PixelGateConfig = Field(default_factory=PixelGateConfig)
    """Pixel gate thresholds."""
    grounding_model: str | None = None
    """Model spec asked the grounding question of inserted objects (None: unchecked)."""
    fidelity_model: str | None = None
    """Model spec of PIXAR's fidelity assessment (None: unchecked)."""
    fidelity_min: int = FIDELITY_MIN
    """Lowest fidelity score (1-5) that passes."""
    enforce: list[str] | None = None
    """Gates whose failure rejects a candidate (None: every gate); the others are recorded."""
    store: Literal["jpeg", "png"] = "jpeg"
    """Dataset images: the re-encoded JPEG (q92, longest side 1280), or its decoded pixels as
    PNG (reproducible bytes; the demo)."""

    def passes(self, results: list[GateResult]) -> bool:
        """No enforced gate failed."""
        return all(
            r.passed is not False for r in results if self.enforce is None or r.gate in self.enforce
        )


@dataclass
class BuildReport:
    """What a build did."""

    specs: int = 0
    calls: int = 0
    """Candidate records (this run and resumed)."""
    sent: int = 0
    """Editor requests sent by this run (retries included)."""
    stopped: str | None = None
    """Why the editor was stopped early (a non-retryable failure), if it was."""
    outcomes: dict[str, int] = field(default_factory=dict)
    kept: int = 0
    spent: float = 0.0
    dropped: list[tuple[str, str]] = field(default_factory=list)
    written: dict[str, Written] = field(default_factory=dict)
    """What each benchmark's assembly wrote, by benchmark."""


def editor_config(editor: Editor, cfg: BuildConfig) -> EditorConfig:
    """The runner's settings and the engine's price for the build's editor."""
    return EditorConfig(
        spec=editor.name, price_image=editor.price_per_image, concurrency=cfg.concurrency,
        max_attempts=cfg.attempts,
    )  # fmt: skip


def dry_run(
    specs: list[EditSpec], editor: Editor, cfg: BuildConfig, out: Path | None = None
) -> tuple[int, float, float, int]:
    """(calls for one candidate each, their cost, the cost if every spec used every candidate,
    specifications whose first candidate ``OUT/work`` already holds); writes nothing. Steps of a
    multi-step candidate kept from an earlier run are not counted again."""
    stored: set[str] = set()
    kept: dict[str, int] = {}
    keys = {s.id: candidate_key(s, editor.name, 0) for s in specs}
    if out is not None and (out / "work" / DB_NAME).is_file():
        store = Store.open(out / "work", create=False)
        try:
            stored = store.answered(set(keys.values()))
            kept = store.kept_steps(keys.values(), except_blob=NO_IMAGE)
        finally:
            store.close()
    todo = [s for s in specs if keys[s.id] not in stored]
    calls = sum(max(0, len(s.all_steps) - kept.get(keys[s.id], 0)) for s in todo)
    config = editor_config(editor, cfg)
    return (
        calls,
        cost_usd(config, 0, 0, calls) or 0.0,
        cost_usd(config, 0, 0, calls * cfg.max_candidates) or 0.0,
        len(specs) - len(todo),
    )


def _seed_rgb(know: Knowledge, seed_root: Path, seed_id: str) -> np.ndarray:
    try:
        return np.asarray(Image.open(seed_root / know.scenes[seed_id].image).convert("RGB"))
    except KeyError:
        raise BuildError(f"specification names unknown seed {seed_id!r}") from None
    except OSError as exc:
        raise BuildError(f"seed image of {seed_id!r}: {exc}") from None


def build(
    seed_root: Path,
    specs: list[EditSpec],
    know: Knowledge,
    editor: Editor,
    out: Path,
    cfg: BuildConfig | None = None,
    verification: dict[str, dict[str, object]] | None = None,
) -> BuildReport:
    """Render, gate and assemble (see the module docstring), holding ``OUT/work``'s lock.

    Raises :class:`~forgebench.run.lock.RunLocked` when another process holds it (unless
    ``cfg.wait``), :class:`BuildError` for inputs that cannot be built.
    """
    cfg = cfg or BuildConfig()
    try:
        parts = {s.suite: construction_of(s.suite) for s in specs}
    except UnknownConstruction as exc:
        raise BuildError(str(exc)) from None
    for s in specs:
        scene = know.scenes.get(s.seed_id)
        why = parts[s.suite].refuse(s, scene) if scene is not None else None
        if why is not None:
            raise BuildError(why)
    seeds = {
        sid: _seed_rgb(know, seed_root, sid) for sid in dict.fromkeys(s.seed_id for s in specs)
    }
    try:  # bad model specs fail here, before the work folder is touched
        askers = [Asker(m) if m else None for m in (cfg.grounding_model, cfg.fidelity_model)]
    except ModelSpecError as exc:
        raise BuildError(str(exc)) from None
    with run_lock(out / "work", "build", wait=cfg.wait):
        work = WorkStore(out / "work")
        for a in askers:
            if a is not None:
                a.work = work
        try:
            return _build(
                seed_root, specs, know, editor, out, cfg, verification, seeds, work, askers, parts
            )
        finally:
            work.close()


def _build(
    seed_root: Path,
    specs: list[EditSpec],
    know: Knowledge,
    editor: Editor,
    out: Path,
    cfg: BuildConfig,
    verification: dict[str, dict[str, object]] | None,
    seeds: dict[str, np.ndarray],
    work: WorkStore,
    askers: list[Asker | None],
    parts: dict[str, Construction],
) -> BuildReport:
    gates: dict[str, list[GateResult]] = {}
    labels: dict[str, np.ndarray] = {}
    ground, fidelity = askers

    async def accept(judged: Judged) -> set[str]:
        for spec, rec, img in judged:
            seed = seeds[spec.seed_id]
            cand = match_size(img, seed.shape[0], seed.shape[1])
            # in the event loop's thread: the face models are per-thread, and loading them once
            # is cheaper than running gates in parallel
            res, label = parts[spec.suite].candidate_gates(
                spec, seed, cand, know, seed_root, cfg.faces, cfg.pixels
            )
            gates[rec.key] = res
            if label is not None:
                labels[rec.key] = label
        path = {rec.key: work.blob_path(rec.blob or "") for _, rec, _ in judged}
        asked = [(s, r) for s, r, _ in judged if "grounding" in parts[s.suite].model_gates(s)]
        found = await grounding_gates(ground, [(s, path[r.key]) for s, r in asked])
        for (_, rec), g in zip(asked, found, strict=True):
            gates[rec.key].append(g)
        rated = [r for s, r, _ in judged if "fidelity" in parts[s.suite].model_gates(s)]
        scored = await fidelity_gates(fidelity, [path[r.key] for r in rated], cfg.fidelity_min)
        for rec, g in zip(rated, scored, strict=True):
            gates[rec.key].append(g)
        return {r.key for _, r, _ in judged if cfg.passes(gates[r.key])}

    async def run() -> Rendered:
        try:
            return await render_all(
                [(s, seeds[s.seed_id]) for s in specs], seed_root, editor, work, accept,
                editor_config(editor, cfg), cfg.max_candidates, RetryPolicy(), cfg.max_cost,
            )  # fmt: skip
        finally:
            for a in (ground, fidelity):
                if a is not None:
                    await a.aclose()

    rendered = asyncio.run(run())
    write_jsonl(
        out / "work" / "gates.jsonl",
        ({"key": k, "gates": [g.model_dump(mode="json") for g in v]} for k, v in gates.items()),
    )
    report = BuildReport(
        specs=len(specs), spent=spent(work), sent=rendered.sent, stopped=rendered.stopped
    )
    unsent = (
        f"the editor was stopped: {rendered.stopped}" if rendered.stopped else "max cost reached"
    )
    kept: list[Kept] = []
    for spec in specs:
        recs = rendered.records[spec.id]
        report.calls += len(recs)
        for r in recs:
            report.outcomes[r.status] = report.outcomes.get(r.status, 0) + 1
        good = next((r for r in recs if r.key in gates and cfg.passes(gates[r.key])), None)
        if good is None:
            report.dropped.append((spec.id, _why(recs, gates, unsent)))
            continue
        seed = seeds[spec.seed_id]
        img = rendered.pixels.get(good.key)
        px = match_size(
            img if img is not None else candidate_pixels(work, good), seed.shape[0], seed.shape[1]
        )
        kept.append(
            Kept(
                spec,
                good,
                px,
                gates[good.key],
                (verification or {}).get(spec.id),
                labels.get(good.key),
            )
        )
    kept = _dedup(kept, seeds, cfg, report)
    report.kept = len(kept)
    _write(kept, know, seed_root, out, report, cfg, parts)
    write_jsonl(out / "work" / "dropped.jsonl", ({"id": i, "reason": r} for i, r in report.dropped))
    return report


def _why(recs: list[CandidateRecord], gates: dict[str, list[GateResult]], unsent: str) -> str:
    if not recs:
        return f"not rendered ({unsent})"
    last = recs[-1]
    if last.status != "ok":
        return f"candidate {last.candidate}: {last.status}: {last.message or ''}".strip()
    failed = [g for g in gates.get(last.key, []) if g.passed is False]
    return f"{len(recs)} candidate(s) failed: " + "; ".join(f"{g.gate}: {g.reason}" for g in failed)


def _dedup(
    kept: list[Kept], seeds: dict[str, np.ndarray], cfg: BuildConfig, report: BuildReport
) -> list[Kept]:
    """Near-duplicate seeds (the same picture under two seed ids) keep only the first."""
    results = near_duplicates([(s, phash(img)) for s, img in seeds.items()], cfg.pixels)
    dup = {s for s, r in results.items() if r.passed is False}
    for k in kept:
        if k.spec.seed_id in dup:
            report.dropped.append((k.spec.id, f"seed {results[k.spec.seed_id].reason}"))
    return [k for k in kept if k.spec.seed_id not in dup]


def _write(
    kept: list[Kept],
    know: Knowledge,
    seed_root: Path,
    out: Path,
    report: BuildReport,
    cfg: BuildConfig,
    parts: dict[str, Construction],
) -> None:
    """Each benchmark's kept candidates into ``OUT/<output>`` (all or nothing), then checked by
    the suite's validator."""
    for name, c in parts.items():
        part = [k for k in kept if k.spec.suite == name]
        if not part:
            continue
        replace_guard(out / c.output, "dataset", sources=[seed_root])
        out.mkdir(parents=True, exist_ok=True)
        clean_stale(out, c.output)
        tmp = out / f".{c.output}.tmp-{os.getpid()}"
        if tmp.exists():
            shutil.rmtree(tmp)
        tmp.mkdir(parents=True)
        try:
            done = c.assemble(part, know, seed_root, tmp, cfg.store)
            replace_folder(tmp, out / c.output, "dataset", sources=[seed_root])
        finally:
            if tmp.exists():
                shutil.rmtree(tmp)
        done.path = out / c.output
        done.problems = c.problems(done.path)
        report.dropped += done.dropped
        report.written[name] = done
