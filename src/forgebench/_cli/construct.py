"""CLI commands (construction): ``forgebench propose``, ``build``, ``audit``, ``review``."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import typer

from forgebench._cli.app import app, console, err_console, fail, money
from forgebench.cli_support import (
    check_executor,
    executor_option,
    get_executor,
    paid_stage,
    ray_address_option,
    wait_option,
    workers_option,
)

review_app = typer.Typer(
    help="Manual review of a build: export a sheet, import decisions.", no_args_is_help=True
)
app.add_typer(review_app, name="review")


def _knowledge(seeds: Path) -> Any:
    from forgebench.construct.facts import Knowledge
    from forgebench.construct.scenes import (
        KB_FILE,
        SCENES_FILE,
        SceneError,
        load_facts,
        load_scenes,
    )

    if not seeds.is_dir():
        fail(f"{seeds}: not a seed folder", 2)
    for f in (SCENES_FILE, KB_FILE):
        if not (seeds / f).is_file():
            fail(f"{seeds / f}: not found (a seed folder holds {SCENES_FILE} and {KB_FILE})", 2)
    try:
        return Knowledge.of(load_scenes(seeds), load_facts(seeds))
    except SceneError as exc:
        fail(str(exc), 2)


def _coco_scenes(seeds: Path, coco: Path, prefix: str) -> None:
    """Write SEEDS/scenes.jsonl (and an empty kb.jsonl) from a COCO file; refuse to overwrite."""
    from forgebench.construct.parts import UnknownConstruction, import_scenes
    from forgebench.construct.scenes import KB_FILE, SCENES_FILE, SceneError
    from forgebench.construct.specs import write_jsonl

    if (seeds / SCENES_FILE).exists():
        fail(f"{seeds / SCENES_FILE}: exists; --coco writes it (use another seed folder)", 2)
    try:
        scenes = import_scenes("coco", coco, prefix)
    except (SceneError, UnknownConstruction) as exc:
        fail(str(exc), 2)
    write_jsonl(seeds / SCENES_FILE, (s.model_dump(mode="json", exclude_none=True) for s in scenes))
    if not (seeds / KB_FILE).exists():
        write_jsonl(seeds / KB_FILE, [])


@app.command("propose")
def propose(
    seeds: Path = typer.Argument(..., help="Seed folder: scenes.jsonl, kb.jsonl and the images."),
    out: Path = typer.Option(..., "--out", "-o", help="Folder for specs.jsonl and rejected.jsonl."),
    from_file: Path | None = typer.Option(
        None,
        "--from",
        help="Proposals from a JSONL file (a model's earlier answers, hand-written).",
    ),
    rules: bool = typer.Option(
        False, "--rules", help="Proposals from the rules proposer over the fact table."
    ),
    model: str | None = typer.Option(
        None,
        "--model",
        help="Ask a model backend for specifications as JSON (answers stored in OUT/work/run.sqlite; a rerun asks nothing twice).",
    ),
    wait: bool = wait_option("another process uses OUT/work"),
    per_family: int = typer.Option(
        1, "--per-family", min=1, help="Rules proposer: proposals per scene and family."
    ),
    coco: Path | None = typer.Option(
        None,
        "--coco",
        help="PIXAR: a COCO instances file; its images become SEEDS/scenes.jsonl (with an empty kb.jsonl) and --rules proposes object removals and colour changes.",
    ),
    coco_images: str = typer.Option(
        "images/", "--coco-images", help="Folder of the COCO images, relative to SEEDS."
    ),
    controls: bool = typer.Option(
        True,
        "--controls/--no-controls",
        help="Add a K0 anchor-free control per kept specification.",
    ),
) -> None:
    """Propose edit specifications, verify each against the scene records and the fact table, and write the kept ones (specs.jsonl) and the rejected ones with their reason (rejected.jsonl)."""
    from forgebench.construct.parts import construction_of, constructions
    from forgebench.construct.specs import SpecFileError, propose_from_file, write_jsonl
    from forgebench.construct.verify import verify_specs

    if not from_file and not rules and not model:
        fail("nothing to propose from: give --model SPEC, --from FILE and/or --rules", 2)
    if coco is not None:
        _coco_scenes(seeds, coco, coco_images)
    know = _knowledge(seeds)
    specs = []
    try:
        if from_file:
            specs += propose_from_file(from_file)
    except SpecFileError as exc:
        fail(str(exc), 2)
    if rules:
        for parts in constructions():
            specs += parts.propose_rules(know, seeds, per_family)
    if model:
        from forgebench.models.spec import SpecError as ModelSpecError
        from forgebench.models.spec import parse_spec

        try:
            parse_spec(model)  # a bad spec: one line before OUT/work is touched
            with paid_stage(out / "work", "propose", wait):
                for parts in constructions():
                    asked, failed = parts.propose_with_model(
                        model, know, seeds, out / "work", per_family, wait
                    )
                    for sid, why in failed.items():
                        err_console.print(
                            f"scene {sid}: no proposal from {model}: {why}", markup=False
                        )
                    specs += asked
        except ModelSpecError as exc:
            fail(str(exc), 2)
    ids = Counter(s.id for s in specs)
    if dup := [i for i, n in ids.items() if n > 1]:
        fail(f"two proposals share the id {dup[0]!r}", 2)
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
    fams = Counter(a.spec.family or a.spec.suite for a in accepted)
    console.print(
        f"kept {len(accepted)} specification(s): "
        + ", ".join(f"{k} {v}" for k, v in sorted(fams.items()))
    )
    reasons = Counter(r.verification.rule for r in rejected)
    console.print(
        f"rejected {len(rejected)}: "
        + (", ".join(f"{k} {v}" for k, v in reasons.most_common()) or "none")
    )
    console.print(f"wrote {out / 'specs.jsonl'} and {out / 'rejected.jsonl'}")


@app.command("build")
def build(
    seeds: Path = typer.Argument(..., help="Seed folder."),
    specs: Path = typer.Argument(..., help="Verified specifications (propose's specs.jsonl)."),
    out: Path = typer.Option(..., "--out", "-o", help="Build folder (work/, dataset/, pixar/)."),
    editor: str = typer.Option(
        "local/auto", "--editor", help="local/auto, http/URL, openai/MODEL[@URL]."
    ),
    max_candidates: int = typer.Option(
        2, "--max-candidates", min=1, max=8, help="Candidates per specification at most."
    ),
    max_cost: float | None = typer.Option(
        None,
        "--max-cost",
        callback=lambda ctx, param, v: money(v, param),
        help="Stop starting calls past this spend.",
    ),
    price: float | None = typer.Option(
        None,
        "--price-per-image",
        callback=lambda ctx, param, v: money(v, param),
        help="Price of one candidate (http/openai).",
    ),
    concurrency: int = typer.Option(4, "--concurrency", min=1, help="Editor calls in flight."),
    max_reply_mb: float = typer.Option(
        64, "--max-reply-mb", min=0.001, help="Largest reply read from an http/ editor (MB)."
    ),
    dry_run: bool = typer.Option(False, "--dry-run", help="Print calls and cost; render nothing."),
    grounding_model: str | None = typer.Option(
        None,
        "--grounding-model",
        help="Model spec asked whether an inserted object is visible (default: unchecked).",
    ),
    fidelity_model: str | None = typer.Option(
        None,
        "--fidelity-model",
        help="Model spec of PIXAR's fidelity assessment (default: unchecked).",
    ),
    wait: bool = wait_option("another process uses OUT/work"),
) -> None:
    """Render candidates with an editor (resumable: a candidate already in OUT/work is never paid twice), gate them, and write a dataset that forgebench validate accepts (and PIXAR pairs)."""
    from forgebench.construct import build as B
    from forgebench.construct.edit_api import EditorSpecError, make_editor
    from forgebench.construct.specs import SpecFileError, load_specs

    know = _knowledge(seeds)
    try:
        rows = load_specs(specs)
    except SpecFileError as exc:
        fail(str(exc), 2)
    unknown = [s.seed_id for s in rows if s.seed_id not in know.scenes]
    if unknown:
        fail(f"{specs}: specification names unknown seed {unknown[0]!r}", 2)
    try:
        ed = make_editor(editor, price, int(max_reply_mb * 1e6))
    except (EditorSpecError, ValueError) as exc:
        fail(str(exc), 2)
    cfg = B.BuildConfig(
        max_candidates=max_candidates, max_cost=max_cost, concurrency=concurrency,
        grounding_model=grounding_model, fidelity_model=fidelity_model, wait=wait,
    )  # fmt: skip
    if dry_run:
        calls, first, worst, stored = B.dry_run(rows, ed, cfg, out)
        console.print(
            f"{len(rows)} specification(s), {calls} call(s) for one candidate each: cost {first:.2f}; at most {worst:.2f} with {max_candidates} candidates"
            + (f" ({stored} already rendered in {out / 'work'})" if stored else "")
        )
        return
    verification = {s.id: getattr(s, "verification", None) for s in rows}
    try:
        with paid_stage(out / "work", "build", wait):
            rep = B.build(seeds, rows, know, ed, out, cfg, verification)  # type: ignore[arg-type]
    except B.BuildError as exc:
        fail(str(exc), 2)
    outcomes = ", ".join(f"{k} {v}" for k, v in sorted(rep.outcomes.items()))
    console.print(
        f"{rep.specs} specification(s), {rep.calls} candidate(s) ({outcomes}), {rep.sent} request(s) sent, spent {rep.spent:.2f}"
    )
    written = ", ".join(f"{w.count} {w.noun}" for w in rep.written.values()) or "nothing written"
    console.print(f"kept {rep.kept}: {written}; dropped {len(rep.dropped)}")
    for sid, why in rep.dropped:
        err_console.print(f"dropped {sid}: {why}", markup=False)
    for w in rep.written.values():
        for line in w.problems:
            err_console.print(line, markup=False)
        if w.problems:
            fail(f"{w.path}: the built folder has {len(w.problems)} error(s)", 1)
        console.print(f"wrote {w.path} ({w.count} {w.noun}, valid)")
    if rep.stopped:
        fail(f"the editor {ed.name} was stopped: {rep.stopped}", 1)


@app.command("audit")
def audit(
    dataset: Path = typer.Argument(..., help="Dataset folder (items.jsonl, images/)."),
    detectors: list[str] = typer.Option(
        ["builtin/artefact"], "--detector", help="Pixel detector(s) to run."
    ),
    write: bool = typer.Option(
        False, "--write", help="Write footprint_measured and the detector scores into items.jsonl."
    ),
    json_out: Path | None = typer.Option(None, "--json", help="Also write the full audit as JSON."),
    executor: str = executor_option(),
    ray_address: str | None = ray_address_option(),
    workers: int | None = workers_option(),
) -> None:
    """The metadata-leakage audit (cross-validated AUC from file-level features, overall and per feature) and the pixel-detector audit (AUC, TPR at 5% FPR, overall and per family)."""
    import json

    from forgebench.construct.parts import audited
    from forgebench.errors import UserError

    check_executor(executor, ray_address)
    runner = get_executor(executor, ray_address, workers)
    try:
        res = audited(dataset).audit(dataset, detectors, write, runner)
    except UserError as exc:
        fail(str(exc), exc.exit_code)
    written, fields = res.pop("written", None), res.pop("fields", [])
    meta = res["metadata"]
    console.print(
        f"metadata-leakage audit ({meta['n']} images, {meta['n_forged']} forged): cross-validated AUC {meta['auc']:.3f}"
    )
    for name, auc in sorted(meta["per_feature"].items(), key=lambda kv: -kv[1]):
        console.print(f"  {name:<18} {auc:.3f}")
    for det, table in res["pixel"].items():
        console.print(f"pixel-detector audit ({det}):")
        for subset, row in table.items():
            console.print(
                f"  {subset:<5} AUC {row['auc']:.3f}  TPR@5%FPR {100 * row['tpr_at_5fpr']:.2f}%  ({row['n_forged']} forged / {row['n_authentic']} authentic)"
            )
    if json_out is not None:
        from forgebench.util.atomic import write_text

        write_text(json_out, json.dumps(res, indent=1))
    if written:
        console.print(f"wrote footprint_measured and {', '.join(fields)} into {written}")


@review_app.command("export")
def review_export(
    build: Path = typer.Argument(..., help="Build folder (forgebench build --out)."),
) -> None:
    """Write BUILD/review/index.html: one card per forged item (source, edit, candidates, gate results, difference heatmap) to accept or reject with a note; the page saves decisions.json."""
    from forgebench.construct.parts import reviewed
    from forgebench.errors import UserError

    try:
        page = reviewed(build).review_sheet(build)
    except UserError as exc:
        fail(str(exc), exc.exit_code)
    console.print(f"wrote {page}")


@review_app.command("import")
def review_import(
    build: Path = typer.Argument(..., help="Build folder."),
    decisions: Path = typer.Argument(..., help="decisions.json saved by the review sheet."),
) -> None:
    """Apply review decisions: record the reviewer in each item's provenance and move rejected items out of the dataset."""
    from forgebench.construct.parts import reviewed
    from forgebench.errors import UserError

    try:
        acc, rej, left = reviewed(build).apply_review(build, decisions)
    except UserError as exc:
        fail(str(exc), exc.exit_code)
    console.print(
        f"{acc} accepted, {rej} rejected; {left.path.name} {'has errors' if left.problems else 'valid'} ({left.count} items)"
    )
    if left.problems:
        fail(f"{left.path}: {len(left.problems)} error(s) after review", 1)
