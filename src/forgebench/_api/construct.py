"""The construction verbs: ``propose`` (edit specifications, verified), ``build`` (render, gate,
write each benchmark's folder), ``audit``, ``review export`` / ``review import``. Each
benchmark's parts come from its suite's ``Construction`` (``construct.parts``); ``build`` and
``propose --model`` hold the lock of ``OUT/work`` while they send."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from forgebench import suites
from forgebench.construct import build as B
from forgebench.construct.edit_api import make_editor
from forgebench.construct.facts import Knowledge
from forgebench.construct.parts import (
    UnknownConstruction,
    construction_of,
    constructions,
    import_scenes,
    reviewed,
)
from forgebench.construct.scenes import KB_FILE, SCENES_FILE, load_facts, load_scenes
from forgebench.construct.specs import load_specs, propose_from_file, write_jsonl
from forgebench.construct.verify import verify_specs
from forgebench.errors import UserError
from forgebench.models.spec import parse_spec
from forgebench.run.lock import run_lock
from forgebench.suites.base import ConstructionParts


def _load_constructions() -> None:
    """construct/ receives each benchmark's construction parts from the suites (it imports no
    suite): the API loads the suites first, so that ``api.build`` / ``api.propose`` called from
    a notebook find them as the command line does."""
    suites.load()


def knowledge(seeds: Path) -> Any:
    """The scene records and fact table of a seed folder (one line for a missing file)."""
    if not seeds.is_dir():
        raise UserError(f"{seeds}: not a seed folder")
    for f in (SCENES_FILE, KB_FILE):
        if not (seeds / f).is_file():
            raise UserError(
                f"{seeds / f}: not found (a seed folder holds {SCENES_FILE} and {KB_FILE})"
            )
    return Knowledge.of(load_scenes(seeds), load_facts(seeds))


def _coco_scenes(seeds: Path, coco: Path, prefix: str) -> None:
    """Write SEEDS/scenes.jsonl (and an empty kb.jsonl) from a COCO file; refuse to overwrite."""
    if (seeds / SCENES_FILE).exists():
        raise UserError(
            f"{seeds / SCENES_FILE}: exists; --coco writes it (use another seed folder)"
        )
    scenes = import_scenes("coco", coco, prefix)
    write_jsonl(seeds / SCENES_FILE, (s.model_dump(mode="json", exclude_none=True) for s in scenes))
    if not (seeds / KB_FILE).exists():
        write_jsonl(seeds / KB_FILE, [])


@dataclass
class Proposed:
    """What :func:`propose` kept and rejected (both written under ``out``)."""

    kept: Counter[str] = field(default_factory=Counter)
    """Kept specifications per family (or suite)."""
    rejected: Counter[str] = field(default_factory=Counter)
    """Rejected specifications per rule."""
    failed: dict[str, str] = field(default_factory=dict)
    """Scenes a model proposed nothing for, and why."""


def propose(
    seeds: str | Path,
    out: str | Path,
    *,
    from_file: str | Path | None = None,
    rules: bool = False,
    model: str | None = None,
    per_family: int = 1,
    coco: str | Path | None = None,
    coco_images: str = "images/",
    controls: bool = True,
    wait: bool = False,
    on_wait: Callable[[str], None] | None = None,
) -> Proposed:
    """Propose edit specifications (a file, every construction's rules proposer and/or a model),
    verify each against the scene records and the fact table, and write ``specs.jsonl`` and
    ``rejected.jsonl`` (with their reasons) under ``out``."""
    _load_constructions()
    seeds, out = Path(seeds), Path(out)
    if not from_file and not rules and not model:
        raise UserError("nothing to propose from: give --model SPEC, --from FILE and/or --rules")
    if coco is not None:
        _coco_scenes(seeds, Path(coco), coco_images)
    know = knowledge(seeds)
    done = Proposed()
    specs = list(propose_from_file(Path(from_file))) if from_file else []
    if rules:
        for parts in constructions():
            specs += parts.propose_rules(know, seeds, per_family)
    if model:
        parse_spec(model)  # a bad spec: one line before OUT/work is touched
        with run_lock(out / "work", "propose", wait=wait, on_wait=on_wait):
            for parts in constructions():
                asked, failed = parts.propose_with_model(
                    model, know, seeds, out / "work", per_family, wait
                )
                done.failed.update(failed)
                specs += asked
    ids = Counter(s.id for s in specs)
    if dup := [i for i, n in ids.items() if n > 1]:
        raise UserError(f"two proposals share the id {dup[0]!r}")
    accepted, rejected = verify_specs(specs, know, seeds)
    if controls:
        have = {a.spec.id for a in accepted} | {r.spec.id for r in rejected}
        extra = [
            c
            for a in accepted
            if (c := construction_of(a.spec.suite).control_for(a.spec)) is not None
            and c.id not in have
        ]
        acc2, rej2 = verify_specs(extra, know, seeds)
        accepted += acc2
        rejected += rej2
    write_jsonl(out / "specs.jsonl", (a.row() for a in accepted))
    write_jsonl(out / "rejected.jsonl", (r.row() for r in rejected))
    done.kept = Counter(a.spec.family or a.spec.suite for a in accepted)
    done.rejected = Counter(r.verification.rule for r in rejected)
    return done


@dataclass(frozen=True)
class BuildSettings:
    """How ``build`` renders (the flags of ``forgebench build``)."""

    editor: str = "local/auto"
    max_candidates: int = 2
    max_cost: float | None = None
    price: float | None = None
    concurrency: int = 4
    max_reply_bytes: int = 64_000_000
    grounding_model: str | None = None
    fidelity_model: str | None = None
    wait: bool = False


@dataclass
class Built:
    """What :func:`build` did."""

    editor: str
    """The editor's name."""
    report: Any = None
    """The build's ``BuildReport`` (None on a dry run)."""
    plan: tuple[int, int, float, float, int] | None = None
    """A dry run's specifications, calls, cost of one candidate each, worst cost and candidates
    already rendered."""


def build(
    seeds: str | Path,
    specs: str | Path,
    out: str | Path,
    settings: BuildSettings | None = None,
    *,
    dry_run: bool = False,
    on_wait: Callable[[str], None] | None = None,
) -> Built:
    """Render candidates with an editor (a candidate already in ``OUT/work`` is never paid
    twice), gate them and write each benchmark's folder (validated); with ``dry_run`` only the
    calls and their cost."""
    _load_constructions()
    seeds, specs, out = Path(seeds), Path(specs), Path(out)
    s = settings or BuildSettings()
    know = knowledge(seeds)
    rows = load_specs(specs)
    unknown = [r.seed_id for r in rows if r.seed_id not in know.scenes]
    if unknown:
        raise UserError(f"{specs}: specification names unknown seed {unknown[0]!r}")
    try:
        ed = make_editor(s.editor, s.price, s.max_reply_bytes)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    cfg = B.BuildConfig(
        max_candidates=s.max_candidates, max_cost=s.max_cost, concurrency=s.concurrency,
        grounding_model=s.grounding_model, fidelity_model=s.fidelity_model, wait=s.wait,
    )  # fmt: skip
    if dry_run:
        calls, first, worst, stored = B.dry_run(rows, ed, cfg, out)
        return Built(ed.name, plan=(len(rows), calls, first, worst, stored))
    verification = {r.id: getattr(r, "verification", None) for r in rows}
    with run_lock(out / "work", "build", wait=s.wait, on_wait=on_wait):
        rep = B.build(seeds, rows, know, ed, out, cfg, verification)  # type: ignore[arg-type]
    return Built(ed.name, report=rep)


def audit(
    dataset: str | Path, detectors: list[str], *, write: bool = False, executor: Any = None
) -> dict[str, Any]:
    """The construction audits of a built folder (metadata leakage, pixel detectors), by the
    construction that knows it; ``written`` / ``fields`` say what ``write`` wrote back."""
    facet = suites.detect(Path(dataset)).facet(ConstructionParts)
    parts = facet.parts if facet is not None else None
    if parts is None:
        raise UnknownConstruction(f"{dataset}: its benchmark is not built from seed folders")
    res: dict[str, Any] = parts.audit(Path(dataset), detectors, write, executor)
    return res


def review_export(build_dir: str | Path) -> Path:
    """Write the review sheet of a build folder; its path."""
    page: Path = reviewed(Path(build_dir)).review_sheet(Path(build_dir))
    return page


def review_import(build_dir: str | Path, decisions: str | Path) -> tuple[int, int, Any]:
    """Apply a review's decisions: accepted, rejected and the folder left (with its problems)."""
    acc, rej, left = reviewed(Path(build_dir)).apply_review(Path(build_dir), Path(decisions))
    return acc, rej, left
