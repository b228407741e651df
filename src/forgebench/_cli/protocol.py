"""CLI commands (protocol): ``forgebench prompts`` and ``forgebench tasks``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from forgebench._cli.app import app, fail

if TYPE_CHECKING:
    from forgebench.run.tasks import Question
    from forgebench.suites.mandela.contract import Dataset, Item


def _load(dataset: Path) -> Dataset:
    from forgebench.suites.mandela.contract import DatasetError, load_dataset

    try:
        return load_dataset(dataset)
    except DatasetError as exc:
        msg = str(exc)
        fail(
            msg if str(dataset.resolve()) in msg or str(dataset) in msg else f"{dataset}: {msg}", 2
        )


def _template_blocks() -> list[str]:
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


@app.command("prompts")
def prompts(
    dataset: Path | None = typer.Option(
        None, "--dataset", help="Dataset folder (with --item: show the prompts filled in)."
    ),
    item: str | None = typer.Option(None, "--item", help="Item id to fill the prompts for."),
) -> None:
    """Print every probe's verbatim Appendix E template, or the exact prompts one item receives."""
    if (dataset is None) != (item is None):
        fail("--dataset and --item go together", 2)
    if dataset is None or item is None:
        print("\n\n".join(_template_blocks()))
        return

    from forgebench.run.images import VariantCache
    from forgebench.suites.mandela.conditions import ConditionError
    from forgebench.suites.mandela.expand import questions_for_item, select_pairs
    from forgebench.suites.mandela.protocol_table import Context, population_of, source_of

    ds = _load(dataset)
    try:
        it = ds.get(item)
    except KeyError:
        fail(f"{dataset}: no item {item!r} in items.jsonl", 2)
    try:
        qs = questions_for_item(
            ds, it, Context.of(ds.items), select_pairs(), VariantCache(), render_images=False
        )
    except ConditionError as exc:
        fail(str(exc), 2)
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
    if not blocks:
        print(f"item {item!r}: the protocol asks it nothing")
        return
    print("\n\n".join(blocks))


def _model_count(models: str | None) -> tuple[int, list[str]]:
    from forgebench.models.spec import SpecError, parse_spec

    if models is None or not models.strip():
        return 1, []
    if models.strip().isdigit():
        n = int(models)
        if n < 1:
            fail("--models: need at least one model", 2)
        return n, []
    try:
        names = [parse_spec(s).name for s in models.split(",") if s.strip()]
    except SpecError as exc:
        fail(f"--models: {exc}", 2)
    if len(set(names)) != len(names):
        fail(f"--models: a model name appears twice ({', '.join(names)})", 2)
    return len(names), names


def _columns(rows: Sequence[tuple[str, ...]], right: tuple[int, ...] = ()) -> str:
    """Plain aligned columns (no markup, no wrapping: safe to pipe and grep)."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for r in rows:
        cells = [
            cell.rjust(w) if i in right else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(r, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


@app.command("tasks")
def tasks(
    dataset: Path = typer.Argument(..., help="Dataset folder."),
    probes: str | None = typer.Option(None, "--probes", help="Comma-separated probes (narrows)."),
    conditions: str | None = typer.Option(
        None, "--conditions", help="Comma-separated conditions (narrows)."
    ),
    models: str | None = typer.Option(
        None, "--models", help="A number of models, or comma-separated model specs."
    ),
) -> None:
    """Dry run: questions per probe x condition and the populations they run on."""
    from forgebench.suites.mandela.conditions import ConditionError
    from forgebench.suites.mandela.expand import expand, matrix_counts, select_pairs
    from forgebench.suites.mandela.ids import CONDITIONS, PROBES, parse_list
    from forgebench.suites.mandela.protocol_table import population_of, source_of

    try:
        p_list = parse_list(probes, PROBES, "probe")
        c_list = parse_list(conditions, CONDITIONS, "condition")
    except ValueError as exc:
        fail(str(exc), 2)
    n_models, names = _model_count(models)
    selected = select_pairs(p_list, c_list)
    if not selected:
        fail(
            f"the protocol runs no pair of probes {probes or 'all'} x conditions "
            f"{conditions or 'all'}",
            2,
        )
    ds = _load(dataset)
    try:
        qs = expand(ds, p_list, c_list, render_images=False)
    except ConditionError as exc:
        fail(str(exc), 2)
    counts = matrix_counts(qs)
    rows = [("probe", "condition", "questions", "tasks", "population", "paper")]
    for p, c in selected:
        n = counts.get((p, c), 0)
        rows.append((p, c, str(n), str(n * n_models), population_of(p, c), source_of(p, c)))
    print(f"{dataset}: task matrix (dry run, nothing written)")
    print(_columns(rows, right=(2, 3)))
    variants = {ref.variant_id for q in qs for ref in q.images}
    who = ", ".join(names) if names else f"{n_models} model{'s' * (n_models != 1)}"
    print(
        f"{len(ds)} items; {len(qs)} questions x {who} = {len(qs) * n_models} tasks; "
        f"{len(variants)} distinct image variants"
    )
