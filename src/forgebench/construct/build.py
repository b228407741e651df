"""``forgebench build``: render verified specifications, gate the candidates, assemble a dataset.

Layout of ``OUT``::

    OUT/work/candidates.jsonl   one line per finished editor call (resume ledger)
    OUT/work/blobs/SHA.png      candidate images by content hash
    OUT/work/gates.jsonl        every candidate's gate results
    OUT/work/dropped.jsonl      specifications without a kept candidate, and why
    OUT/dataset/                the Mandela dataset (``forgebench validate`` accepts it)
    OUT/pixar/                  PIXAR pairs (original/, edited/, labels/, pairs.jsonl)

The dataset and pairs folders are written to a temporary sibling and moved into place when
complete, so an interrupted build leaves the previous ones (or none), never half of one; the
work folder is what makes the next run resume.
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
from forgebench.construct.assemble import Kept, replace_dir, write_mandela, write_pixar
from forgebench.construct.candidate_gates import candidate_gates, needs_grounding
from forgebench.construct.edit_api import Editor
from forgebench.construct.faces import FaceGateConfig
from forgebench.construct.facts import Knowledge
from forgebench.construct.gate_result import GateResult
from forgebench.construct.gates import PixelGateConfig, near_duplicates, phash
from forgebench.construct.model_gates import FIDELITY_MIN, fidelity_gate, grounding_gate
from forgebench.construct.pixels import match_size
from forgebench.construct.render import CandidateRecord, Ledger, render_all
from forgebench.construct.specs import EditSpec, write_jsonl
from forgebench.models.spec import SpecError as ModelSpecError
from forgebench.run.retry import RetryPolicy


class BuildError(Exception):
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
    """Stop starting calls once this much would be spent (ledger total, all runs)."""
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
    outcomes: dict[str, int] = field(default_factory=dict)
    kept: int = 0
    items: int = 0
    pairs: int = 0
    spent: float = 0.0
    dropped: list[tuple[str, str]] = field(default_factory=list)
    dataset: Path | None = None


def dry_run(specs: list[EditSpec], editor: Editor, cfg: BuildConfig) -> tuple[int, float, float]:
    """(calls for one candidate each, their cost, the cost if every spec used every candidate)."""
    calls = sum(len(s.all_steps) for s in specs)
    return (
        calls,
        calls * editor.price_per_image,
        calls * editor.price_per_image * cfg.max_candidates,
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
    """Render, gate and assemble (see the module docstring)."""
    cfg = cfg or BuildConfig()
    for s in specs:
        if s.suite == "mandela" and not know.scenes[s.seed_id].event.date:
            raise BuildError(f"scene {s.seed_id!r} records no event date (items need one)")
    seeds = {
        sid: _seed_rgb(know, seed_root, sid) for sid in dict.fromkeys(s.seed_id for s in specs)
    }
    ledger = Ledger(out / "work")
    gates: dict[str, list[GateResult]] = {}
    labels: dict[str, np.ndarray] = {}

    answers = out / "work" / "answers.jsonl"
    try:
        ground = Asker(cfg.grounding_model, answers) if cfg.grounding_model else None
        fidelity = Asker(cfg.fidelity_model, answers) if cfg.fidelity_model else None
    except ModelSpecError as exc:
        raise BuildError(str(exc)) from None

    async def accept(spec: EditSpec, rec: CandidateRecord, img: np.ndarray) -> bool:
        seed = seeds[spec.seed_id]
        cand = match_size(img, seed.shape[0], seed.shape[1])
        # in the event loop's thread: the face models are per-thread, and loading them once is
        # cheaper than running gates in parallel
        res, label = candidate_gates(spec, seed, cand, know, seed_root, cfg.faces, cfg.pixels)
        blob = ledger.blobs / f"{rec.blob}.png"
        if needs_grounding(spec):
            res.append(await grounding_gate(ground, spec, blob))
        if spec.suite == "pixar":
            res.append(await fidelity_gate(fidelity, blob, cfg.fidelity_min))
        gates[rec.key] = res
        if label is not None:
            labels[rec.key] = label
        return cfg.passes(res)

    async def run() -> dict[str, list[CandidateRecord]]:
        try:
            return await render_all(
                [(s, seeds[s.seed_id]) for s in specs], seed_root, editor, ledger, accept,
                cfg.max_candidates, cfg.concurrency, RetryPolicy(), cfg.attempts, cfg.max_cost,
            )  # fmt: skip
        finally:
            for a in (ground, fidelity):
                if a is not None:
                    await a.aclose()

    records = asyncio.run(run())
    write_jsonl(
        out / "work" / "gates.jsonl",
        ({"key": k, "gates": [g.model_dump(mode="json") for g in v]} for k, v in gates.items()),
    )
    report = BuildReport(specs=len(specs), spent=ledger.spent)
    kept: list[Kept] = []
    for spec in specs:
        recs = records[spec.id]
        report.calls += len(recs)
        for r in recs:
            report.outcomes[r.status] = report.outcomes.get(r.status, 0) + 1
        good = next((r for r in recs if r.key in gates and cfg.passes(gates[r.key])), None)
        if good is None:
            report.dropped.append((spec.id, _why(recs, gates, cfg)))
            continue
        seed = seeds[spec.seed_id]
        px = match_size(ledger.image(good), seed.shape[0], seed.shape[1])
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
    _write(kept, know, seed_root, out, report, cfg)
    write_jsonl(out / "work" / "dropped.jsonl", ({"id": i, "reason": r} for i, r in report.dropped))
    return report


def _why(recs: list[CandidateRecord], gates: dict[str, list[GateResult]], cfg: BuildConfig) -> str:
    if not recs:
        return "not rendered (max cost reached)"
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
) -> None:
    facts = [f.model_dump(mode="json", exclude_none=True) for f in know.facts.values()]
    mandela = [k for k in kept if k.spec.suite == "mandela"]
    pixar = [k for k in kept if k.spec.suite == "pixar"]
    for name, part in (("dataset", mandela), ("pixar", pixar)):
        if not part:
            continue
        tmp = out / f".{name}.tmp-{os.getpid()}"
        if tmp.exists():
            shutil.rmtree(tmp)
        tmp.mkdir(parents=True)
        try:
            if name == "dataset":
                a = write_mandela(part, know, seed_root, tmp, facts, cfg.store)
                report.items = len(a.items)
                report.dropped += a.dropped
            else:
                report.pairs = write_pixar(part, know, seed_root, tmp)
            replace_dir(tmp, out / name)
        finally:
            if tmp.exists():
                shutil.rmtree(tmp)
    if mandela:
        report.dataset = out / "dataset"
