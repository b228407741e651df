"""PIXAR's sub-commands: ``forgebench pixar label | score | run`` (the suite's ``cli()``; the CLI
mounts it under the suite's name)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from forgebench.cli_support import (
    check_executor,
    console,
    err_console,
    executor_option,
    fail,
    get_executor,
    model_configs,
    ray_address_option,
    wait_option,
    workers_option,
)
from forgebench.util.atomic import write_text

pixar_app = typer.Typer(
    name="pixar",
    help="PIXAR (seed 003): pixel-level tamper labels and localization scoring.",
    no_args_is_help=True,
)


@pixar_app.command("label")
def label(
    pairs: Path = typer.Argument(
        ..., help="Folder with original/ and edited/ (matching names), or a CSV original,edited."
    ),
    tau: list[float] = typer.Option(
        [0.05], "--tau", help="Threshold on the mean absolute RGB difference (repeatable)."
    ),
    out: Path = typer.Option(..., "--out", help="Output folder for the label maps."),
    executor: str = executor_option(),
    ray_address: str | None = ray_address_option(),
    workers: int | None = workers_option(),
) -> None:
    """Write pixel-label PNGs (255 changed, 0 unchanged) named by the edited file's stem."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TimeRemainingColumn,
    )

    from forgebench.construct.pixels import parse_taus, tau_dirname
    from forgebench.suites.pixar.labeling import write_labels
    from forgebench.suites.pixar.pairs import PairsError, load_pairs

    try:
        taus = parse_taus(tau)
    except ValueError as exc:
        fail(f"--tau: {exc}", 2)
    check_executor(executor, ray_address)
    try:
        items = load_pairs(pairs)
        runner = get_executor(executor, ray_address, workers)
        with Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TaskProgressColumn(),
            TimeRemainingColumn(),
            console=err_console,
            transient=True,
            disable=not err_console.is_terminal,
        ) as progress:
            task = progress.add_task("labelling", total=len(items))
            written = write_labels(
                items, taus, out, on_pair=lambda _: progress.advance(task), executor=runner
            )
    except PairsError as exc:
        fail(str(exc), 2)
    where = str(out) if len(taus) == 1 else ", ".join(str(out / tau_dirname(t)) for t in taus)
    console.print(f"wrote {len(written)} label maps for {len(items)} pairs to {where}")


def _fmt(v: Any) -> str:
    return "–" if v is None else f"{v:.1f}"


