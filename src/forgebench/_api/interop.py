"""The interoperability verbs: ``export RUN --format inspect|model-index|vlmevalkit`` (another
tool's files), ``export-dataset`` (a Hugging Face ``datasets`` folder or a suite's own format)
and importing such a folder back."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

RUN_FORMATS = ("inspect", "model-index", "vlmevalkit")
"""The ``export`` formats that write another tool's files (csv and parquet are the row tables)."""


@dataclass
class FormatExport:
    """What :func:`export_format` wrote."""

    written: list[Path]
    """The files written."""
    skipped: list[str]
    """One line per benchmark without the format."""


def export_format(
    run_dir: str | Path,
    fmt: str,
    out: str | Path,
    *,
    judge: str | None = None,
    dataset_id: str | None = None,
    tsv: bool = False,
    benchmark: str | None = None,
) -> FormatExport:
    """``export RUN --format inspect|model-index|vlmevalkit --out DIR``: the run (or the one
    ``benchmark`` of it) in another tool's format. :class:`~forgebench.errors.UserError` when
    the run cannot be read or no benchmark of it has the format."""
    from forgebench import suites
    from forgebench.interop.model_index import ExportError
    from forgebench.interop.run_formats import Benchmark, RunExport, write_model_index_all
    from forgebench.run.store import Store, StoreError

    if fmt not in RUN_FORMATS:
        raise ExportError(f"--format: unknown format {fmt!r}; known: {', '.join(RUN_FORMATS)}")
    run_dir, out = Path(run_dir), Path(out)
    try:
        with Store.open(run_dir, create=False) as store:
            names = store.benchmarks()
    except StoreError as exc:
        raise ExportError(str(exc)) from None
    if benchmark is not None:
        if benchmark not in names:
            raise ExportError(f"{run_dir}: holds no {benchmark!r} tasks ({', '.join(names)})")
        names = [benchmark]
    infos = {}
    for name in names:
        suite = suites.get(name)
        infos[name] = Benchmark(
            name, suite.title, suite.headline, suite.export_target, suite.reading_scores
        )
    request = RunExport(run_dir, out, infos, judge, dataset_id, tsv)
    result = FormatExport([], [])
    if fmt == "model-index":
        result.written = write_model_index_all(request)
    elif fmt == "inspect":
        from forgebench.interop.inspect_log import write_inspect_logs

        for name in names:
            result.written += write_inspect_logs(request, name)
    else:
        for name in names:
            writer = suites.get(name).run_formats().get(fmt)
            if writer is None:
                result.skipped.append(f"skipped {name}: it has no {fmt} format")
                continue
            result.written += writer(request, name)
        if not result.written:
            raise ExportError(
                f"{run_dir}: no benchmark of the run has the {fmt} format"
                + "".join(f"; {line}" for line in result.skipped)
            )
    return result


def export_dataset(
    dataset: str | Path, fmt: str, out: str | Path, *, license: str = ""
) -> tuple[str, Path, int]:
    """``export-dataset DATASET --format hf|<a suite's own> --out DIR``: ``(benchmark, written
    path, rows)``. ``hf`` is a Hugging Face ``datasets`` folder of every suite with a table
    layout; a suite adds its own formats (Forensics: ``release-tsv``)."""
    from forgebench.interop.hf_export import export_hf
    from forgebench.suites import SuiteError, detect

    dataset, out = Path(dataset), Path(out)
    suite = detect(dataset)
    own = suite.dataset_formats()
    if fmt in own:
        path, rows = own[fmt](dataset, out)
        return suite.name, path, rows
    layout = suite.dataset_layout() if fmt == "hf" else None
    if layout is None:
        known = (["hf"] if suite.dataset_layout() is not None else []) + sorted(own)
        raise SuiteError(
            f"--format {fmt!r}: not a dataset format of {suite.name} "
            f"(known: {', '.join(known) or 'none'})"
        )
    return suite.name, out, export_hf(dataset, layout, out, license=license)


def import_hf_dataset(
    src: str | Path, out: str | Path, *, force: bool = False
) -> tuple[str, int] | None:
    """``import HF_FOLDER --out DATASET``: a folder written by ``export-dataset --format hf``
    back into its suite's dataset folder, validated before it moves into place; ``(benchmark,
    items)``, or None when ``src`` is no such folder."""
    from forgebench.interop.hf_import import HFImportError, import_hf, read_meta
    from forgebench.suites import get

    src, out = Path(src), Path(out)
    meta = read_meta(src)
    if meta is None:
        return None
    suite = get(str(meta.get("benchmark")))
    layout = suite.dataset_layout()
    if layout is None:
        raise HFImportError(f"{src}: {suite.name} has no dataset table layout to import")
    check = (lambda path: suite.validate(path).errors) if suite.offers("validation") else None
    return suite.name, import_hf(src, out, layout, force=force, validate=check)
