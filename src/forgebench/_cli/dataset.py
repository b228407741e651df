"""CLI commands (dataset): ``forgebench validate`` and ``forgebench import``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from forgebench._cli.app import app, console, err_console, fail


@contextmanager
def _progress(label: str) -> Iterator[Callable[[int, int], None]]:
    """A progress bar on stderr (only on a terminal); yields a ``(done, total)`` callback."""
    bar = Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err_console,
        transient=True,
        disable=not err_console.is_terminal,
    )
    task = bar.add_task(label, total=None)

    def update(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    with bar:
        yield update


def _forensics_folder(dataset: Path) -> bool:
    from forgebench.suites.forensics.contract import is_forensics_dataset

    return is_forensics_dataset(dataset)


def _validate_forensics(dataset: Path) -> None:
    """``forgebench validate`` on a Forensics folder: every problem, exit 2 on an error."""
    from forgebench.suites.forensics.validate import validate_forensics

    report = validate_forensics(dataset)
    for p in [*report.errors, *report.warnings]:
        err_console.print(str(p), markup=False)
    if report.errors:
        fail(f"{dataset}: {len(report.errors)} error(s), {len(report.warnings)} warning(s)", 2)
    tasks = ", ".join(f"{k} {v}" for k, v in sorted(report.by_task.items()))
    console.print(f"forensics dataset: {report.items} items ({tasks})", markup=False)


def _import_forensics(src: Path, out: Path, force: bool) -> None:
    """``forgebench import ForensicsBench.tsv``: the release TSV into a Forensics folder."""
    from forgebench.suites.forensics.problems import ForensicsDataError
    from forgebench.suites.forensics.tsv_import import import_release_tsv

    try:
        with _progress("importing rows") as update:
            summary = import_release_tsv(src, out, force=force, on_row=lambda n: update(n, 0))
    except ForensicsDataError as exc:
        for p in exc.problems:
            err_console.print(str(p), markup=False)
        fail(str(exc), 2)
    console.print(
        f"imported {summary.items} Forensics items ({summary.images} images, "
        f"{summary.references} rows reusing another row's image) into {summary.out}",
        markup=False,
    )


@app.command("validate")
def validate(
    dataset: Path = typer.Argument(..., help="Dataset folder holding items.jsonl and images/."),
) -> None:
    """Check a Mandela dataset folder and report EVERY problem as FILE:LINE: FIELD: message.

    Exits 2 when there is an error (nothing is written, ever); warnings are printed and do not change the exit code. A valid dataset prints a summary (counts by label, family, domain, saliency, k1_type, variant) and exits 0.
    """
    from forgebench.suites.mandela.validate import (
        ITEMS_FILE,
        print_summary,
        validate_dataset,
    )

    if dataset.is_dir() and _forensics_folder(dataset):
        _validate_forensics(dataset)
        return
    if not dataset.exists():
        fail(f"{dataset}: no such dataset folder", 2)
    if not dataset.is_dir():
        fail(f"{dataset}: not a folder (a dataset is a folder holding {ITEMS_FILE})", 2)
    if not (dataset / ITEMS_FILE).is_file():
        fail(f"{dataset / ITEMS_FILE}: not found (a dataset folder holds {ITEMS_FILE})", 2)
    with _progress("decoding images") as update:
        report = validate_dataset(dataset, progress=update)
    for p in [*report.errors, *report.warnings]:
        err_console.print(str(p), markup=False)
    if report.errors:
        fail(
            f"{dataset}: {len(report.errors)} error(s), {len(report.warnings)} warning(s)",
            2,
        )
    print_summary(report, console)


def _import_hf(src: Path, out: Path, force: bool) -> bool:
    """``forgebench import HF_FOLDER``: a folder written by ``export-dataset --format hf`` back
    into its suite's dataset folder (False: ``src`` is no such folder)."""
    from forgebench import api
    from forgebench.errors import UserError

    try:
        done = api.import_hf_dataset(src, out, force=force)
    except UserError as exc:
        fail(str(exc), exc.exit_code)
    if done is None:
        return False
    console.print(f"imported {done[1]} {done[0]} items into {out}", markup=False)
    return True


@app.command("import")
def import_(
    src: Path = typer.Argument(
        ...,
        help="Item table: .csv, .parquet (or .jsonl), the release ForensicsBench.tsv, or a "
        "folder written by export-dataset --format hf.",
    ),
    out: Path = typer.Option(..., "--out", "-o", help="Dataset folder to write."),
    images_root: Path | None = typer.Option(
        None,
        "--images-root",
        help="Folder that relative image paths start from (default: the table's folder).",
    ),
    normalize: bool = typer.Option(
        False,
        "--normalize",
        help="Re-encode images as the paper does (JPEG q92, longest side 1280; boxes scaled).",
    ),
    force: bool = typer.Option(False, "--force", help="Replace an existing non-empty --out."),
    kb: Path | None = typer.Option(None, "--kb", help="A kb.jsonl to copy into the dataset."),
) -> None:
    """Import a CSV / Parquet item table (or the Forensics-Bench release TSV, known by its columns) into a dataset folder that validates.

    Columns are the fields of items.jsonl; nested fields are dotted columns (event.label, edit.region), lists and boxes are JSON cells ([10,20,30,40]), empty cells are null. Images are copied into OUT/images/.

    All or nothing: on any problem nothing is written and every problem is printed as FILE:LINE: FIELD: message (exit 2).
    """
    from forgebench.suites.mandela.importer import ImportFailed, import_dataset
    from forgebench.suites.mandela.validate import print_summary

    if src.is_dir() and _import_hf(src, out, force):
        return
    if src.suffix.lower() == ".tsv" and src.is_file():  # the importer says what is wrong
        _import_forensics(src, out, force)
        return
    try:
        with _progress("writing images") as update:
            result = import_dataset(
                src,
                out,
                images_root=images_root,
                normalize=normalize,
                force=force,
                kb=kb,
                progress=update,
            )
    except ImportFailed as exc:
        for p in exc.problems:
            err_console.print(str(p), markup=False)
        fail(str(exc), 2)
    for p in result.warnings:
        err_console.print(str(p), markup=False)
    how = "re-encoded (JPEG q92, longest side 1280)" if normalize else "copied"
    console.print(f"imported {len(result.report.items)} items; {result.n_images} images {how}")
    print_summary(result.report, console)