@pixar_app.command("score")
def score(
    truth: Path | None = typer.Option(
        None, "--truth", help="Folder of truth label maps (<stem>.png)."
    ),
    dataset: Path | None = typer.Option(
        None,
        "--dataset",
        help="A PIXAR release split (real/, full_synthetic/, tampered/, masks/, soft_masks/, "
        'metadata/) or an IMDL-BenCo manifest (.json list of [image, mask|"Negative"]), '
        "instead of --truth.",
    ),
    split: str | None = typer.Option(None, "--split", help="Subfolder of --dataset to score."),
    pred: Path = typer.Option(
        ..., "--pred", help="Folder of predictions: <stem>.png masks or <stem>.npy score maps."
    ),
    classes: Path | None = typer.Option(
        None,
        "--classes",
        help="CSV image,class (real / full_synthetic / tampered) for --truth; only tampered "
        "images are segmented. Without it every truth map is a tampered image.",
    ),
    pred_labels: Path | None = typer.Option(
        None,
        "--pred-labels",
        help='JSONL of image-level predictions: {"image", "class", "objects"} per line '
        '({"image", "score"} under --convention imdl).',
    ),
    convention: str = typer.Option(
        "default",
        "--convention",
        help="default, pixar-release (VILA-Lab/PIXAR test_parallel.py arithmetic) or imdl "
        "(IMDL-BenCo's evaluators: rows imdl_*).",
    ),
    json_out: Path | None = typer.Option(None, "--json", help="Also write the metrics as JSON."),
    run_out: Path | None = typer.Option(
        None,
        "--out",
        help="Run directory whose metrics.csv gets the numbers (benchmark pixar, probe LOC, "
        "condition full) and whose store keeps each pair's scores for the report's viewer; "
        "needs --name.",
    ),
    name: str | None = typer.Option(
        None, "--name", help="The model name of the predictions in --out's metrics.csv."
    ),
    threshold: float = typer.Option(
        0.5, "--threshold", help="Score maps are tampered where score >= threshold."
    ),
    executor: str = executor_option(),
    ray_address: str | None = ray_address_option(),
    workers: int | None = workers_option(),
) -> None:
    """Score predicted tamper maps (tampered images only): gIoU, cIoU, pixel P/R/F1, AUC;
    with --pred-labels also 3-class accuracy, semantic P/R/F1 and top-k (percentages)."""
    from forgebench.suites.pixar.evaluate import CONVENTIONS, read_pred_labels
    from forgebench.suites.pixar.layout import score_release
    from forgebench.suites.pixar.pairs import PairsError
    from forgebench.suites.pixar.scoring import read_classes, score_folder

    if not 0.0 < threshold <= 1.0:
        fail(f"--threshold must lie in (0, 1], got {threshold}", 2)
    if convention not in (*CONVENTIONS, "imdl"):
        fail(f"--convention must be one of {', '.join(CONVENTIONS)}, imdl, got {convention!r}", 2)
    if (truth is None) == (dataset is None):
        fail("give exactly one of --truth and --dataset", 2)
    manifest = dataset is not None and dataset.suffix.lower() == ".json"
    if split is not None and (dataset is None or manifest):
        fail("--split goes with --dataset (a release folder, not a manifest)", 2)
    if dataset is not None and classes is not None:
        fail("--classes goes with --truth (a --dataset's folders name the classes)", 2)
    if convention == "pixar-release" and threshold != 0.5:
        fail("--threshold is fixed at 0.5 under --convention pixar-release", 2)
    check_executor(executor, ray_address)
    if json_out is not None and json_out.is_dir():
        fail(f"--json {json_out}: is a folder", 2)
    if (run_out is None) != (name is None or not name.strip()):
        fail("--out and --name go together (the run directory and the predictions' model)", 2)
    if run_out is not None and run_out.exists() and not run_out.is_dir():
        fail(f"--out {run_out}: exists and is not a folder", 2)
    runner = get_executor(executor, ray_address, workers)
    try:
        if convention == "imdl" or manifest:
            from forgebench.suites.pixar import imdl_score

            res = imdl_score.for_cli(
                truth, dataset, split, pred, classes, pred_labels, convention, threshold, runner
            )
        elif dataset is not None:
            labels = read_pred_labels(pred_labels) if pred_labels is not None else None
            res = score_release(
                dataset, pred, split=split, pred_labels=labels, convention=convention,
                threshold=threshold, executor=runner,
            )  # fmt: skip
        else:
            assert truth is not None
            labels = read_pred_labels(pred_labels) if pred_labels is not None else None
            cls = read_classes(classes) if classes is not None else None
            res = score_folder(
                truth, pred, threshold=threshold, classes=cls, pred_labels=labels,
                convention=convention, executor=runner,
            )  # fmt: skip
    except PairsError as exc:
        fail(str(exc), 2)
    if res["convention"] == "imdl":
        for line in imdl_score.lines(res):
            console.print(line, markup=False)
    else:
        _print_score(res)
    if json_out is not None:
        try:
            write_text(json_out, json.dumps(res, indent=2) + "\n")
        except OSError as exc:
            fail(f"--json {json_out}: cannot write ({exc.strerror or exc})", 2)
    if run_out is not None and name is not None:
        from forgebench.results.metrics_csv import MetricsFileError, write_metrics
        from forgebench.run.store import StoreError
        from forgebench.suites.pixar.imdl import imdl_rows, scope
        from forgebench.suites.pixar.pair_scores import keep_pair_scores
        from forgebench.suites.pixar.results import BENCHMARK, score_metrics_rows

        imdl = res["convention"] == "imdl"
        rows = (imdl_rows if imdl else score_metrics_rows)(res, name.strip())
        try:
            run_out.mkdir(parents=True, exist_ok=True)
            if res.get("pairs") is not None:  # each pair, for the report's viewer
                keep_pair_scores(run_out, name.strip(), res["pairs"], threshold)
            path = write_metrics(run_out, rows, scope(BENCHMARK, [name.strip()], convention))
        except StoreError as exc:
            fail(f"--out {run_out}: {exc}", 2)
        except (OSError, MetricsFileError) as exc:
            fail(
                f"--out {run_out}: cannot write metrics ({getattr(exc, 'strerror', None) or exc})",
                2,
            )
        console.print(f"wrote {len(rows)} rows (model {name.strip()}) to {path}", markup=False)


