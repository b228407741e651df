"""CLI commands (dataset): ``forgebench validate`` and ``forgebench import``; the suite comes
from the registry (``api.validate`` / ``api.import_``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer

from forgebench._cli.app import console, err_console, fail, verbs
from forgebench.cli_support import say


@contextmanager
def progress_bar(label: str) -> Iterator[Callable[[int, int], None]]:
    """A progress bar on stderr (only on a terminal); yields a ``(done, total)`` callback."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    bar = Progress(
        TextColumn(label, markup=False), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=err_console, transient=True, disable=not err_console.is_terminal,
    )  # fmt: skip
    task = bar.add_task(label, total=None)

    def update(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total or None)

    with bar:
        yield update


def show(parts: list[Any]) -> None:
    """Print strings plainly and rich renderables as they are, on stdout."""
    for part in parts:
        if isinstance(part, str):
            say(part)
        else:
            console.print(part)


def benchmark_option(what: str = "Act on this benchmark of the run only.") -> Any:
    """The ``--benchmark NAME`` option of the stage verbs."""
    return typer.Option(None, "--benchmark", help=what)


@verbs.command("validate")
def validate(
    dataset: Path = typer.Argument(..., help="Dataset folder (its benchmark is recognised)."),
    benchmark: str | None = benchmark_option("The dataset's benchmark (default: recognised)."),
) -> None:
    """Check a dataset folder and report EVERY problem as FILE:LINE: FIELD: message.

    Exits 2 when there is an error (nothing is written, ever); warnings are printed and do not change the exit code. A valid dataset prints a summary (Mandela: counts by label, family, domain, saliency, k1_type, variant) and exits 0.
    """
    from forgebench import api

    with progress_bar("decoding images") as update:
        _suite, report = api.validate(dataset, benchmark=benchmark, progress=update)
    for line in [*report.errors, *report.warnings]:
        say(line, err=True)
    if report.errors:
        fail(f"{dataset}: {len(report.errors)} error(s), {len(report.warnings)} warning(s)", 2)
    show(report.summary)


@verbs.command("import")
def import_(
    src: str = typer.Argument(
        ...,
        help="Item table: .csv, .parquet (or .jsonl), the release ForensicsBench.tsv, a "
        "folder written by export-dataset --format hf, or such a dataset on the Hugging Face "
        "Hub: hf://OWNER/NAME[@REVISION] (through the Hub cache; HF_HUB_OFFLINE and HF_TOKEN "
        "honoured).",
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
    benchmark: str | None = benchmark_option(
        "The importer to use (default: the one that recognises SRC)."
    ),
) -> None:
    """Import a file into a dataset folder that validates, with the importer of the benchmark that recognises it: a CSV / Parquet / JSONL item table (Mandela) or the Forensics-Bench release TSV (known by its columns); or an export-dataset --format hf folder, local or hf://OWNER/NAME[@REVISION] on the Hub (the 'datasets' extra).

    Mandela tables: columns are the fields of items.jsonl; nested fields are dotted columns (event.label, edit.region), lists and boxes are JSON cells ([10,20,30,40]), empty cells are null. Images are copied into OUT/images/.

    All or nothing: on any problem nothing is written and every problem is printed as FILE:LINE: FIELD: message (exit 2).
    """
    from forgebench import api

    settings = api.ImportSettings(images_root=images_root, normalize=normalize, force=force, kb=kb)
    with progress_bar("importing") as update:
        _suite, done = api.import_(src, out, settings, benchmark=benchmark, progress=update)
    for line in done.notes:
        say(line, err=True)
    show(done.lines)
