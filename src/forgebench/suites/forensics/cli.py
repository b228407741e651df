"""Forensics' sub-commands (the suite's ``cli()``, mounted as ``forgebench forensics ...``).

``forgebench forensics export DATASET --out FILE.tsv`` writes a Forensics dataset folder back as
the release's VLMEvalKit-style TSV (base64 images; an image shared by several rows written once
and referenced by ``index``), the file ``forgebench import`` reads. Importing the release TSV and
running it need no sub-command: ``forgebench import`` knows the TSV by its columns and ``forgebench
run`` knows the folder.
"""

from __future__ import annotations

from pathlib import Path

import typer

from forgebench.cli_support import console, fail

forensics_app = typer.Typer(
    name="forensics",
    help="Forensics-Bench (seed 002): export a dataset folder back to the release TSV.",
    no_args_is_help=True,
)


@forensics_app.command("export")
def export(
    dataset: Path = typer.Argument(
        ...,
        help="A Forensics dataset folder (e.g. written by forgebench import ForensicsBench.tsv).",
    ),
    out: Path = typer.Option(
        ..., "--out", "-o", help="The TSV to write (VLMEvalKit layout, images as base64)."
    ),
    force: bool = typer.Option(False, "--force", help="Replace an existing --out file."),
) -> None:
    """Write DATASET as the release's TSV (index, image, question, hint, A-D, answer, category),
    which forgebench import reads back to the same items. The same as forgebench export-dataset
    DATASET --format release-tsv --out DIR (which writes DIR/ForensicsBench.tsv).

    All or nothing: on any problem (a bad item line, an image that cannot be read, an output that
    cannot be written) one line names it, the exit status is 2 and --out is left as it was.
    """
    from forgebench.suites.forensics.contract import ITEMS_FILE
    from forgebench.suites.forensics.marker import is_forensics_dataset
    from forgebench.suites.forensics.problems import ForensicsDataError
    from forgebench.suites.forensics.tsv_export import export_release_tsv

    if not dataset.exists():
        fail(f"{dataset}: no such dataset folder", 2)
    if not dataset.is_dir() or not is_forensics_dataset(dataset):
        fail(
            f"{dataset}: not a Forensics dataset folder (its benchmark.txt or dataset.json names "
            "the suite; forgebench import ForensicsBench.tsv --out FOLDER writes one)",
            2,
        )
    if not (dataset / ITEMS_FILE).is_file():
        fail(f"{dataset / ITEMS_FILE}: not found", 2)
    if out.is_dir():
        fail(f"{out}: is a folder; give the TSV's file name (e.g. {out / 'ForensicsBench.tsv'})", 2)
    parent = next((p for p in out.parents if p.exists()), None)
    if parent is not None and not parent.is_dir():
        fail(f"{out}: cannot write: {parent} is a file, not a folder", 2)
    if out.exists() and not force:
        fail(f"{out}: exists; add --force to replace it", 2)
    try:
        rows = export_release_tsv(dataset, out)
    except ForensicsDataError as exc:
        fail(f"{dataset}: {exc}", 2)
    except OSError as exc:
        fail(f"{out}: cannot write: {exc.strerror or exc}", 2)
    console.print(f"exported {rows} Forensics items to {out}", markup=False)
