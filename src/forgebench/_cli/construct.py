"""CLI commands (construction): ``forgebench propose``, ``build``, ``audit``, ``review``."""

from __future__ import annotations

from pathlib import Path

import typer

from forgebench._cli.app import console, fail, money, verbs
from forgebench.cli_support import (
    executor_option,
    get_executor,
    ray_address_option,
    say,
    wait_option,
    workers_option,
)

review_app = typer.Typer(
    help="Manual review of a build: export a sheet, import decisions.", no_args_is_help=True
)
verbs.add_typer(review_app, name="review")


@verbs.command("propose")
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
    from forgebench import api

    done = api.propose(
        seeds, out, from_file=from_file, rules=rules, model=model, per_family=per_family,
        coco=coco, coco_images=coco_images, controls=controls, wait=wait,
        on_wait=lambda m: say(m, err=True),
    )  # fmt: skip
    for sid, why in done.failed.items():
        say(f"scene {sid}: no proposal from {model}: {why}", err=True)
    kept = ", ".join(f"{k} {v}" for k, v in sorted(done.kept.items()))
    console.print(f"kept {sum(done.kept.values())} specification(s): {kept}", markup=False)
    reasons = ", ".join(f"{k} {v}" for k, v in done.rejected.most_common()) or "none"
    console.print(f"rejected {sum(done.rejected.values())}: {reasons}", markup=False)
    console.print(f"wrote {out / 'specs.jsonl'} and {out / 'rejected.jsonl'}", markup=False)


@verbs.command("build")
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
    from forgebench import api

    settings = api.BuildSettings(
        editor=editor, max_candidates=max_candidates, max_cost=max_cost, price=price,
        concurrency=concurrency, max_reply_bytes=int(max_reply_mb * 1e6),
        grounding_model=grounding_model, fidelity_model=fidelity_model, wait=wait,
    )  # fmt: skip
    done = api.build(
        seeds, specs, out, settings, dry_run=dry_run, on_wait=lambda m: say(m, err=True)
    )
    if done.plan is not None:
        n, calls, first, worst, stored = done.plan
        console.print(
            f"{n} specification(s), {calls} call(s) for one candidate each: cost {first:.2f}; at most {worst:.2f} with {max_candidates} candidates"
            + (f" ({stored} already rendered in {out / 'work'})" if stored else "")
        )
        return
    rep = done.report
    outcomes = ", ".join(f"{k} {v}" for k, v in sorted(rep.outcomes.items()))
    console.print(
        f"{rep.specs} specification(s), {rep.calls} candidate(s) ({outcomes}), {rep.sent} request(s) sent, spent {rep.spent:.2f}"
    )
    written = ", ".join(f"{w.count} {w.noun}" for w in rep.written.values()) or "nothing written"
    console.print(f"kept {rep.kept}: {written}; dropped {len(rep.dropped)}")
    for sid, why in rep.dropped:
        say(f"dropped {sid}: {why}", err=True)
    for w in rep.written.values():
        for line in w.problems:
            say(line, err=True)
        if w.problems:
            fail(f"{w.path}: the built folder has {len(w.problems)} error(s)", 1)
        console.print(f"wrote {w.path} ({w.count} {w.noun}, valid)")
    if rep.stopped:
        fail(f"the editor {done.editor} was stopped: {rep.stopped}", 1)


@verbs.command("audit")
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

    from forgebench import api

    runner = get_executor(executor, ray_address, workers)
    res = api.audit(dataset, detectors, write=write, executor=runner)
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
    from forgebench import api

    console.print(f"wrote {api.review_export(build)}")


@review_app.command("import")
def review_import(
    build: Path = typer.Argument(..., help="Build folder."),
    decisions: Path = typer.Argument(..., help="decisions.json saved by the review sheet."),
) -> None:
    """Apply review decisions: record the reviewer in each item's provenance and move rejected items out of the dataset."""
    from forgebench import api

    acc, rej, left = api.review_import(build, decisions)
    console.print(
        f"{acc} accepted, {rej} rejected; {left.path.name} {'has errors' if left.problems else 'valid'} ({left.count} items)"
    )
    if left.problems:
        fail(f"{left.path}: {len(left.problems)} error(s) after review", 1)