def _print_score(res: dict[str, Any]) -> None:
    from rich.table import Table

    from forgebench.suites.pixar.localization import SIZE_CLASSES

    cols = ["giou", "ciou", "precision", "recall", "f1"] + (["auc"] if "auc" in res else [])
    title = f"PIXAR localization ({res['n_images']} tampered images, %, {res['convention']})"
    table = Table(title=title)
    table.add_column("subset")
    table.add_column("n", justify="right")
    for c in cols:
        table.add_column(c, justify="right")
    table.add_row("all", str(res["n_images"]), *(_fmt(res.get(c)) for c in cols))
    for s in SIZE_CLASSES:
        b = res["by_size"][s]
        table.add_row(s, str(b["n_images"]), *(_fmt(b.get(c)) for c in cols))
    console.print(table)
    if res.get("n_not_tampered"):
        console.print(f"not segmented (real / fully synthetic): {res['n_not_tampered']}")
    il = res.get("image_level")
    if il:
        pc = "  ".join(
            f"{k} P {_fmt(v['precision'])} R {_fmt(v['recall'])} F1 {_fmt(v['f1'])}"
            for k, v in il["per_class"].items()
        )
        console.print(f"image level ({il['n']} images): accuracy {_fmt(il['accuracy'])}  {pc}")
        if res.get("combined_f1") is not None:
            console.print(f"combined F1 {_fmt(res['combined_f1'])}")
    sem = res.get("semantic")
    if sem:
        console.print(
            f"semantic: micro F1 {_fmt(sem['micro_f1'])}  macro F1 {_fmt(sem['macro_f1'])}  "
            f"subset acc {_fmt(sem['subset_accuracy'])}  top-1 {_fmt(sem['top1'])}  "
            f"top-5 {_fmt(sem['top5'])}"
        )
    for key, what in (
        ("missing", "no prediction (scored as empty)"),
        ("resized", "prediction resized (nearest neighbour)"),
        ("extra", "prediction without a tampered truth (ignored)"),
        ("no_mask", "tampered image without masks/<stem>_mask.png (left out)"),
        ("no_metadata", "tampered image without readable metadata (no true class)"),
    ):
        if res.get(key):
            names = ", ".join(res[key][:10]) + (" ..." if len(res[key]) > 10 else "")
            console.print(f"{what}: {len(res[key])}: {names}")


def _summary_line(name: str, res: dict[str, Any]) -> str:
    parts = [f"{name}:"]
    for label, key in (("gIoU", "giou"), ("cIoU", "ciou"), ("F1", "f1"), ("top-1", "top1")):
        if res.get(key) is not None:
            parts.append(f"{label} {res[key]:.1f}")
    if res.get("css") is not None:
        parts.append(f"CSS {res['css']:.3f}")
    parts.append(f"misses {res['n_miss']}/{res['n_pairs']}")
    return "  ".join(parts)


