"""The dataset interoperability verbs: ``export-dataset`` (a Hugging Face ``datasets`` folder or a
suite's own format) and importing such a folder back. (``export RUN --format
inspect|model-index|vlmevalkit`` are formats of the export registry: :mod:`forgebench.interop.formats`.)"""

from __future__ import annotations

from pathlib import Path

from forgebench.interop.hf_export import export_hf
from forgebench.interop.hf_hub import is_hub_id, parse_ref, snapshot
from forgebench.interop.hf_import import HFImportError, import_hf, read_meta
from forgebench.suites import SuiteError, detect, get
from forgebench.suites.base import Dataset


def export_dataset(
    dataset: str | Path, fmt: str, out: str | Path, *, license: str = ""
) -> tuple[str, Path, int]:
    """``export-dataset DATASET --format hf|<a suite's own> --out DIR``: ``(benchmark, written
    path, rows)``. ``hf`` is a Hugging Face ``datasets`` folder of every suite with a table
    layout; a suite adds its own formats (Forensics: ``release-tsv``)."""
    dataset, out = Path(dataset), Path(out)
    suite = detect(dataset)
    facet = suite.facet(Dataset) or Dataset()
    own = facet.formats()
    if fmt in own:
        path, rows = own[fmt](dataset, out)
        return suite.name, path, rows
    layout = facet.layout() if fmt == "hf" else None
    if layout is None:
        known = (["hf"] if facet.layout() is not None else []) + sorted(own)
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
    items)``, or None when ``src`` is no such folder. ``src`` may be a Hub dataset,
    ``hf://OWNER/NAME[@REVISION]`` (:func:`import_hub_dataset`)."""
    if is_hub_id(src):
        name, n, _commit = import_hub_dataset(str(src), out, force=force)
        return name, n
    return _import_export(Path(src), Path(out), force=force)


def import_hub_dataset(ref: str, out: str | Path, *, force: bool = False) -> tuple[str, int, str]:
    """``import hf://OWNER/NAME[@REVISION] --out DATASET``: the Hub dataset fetched through the
    Hugging Face cache (:mod:`forgebench.interop.hf_hub`), then imported as an export folder;
    ``(benchmark, items, commit)``. One line (exit 2) and nothing written when the id is
    malformed, the dataset cannot be had (offline and not cached) or is no such export."""
    hub, out = parse_ref(ref), Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())) and not force:
        raise HFImportError(f"{out}: exists and is not empty (use --force to replace it)")
    snap = snapshot(hub)
    done = _import_export(snap.path, out, force=force, links_into=snap.blobs)
    if done is None:
        raise HFImportError(f"{hub}: not a dataset that export-dataset --format hf wrote")
    return (*done, snap.commit)


def _import_export(
    src: Path, out: Path, *, force: bool, links_into: Path | None = None
) -> tuple[str, int] | None:
    meta = read_meta(src)
    if meta is None:
        return None
    suite = get(str(meta.get("benchmark")))
    facet = suite.facet(Dataset)
    layout = facet.layout() if facet is not None else None
    if facet is None or layout is None:
        raise HFImportError(f"{src}: {suite.name} has no dataset table layout to import")
    check = lambda path: facet.validate(path).errors  # noqa: E731
    n = import_hf(src, out, layout, force=force, validate=check, links_into=links_into)
    return suite.name, n
