"""CLI command ``forgebench export-dataset``: a benchmark's dataset folder in another format
(``hf``: a Hugging Face ``datasets`` folder, for every suite with a table layout; a suite's own
formats, such as Forensics' ``release-tsv``)."""

from __future__ import annotations

from pathlib import Path

import typer

from forgebench._cli.app import app, console, fail
from forgebench.errors import UserError

HF = "hf"


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
    from forgebench.interop.hf_export import export_hf
    from forgebench.suites import detect

    try:
        suite = detect(dataset)
        own = suite.dataset_formats()
        if fmt in own:
            path, rows = own[fmt](dataset, out)
            console.print(f"exported {rows} {suite.name} items to {path}", markup=False)
            return
        layout = suite.dataset_layout() if fmt == HF else None
        if layout is None:
            known = ([HF] if suite.dataset_layout() is not None else []) + sorted(own)
            fail(
                f"--format {fmt!r}: not a dataset format of {suite.name} "
                f"(known: {', '.join(known) or 'none'})",
                2,
            )
        rows = export_hf(dataset, layout, out, license=license)
    except UserError as exc:
        fail(str(exc), exc.exit_code)
    except OSError as exc:
        fail(f"{out}: cannot write ({exc.strerror or exc})", 1)
    console.print(f"exported {rows} {suite.name} items to {out} (split test)", markup=False)


RUN_FORMATS = ("inspect", "model-index", "vlmevalkit")
"""The ``export RUN --format`` formats of this module (csv and parquet are the row tables)."""


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
    from forgebench import suites
    from forgebench.interop.run_formats import Benchmark, RunExport, write_model_index_all
    from forgebench.run.store import Store, StoreError

    try:
        with Store.open(run_dir, create=False) as store:
            names = store.benchmarks()
    except StoreError as exc:
        fail(str(exc), 2)
    if benchmark is not None:
        if benchmark not in names:
            fail(f"{run_dir}: holds no {benchmark!r} tasks (it holds {', '.join(names)})", 2)
        names = [benchmark]
    infos = {}
    for name in names:
        suite = suites.get(name)
        infos[name] = Benchmark(name, suite.title, suite.headline, suite.export_target)
    request = RunExport(run_dir, out, infos, judge, dataset_id, tsv)
    written: list[Path] = []
    try:
        if fmt == "model-index":
            written = write_model_index_all(request)
        elif fmt == "inspect":
            from forgebench.interop.inspect_log import write_inspect_logs

            for name in names:
                written += write_inspect_logs(request, name)
        else:
            for name in names:
                writer = suites.get(name).run_formats().get(fmt)
                if writer is None:
                    console.print(f"skipped {name}: it has no {fmt} format", markup=False)
                    continue
                written += writer(request, name)
            if not written:
                fail(f"{run_dir}: no benchmark of the run has the {fmt} format", 2)
    except UserError as exc:
        fail(str(exc), exc.exit_code)
    except OSError as exc:
        fail(f"{out}: cannot write ({exc.strerror or exc})", 1)
    for path in written:
        console.print(f"exported: {path}", markup=False)
