"""CLI command ``forgebench export-dataset`` and the ``export`` formats that write another tool's
files (``inspect``, ``model-index``, ``vlmevalkit``): parse, call :mod:`forgebench.api`, print."""

from __future__ import annotations

from pathlib import Path

import typer

from forgebench._cli.app import app, console, fail
from forgebench.errors import UserError


@app.command("export-dataset")
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


def export_run_format(
    run_dir: Path,
    fmt: str,
    out: Path,
    *,
    judge: str | None = None,
    dataset_id: str | None = None,
    tsv: bool = False,
    benchmark: str | None = None,
) -> None:
    """``export RUN --format inspect|model-index|vlmevalkit --out DIR``: prints what it wrote and
    one line per benchmark skipped; exit 2 when no benchmark of the run has the format."""
    from forgebench import api

    try:
        result = api.export_format(
            run_dir, fmt, out, judge=judge, dataset_id=dataset_id, tsv=tsv, benchmark=benchmark
        )
    except UserError as exc:
        fail(str(exc), exc.exit_code)
    except OSError as exc:
        fail(f"{out}: cannot write ({exc.strerror or exc})", 1)
    for line in result.skipped:
        console.print(line, markup=False)
    for path in result.written:
        console.print(f"exported: {path}", markup=False)
