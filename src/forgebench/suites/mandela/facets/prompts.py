"""Mandela's prompts facet: the templates of :mod:`..prompts`, an item's exact prompts and the
``tasks`` matrix with each row's population and paper source (:mod:`..protocol_table`).

``forgebench prompts`` asks every suite's templates on a light path: the modules named here load
no imaging or numeric library (a variant is described, never rendered: ``render_images=False``)."""

from __future__ import annotations

from pathlib import Path

from forgebench.run.images import ConditionError, VariantCache
from forgebench.run.source import Selection
from forgebench.run.tasks import Question
from forgebench.suites import facets
from forgebench.suites.base import SuiteError
from forgebench.suites.mandela.conditions import image_condition, variant_params
from forgebench.suites.mandela.contract import (
    Dataset,
    DatasetError,
    Item,
    load_dataset,
    sample_seeds,
)
from forgebench.suites.mandela.expand import expand, matrix_counts, questions_for_item, select_pairs
from forgebench.suites.mandela.prompts import CAPTION, PROBE_TABLE
from forgebench.suites.mandela.protocol_table import Context, population_of, source_of
from forgebench.suites.outputs import MatrixRow, TaskMatrix


def _load(dataset: Path) -> Dataset:
    """The dataset folder loaded; a load error names the folder when its message does not."""
    try:
        return load_dataset(dataset)
    except DatasetError as exc:
        msg = str(exc)
        inside = str(dataset.resolve()) in msg or str(dataset) in msg
        raise SuiteError(msg if inside else f"{dataset}: {msg}") from None


def _image_line(q: Question, item: Item) -> str:
    """What image a question shows: its condition, box or canvas, source file and variant."""
    base = image_condition(q.condition)
    if q.image is None or base is None:
        return "image: none"
    params = variant_params(item, q.condition)
    src = item.faces.original_image if base == "face_original" and item.faces else item.image
    detail = f" box {params['box']}" if "box" in params else ""
    if "canvas" in params:
        detail += f" on a {params['canvas'][0]}x{params['canvas'][1]} grey canvas"
    return f"image: {base}{detail} of {src} (variant {q.image.variant_id[:16]})"


class MandelaPrompts(facets.Prompts):
    def templates(self) -> list[str]:
        """Every probe's verbatim Appendix E template, and the caption prefix."""
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
                f"{p.id}\nversion: {version}  [{p.version_id}]\ntitle: {p.title}\n"
                f"{note}{p.template}"
            )
        return blocks

    def prompts(self, dataset: Path, item_id: str) -> list[str]:
        """The exact prompts one item receives: probe / condition, version, population, image."""
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
                f"population: {population_of(q.probe, q.condition)} "
                f"({source_of(q.probe, q.condition)})"
            )
            blocks.append(
                f"{head}\nversion: {q.prompt_version}\n{pop}\n{_image_line(q, it)}\n---\n{q.prompt}"
            )
        return blocks

    def task_matrix(self, dataset: Path, selection: Selection) -> TaskMatrix:
        """Questions per probe x condition of the protocol table (rows the table runs but the
        dataset fills with nothing included), with each row's population and paper source."""
        p_list = list(selection.probes) if selection.probes is not None else None
        c_list = list(selection.conditions) if selection.conditions is not None else None
        selected = select_pairs(p_list, c_list, selection.parts)
        if not selected:
            raise SuiteError(
                f"the protocol runs no pair of probes {','.join(p_list or ['all'])} x conditions "
                f"{','.join(c_list or ['all'])}"
            )
        ds = sample_seeds(_load(dataset), selection.sample)
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


PROMPTS = MandelaPrompts()
