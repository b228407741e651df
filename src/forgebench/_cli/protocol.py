"""CLI commands (protocol): ``forgebench prompts`` and ``forgebench tasks`` (through the
dataset's suite: ``api.prompts``, ``api.tasks``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import typer

from forgebench._cli.app import fail, verbs
from forgebench._cli.dataset import benchmark_option
from forgebench.util.text import printable


def _print(text: str) -> None:
    """Print plain text (no markup, no wrapping: safe to pipe and grep) with every control
    character of a dataset's text as a visible escape."""
    print(printable(text))


@verbs.command("prompts")
def prompts(
    dataset: Path | None = typer.Option(
        None, "--dataset", help="Dataset folder (with --item: show the prompts filled in)."
    ),
    item: str | None = typer.Option(None, "--item", help="Item id to fill the prompts for."),
    benchmark: str | None = benchmark_option("Show this benchmark's prompts only."),
) -> None:
    """Print every benchmark's verbatim prompt templates (Mandela: Appendix E), or the exact prompts one item receives."""
    from forgebench import api

    found = api.prompts(dataset, item, benchmark=benchmark)
    if dataset is not None:
        _suite, blocks = found[0]
        if not blocks:
            _print(f"item {item!r}: the protocol asks it nothing")
            return
        _print("\n\n".join(blocks))
        return
    several = len(found) > 1
    _print("\n\n".join(
        (f"== {suite.name}: {suite.title} ==\n\n" if several else "") + "\n\n".join(blocks)
        for suite, blocks in found
    ))  # fmt: skip


def _model_count(models: str | None) -> tuple[int, list[str]]:
    from forgebench.models.spec import parse_spec

    if models is None or not models.strip():
        return 1, []
    if models.strip().isdigit():
        n = int(models)
        if n < 1:
            fail("--models: need at least one model", 2)
        return n, []
    names = [parse_spec(s).name for s in models.split(",") if s.strip()]
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


@verbs.command("tasks")
def tasks(
    dataset: Path = typer.Argument(..., help="Dataset folder."),
    probes: str | None = typer.Option(None, "--probes", help="Comma-separated probes (narrows)."),
    conditions: str | None = typer.Option(
        None, "--conditions", help="Comma-separated conditions (narrows)."
    ),
    models: str | None = typer.Option(
        None, "--models", help="A number of models, or comma-separated model specs."
    ),
    protocol: str | None = typer.Option(
        None, "--protocol", help="Opt-in protocol parts to count besides the default."
    ),
    sample: int | None = typer.Option(None, "--sample", min=1, help="The benchmark's sample."),
    benchmark: str | None = benchmark_option("The dataset's benchmark (default: recognised)."),
) -> None:
    """Dry run: questions per probe x condition and the populations they run on."""
    from forgebench import api

    # a direct call (not through the CLI) leaves the newer options at their OptionInfo
    # a direct call (not through the CLI) leaves the newer options at their OptionInfo
    protocol = protocol if isinstance(protocol, str) else None
    sample = sample if isinstance(sample, int) else None
    benchmark = benchmark if isinstance(benchmark, str) else None

    suite = api.suite_of(dataset, benchmark)
    selection = api.selection_for(
        suite, probes=probes, conditions=conditions, protocol=protocol, sample=sample
    )
    n_models, names = _model_count(models)
    _suite, matrix = api.tasks(dataset, selection, benchmark=suite.name)
    rows = [("probe", "condition", "questions", "tasks", "population", "paper")]
    for r in matrix.rows:
        rows.append((r.probe, r.condition, str(r.questions), str(r.questions * n_models),
                     r.population, r.source))  # fmt: skip
    _print(f"{dataset}: task matrix (dry run, nothing written)")
    _print(_columns(rows, right=(2, 3)))
    who = ", ".join(names) if names else f"{n_models} model{'s' * (n_models != 1)}"
    _print(
        f"{matrix.items} items; {matrix.questions} questions x {who} = "
        f"{matrix.questions * n_models} tasks; {matrix.variants} distinct image variants"
    )
