"""CLI commands (across runs): ``forgebench compare RUN_A RUN_B`` (``api.compare``)."""

from __future__ import annotations

from pathlib import Path

import typer

from forgebench._cli.app import verbs
from forgebench.cli_support import say


@verbs.command("compare")
def compare(
    run_a: Path = typer.Argument(..., help="Run A (the baseline)."),
    run_b: Path = typer.Argument(..., help="Run B (compared against A)."),
    out: Path | None = typer.Option(
        None, "--out", help="Output folder (default ./compare-A-B): index.html and CSVs."
    ),
    pair: list[str] = typer.Option(
        [],
        "--pair",
        help="A_MODEL=B_MODEL: compare these models (repeatable; default: the same names).",
    ),
    judge: str | None = typer.Option(None, "--judge", help="Judge whose grades the outcome uses."),
) -> None:
    """Compare two runs item by item: headline numbers side by side, an exact McNemar test on the
    answers both gave, and the flipped answers in a page."""
    from forgebench import api
    from forgebench.analysis.stats import format_p
    from forgebench.results.compare import ALL

    done = api.compare(run_a, run_b, out, pairs=api.parse_pairs(pair), judge=judge)
    for line in done.notes:
        say(line, err=True)
    for bm in done.benchmarks:
        say(f"{bm.benchmark}: {bm.items_both} items in both runs (A {bm.items_a}, B {bm.items_b})")
        for h in bm.headline:
            va = "—" if h.value_a is None else f"{h.value_a:.1f}"
            vb = "—" if h.value_b is None else f"{h.value_b:.1f}"
            d = "" if h.diff is None else f" ({h.diff:+.1f})"
            say(f"  {h.model_a} / {h.model_b}  {h.metric}: {va} -> {vb}{d}")
        for t in bm.tests:
            where = "all" if t.probe == ALL else f"{t.probe}/{t.condition}"
            say(
                f"  {t.model_a} / {t.model_b}  {where}: n={t.n} right {t.right_a} -> {t.right_b}, "
                f"right->wrong {t.b}, wrong->right {t.c}, McNemar p={format_p(t.p)}"
            )
    say(f"wrote {done.index}")


@verbs.command("leaderboard")
def leaderboard(
    runs: list[Path] = typer.Argument(..., help="Run directories (each with metrics.csv)."),
    out: Path = typer.Option(..., "--out", help="The site's folder (index.html, CSV, JSON)."),
    copy_reports: bool = typer.Option(
        False, "--copy-reports", help="Copy each run's report into the site (publish it alone)."
    ),
    judge: str | None = typer.Option(None, "--judge", help="Judge whose rows the numbers use."),
    intervals: bool = typer.Option(
        True,
        "--intervals/--no-intervals",
        help="Bootstrap the intervals the runs' reports did not compute (default) or leave them out.",
    ),
) -> None:
    """One static site ranking every model of every benchmark of the runs: one row per run,
    benchmark and model, sortable, with leaderboard.csv and leaderboard.json."""
    from forgebench import api

    done = api.leaderboard(runs, out, copy_reports=copy_reports, judge=judge, intervals=intervals)
    for line in done.notes:
        say(line, err=True)
    say(f"{len(done.rows)} rows from {len({r.run for r in done.rows})} runs; wrote {done.index}")