@pixar_app.command("run")
def run_vlm(
    pairs: Path = typer.Argument(
        ..., help="Folder with original/ and edited/ (matching names), or a CSV original,edited."
    ),
    model: list[str] = typer.Option(
        [], "--model", help="[ALIAS=]PROVIDER/MODEL[@BASE_URL]; repeatable."
    ),
    models_file: Path | None = typer.Option(
        None, "--models-file", help="TOML file of [[models]] tables."
    ),
    out: Path = typer.Option(
        ..., "--out", help="Run directory (run.sqlite, metrics.csv, report/)."
    ),
    tau: float = typer.Option(0.05, "--tau", help="Threshold of the truth pixel labels."),
    concurrency: int | None = typer.Option(
        None, "--concurrency", help="Requests in flight per model (overrides the file)."
    ),
    limit: int | None = typer.Option(None, "--limit", min=1, help="Only the first N pairs."),
    classes: Path | None = typer.Option(
        None,
        "--classes",
        help="CSV stem,class[,description]: truth class and reference description (top-k, CSS).",
    ),
    retry_errors: bool = typer.Option(
        False, "--retry-errors", help="Ask tasks that ended as errors again."
    ),
    wait: bool = wait_option(),
    executor: str = executor_option(),
    ray_address: str | None = ray_address_option(),
    workers: int | None = workers_option(),
) -> None:
    """Ask vision-language models the LOC probe on the edited images and score their answers
    (gIoU, cIoU, P/R/F1, top-1/top-5, CSS); resumable (the same command again continues).

    A short alias of ``forgebench run PAIRS --benchmark pixar`` + ``metrics`` + ``tables``
    (``api.run`` with ``score`` and ``tables``: the same lock and Ctrl-C handling as ``run``);
    nothing is scored when a model could not be asked or the run was interrupted."""
    from forgebench import api
    from forgebench.errors import UserError
    from forgebench.models.spec import SpecError
    from forgebench.results.metrics_csv import read_rows
    from forgebench.run.send.options import SendOptions
    from forgebench.run.send.progress import RunProgress
    from forgebench.run.store import StoreError
    from forgebench.suites.pixar.loc_items import parse_tau
    from forgebench.suites.pixar.loc_run import check_asked, summary_of
    from forgebench.suites.pixar.results import BENCHMARK

    try:
        parse_tau(tau)
    except UserError as exc:
        fail(str(exc), 2)
    configs = model_configs(model, models_file, {"concurrency": concurrency})
    if out.exists() and not out.is_dir():
        fail(f"--out {out}: exists and is not a folder", 2)
    check_executor(executor, ray_address)
    runner = get_executor(executor, ray_address, workers)
    options = {"tau": str(tau)} | ({"classes": str(classes)} if classes is not None else {})
    errors: dict[str, int] = {}

    def asked(result: Any) -> None:  # nothing is scored after a failed model or a Ctrl-C
        check_asked(result.generation, out)
        errors.update({m.name: m.errors for m in result.models})

    try:
        suite = api.suite_of(pairs, BENCHMARK)
        settings = api.GenerationSettings(
            selection=api.selection_for(suite, sample=limit, options=options),
            retry_errors=retry_errors,
            executor=runner if runner.name != "local" else None,
        )
        api.run(
            pairs, out, configs, settings, benchmark=BENCHMARK,
            send=SendOptions(
                progress=RunProgress(err_console), handle_signals=True,
                on_signal=lambda: err_console.print(
                    "stopping: letting requests in flight finish (Ctrl-C again to abandon them)",
                    markup=False,
                ),
            ),
            wait=wait, on_wait=lambda m: err_console.print(m, markup=False),
            score=True, options=options, tables=True, on_generated=asked,
        )  # fmt: skip
    except (SpecError, StoreError) as exc:
        fail(str(exc), 2)
    except UserError as exc:
        fail(str(exc), exc.exit_code)
    except KeyboardInterrupt:
        if errors:  # after sending: as before, not a line of its own
            raise
        err_console.print("interrupted while preparing; nothing was sent", markup=False)
        raise typer.Exit(130) from None
    rows = [r for r in read_rows(out / "metrics.csv") if r["benchmark"] == BENCHMARK]
    code = 0
    for name in (c.name for c in configs):
        res = summary_of(rows, name)
        if not res:
            continue
        console.print(_summary_line(name, res), markup=False)
        if errors.get(name):
            err_console.print(
                f"warning: model {name}: {errors[name]} tasks have no answer (errors; "
                "scored as misses); run again with --retry-errors to ask them again",
                markup=False,
            )
            code = 1
    console.print(
        f"wrote {out / 'metrics.csv'} (benchmark pixar) and the PIXAR tables in {out / 'report'}",
        markup=False,
    )
    if code:
        raise typer.Exit(code)
