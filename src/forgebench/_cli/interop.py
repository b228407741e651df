"""CLI command ``forgebench export-dataset``: parse, call :mod:`forgebench.api`, print."""

from __future__ import annotations

from pathlib import Path

import typer

from forgebench._cli.app import console, fail, verbs
from forgebench.errors import UserError


@verbs.command("export-dataset")
def export_dataset_cmd(
    dataset: Path = typer.Argument(..., help="A dataset folder of any benchmark."),
    fmt: str = typer.Option(
        ..., "--format", "-f", help="hf (Hugging Face datasets folder) or a suite's own format."
    ),
    out: Path = typer.Option(..., "--out", "-o", help="Folder to write."),
    license: str = typer.Option(
        "", "--license", help="Licence of items that name none (the dataset card's licence)."
    ),
) -> None:
    """Write a dataset folder as a Hugging Face datasets folder (--format hf: parquet shards of
    split test with Image features and a dataset card; `forgebench import` reads it back) or in a
    benchmark's own format (Forensics: release-tsv, the VLMEvalKit TSV)."""
    from forgebench import api

    try:
        name, path, rows = api.export_dataset(dataset, fmt, out, license=license)
    except UserError as exc:
        fail(str(exc), exc.exit_code)
    except OSError as exc:
        fail(f"{out}: cannot write ({exc.strerror or exc})", 1)
    split = " (split test)" if fmt == "hf" else ""
    console.print(f"exported {rows} {name} items to {path}{split}", markup=False)
