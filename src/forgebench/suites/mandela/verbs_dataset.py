"""Mandela's dataset verbs behind the seam: ``validate``, ``prompts`` and the
``tasks`` matrix (what Mandela's facets call; ``suites/facets.py`` says what each
returns)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forgebench.suites.base import (
    Loaded,
    MatrixRow,
    Selection,
    SuiteError,
    TaskMatrix,
    Validation,
)

if TYPE_CHECKING:
    from forgebench.run.tasks import Question
    from forgebench.suites.mandela.contract import Dataset, Item
    from forgebench.suites.mandela.validate import ValidationReport


def sample_seeds(ds: Dataset, n: int | None) -> Dataset:
    """The dataset cut to the items of its first ``n`` seeds (in file order)."""
    from forgebench.suites.mandela.contract import Dataset

    if n is None:
        return ds
    keep = set(list(dict.fromkeys(it.seed_id for it in ds.items))[:n])
    return Dataset(root=ds.root, items=[it for it in ds.items if it.seed_id in keep], kb=ds.kb)


def load(path: Path, selection: Selection) -> Loaded:
    """The dataset for ``run``: checked as ``validate`` checks it, then sampled by seed."""
    from forgebench.suites.mandela.contract import DatasetError, load_dataset
    from forgebench.suites.mandela.preflight import check_dataset

    try:
        check_dataset(path)  # run refuses what validate rejects
        ds = sample_seeds(load_dataset(path), selection.sample)
    except DatasetError as exc:
        raise SuiteError(str(exc)) from None
    return Loaded(root=ds.root, items=ds.items, data=ds)


def dataset_summary(report: ValidationReport) -> list[Any]:
    """A one-screen summary of a valid dataset: totals, then counts per field (a rich table)."""
    from rich.table import Table

    seeds = len({it.seed_id for it in report.items})
    images = len({it.image for it in report.items})
    head = (
        f"{report.root}: {len(report.items)} items, {seeds} seeds, {images} images, "
        f"{len(report.kb)} KB entities; {len(report.warnings)} warning(s)"
    )
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("field")
    table.add_column("counts")
    for name, counts in report.summary().items():
        table.add_row(name, "  ".join(f"{k} {v}" for k, v in counts.items()))
    return [head, table]


def validate(path: Path, progress: Callable[[int, int], None] | None) -> Validation:
    """Every problem of the folder as ``FILE:LINE: FIELD: message`` and, when valid, its
    summary (counts by label, family, domain, saliency, k1_type, variant)."""
    from forgebench.suites.mandela.validate import validate_dataset

    report = validate_dataset(path, progress=progress)
    return Validation(
        errors=[str(p) for p in report.errors],
        warnings=[str(p) for p in report.warnings],
        summary=dataset_summary(report) if report.ok else [],
        items=len(report.items),
    )


def prompt_templates() -> list[str]:
    """Every probe's verbatim Appendix E template, and the caption prefix."""
    from forgebench.suites.mandela.prompts import CAPTION, PROBE_TABLE

    blocks = []
    for p in (*PROBE_TABLE.values(), CAPTION):
        version = p.version + (f" (image {p.image_version})" if p.image_version else "")
        note = ""
        if p is CAPTION:
            note = (
                "note: prefixed to the probe text with one newline (version +cap-v1); the "
                "wrong-caption control substitutes another event and date (+wcap-v1)\n"
            )
        blocks.append(
            f"{p.id}\nversion: {version}  [{p.version_id}]\ntitle: {p.title}\n{note}{p.template}"
        )
    return blocks


def _load(dataset: Path) -> Dataset:
    from forgebench.suites.mandela.contract import DatasetError, load_dataset

    try:
        return load_dataset(dataset)
    except DatasetError as exc:
        msg = str(exc)
        inside = str(dataset.resolve()) in msg or str(dataset) in msg
        raise SuiteError(msg if inside else f"{dataset}: {msg}") from None


def _image_line(q: Question, item: Item) -> str:
    from forgebench.suites.mandela.conditions import image_condition, variant_params

    base = image_condition(q.condition)
    if q.image is None or base is None:
        return "image: none"
    params = variant_params(item, q.condition)
    src = item.faces.original_image if base == "face_original" and item.faces else item.image
    detail = f" box {params['box']}" if "box" in params else ""
    if "canvas" in params:
        detail += f" on a {params['canvas'][0]}x{params['canvas'][1]} grey canvas"
    return f"image: {base}{detail} of {src} (variant {q.image.variant_id[:16]})"


def prompts(dataset: Path, item_id: str) -> list[str]:
    """The exact prompts one item receives: probe / condition, version, population, image."""
    from forgebench.run.images import ConditionError, VariantCache
    from forgebench.suites.mandela.expand import questions_for_item, select_pairs
    from forgebench.suites.mandela.protocol_table import Context, population_of, source_of

    ds = _load(dataset)
    try:
        it = ds.get(item_id)
    except KeyError:
        raise SuiteError(f"{dataset}: no item {item_id!r} in items.jsonl") from None
    try:
        qs = questions_for_item(
            ds, it, Context.of(ds.items), select_pairs(), VariantCache(), render_images=False
        )
    except ConditionError as exc:
        raise SuiteError(str(exc)) from None
    blocks = []
    for q in qs:
        head = f"{q.probe} / {q.condition}"
        if q.extra.get("name_source") == "wrong_name":
            head += " (wrong-name control)"
        pop = (
            f"population: {population_of(q.probe, q.condition)} ({source_of(q.probe, q.condition)})"
        )
        blocks.append(
            f"{head}\nversion: {q.prompt_version}\n{pop}\n{_image_line(q, it)}\n---\n{q.prompt}"
        )
    return blocks


def task_matrix(dataset: Path, selection: Selection) -> TaskMatrix:
    """Questions per probe x condition of the protocol table (rows the table runs but the
    dataset fills with nothing included), with each row's population and paper source."""
    from forgebench.run.images import ConditionError
    from forgebench.suites.mandela.expand import expand, matrix_counts, select_pairs
    from forgebench.suites.mandela.protocol_table import population_of, source_of

    p_list = list(selection.probes) if selection.probes is not None else None
    c_list = list(selection.conditions) if selection.conditions is not None else None
    selected = select_pairs(p_list, c_list, selection.parts)
    if not selected:
        raise SuiteError(
            f"the protocol runs no pair of probes {','.join(p_list or ['all'])} x conditions "
            f"{','.join(c_list or ['all'])}"
        )
    ds = _load(dataset)
    ds = sample_seeds(ds, selection.sample)
    try:
        qs = expand(ds, p_list, c_list, render_images=False, parts=selection.parts)
    except ConditionError as exc:
        raise SuiteError(str(exc)) from None
    counts = matrix_counts(qs)
    rows = [
        MatrixRow(p, c, counts.get((p, c), 0), population_of(p, c), source_of(p, c))
        for p, c in selected
    ]
    variants = {ref.variant_id for q in qs for ref in q.images}
    return TaskMatrix(rows=rows, items=len(ds), questions=len(qs), variants=len(variants))
