"""Reading results across runs: ``compare`` (two runs item by item).

Each benchmark takes part through its core only (``Suite.headline`` and ``Suite.outcome``), so a
plug-in benchmark's runs compare like the three. Stores are read through their read API
(:class:`forgebench.run.store.Store`), never SQL of this module's; a store of a newer schema is
refused in one line by the store itself.
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from forgebench._api.common import benchmarks_in, run_dir_of
from forgebench.errors import UserError
from forgebench.report.compare_page import write_compare
from forgebench.report.site_images import picture, safe_name
from forgebench.report.site_items import picture_sources
from forgebench.results.compare import (
    BenchmarkComparison,
    Side,
    headline_rows,
    pair_tests,
)
from forgebench.results.metrics_csv import read_rows
from forgebench.run.store import Store
from forgebench.suites.base import Outcome, Suite
from forgebench.util.outpath import check_out

__all__ = ["CompareResult", "compare", "parse_pairs"]


class NothingShared(UserError):
    """Two runs with nothing to compare (no common benchmark, item or model): one line, exit 2."""


@dataclass
class CompareResult:
    """What :func:`compare` found and wrote."""

    out: Path
    """The folder written (``index.html``, ``headline.csv``, ``tests.csv``, ``flips.csv``)."""
    benchmarks: list[BenchmarkComparison] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """One line each: benchmarks only one run holds, models without a partner."""

    @property
    def index(self) -> Path:
        return self.out / "index.html"


def parse_pairs(given: Sequence[str]) -> dict[str, str]:
    """``A_MODEL=B_MODEL`` strings as a mapping; a malformed one is one line (exit 2)."""
    pairs: dict[str, str] = {}
    for text in given:
        a, eq, b = text.partition("=")
        if not eq or not a.strip() or not b.strip():
            raise UserError(f"--pair {text!r}: expected A_MODEL=B_MODEL")
        pairs[a.strip()] = b.strip()
    return pairs


def _right_means(suite: Suite) -> str:
    """What makes an answer right, in the suite's words: the first paragraph of its ``outcome``
    method's own docstring, else of its package's ``outcome`` module (where the three keep it),
    without reST markup."""
    doc = type(suite).outcome.__doc__ if type(suite).outcome is not Suite.outcome else None
    if not doc:
        package = type(suite).__module__.rpartition(".")[0]
        try:
            doc = importlib.import_module(f"{package}.outcome").__doc__
        except ImportError:
            doc = None
    first = inspect.cleandoc(doc or "").split("\n\n")[0].replace("\n", " ").strip()
    first = re.sub(r":[a-z]+:`[~.]?([^`]+)`", r"\1", first).replace("``", "")
    return first or f"right or wrong as {suite.name}'s outcome scores it"


def _metric_rows(run: Path, benchmark: str, judge: str | None) -> list[dict[str, str]]:
    rows = [r for r in read_rows(run / "metrics.csv") if r["benchmark"] == benchmark]
    if judge is not None:
        rows = [r for r in rows if r["judge"] in ("", judge)]
    return rows


def compare(
    run_a: str | Path,
    run_b: str | Path,
    out: str | Path | None = None,
    *,
    pairs: Mapping[str, str] | None = None,
    judge: str | None = None,
) -> CompareResult:
    """Compare two runs on every benchmark both hold and every model pair (``pairs``: run A's
    model -> run B's; default the models of the same name): headline numbers side by side, the
    exact McNemar test on the questions both answered, and the flipped answers in a page
    (``out``, default ``compare-A-B`` in the working folder). Two runs that share no item (or no
    model pair) raise :class:`NothingShared` before anything is written."""
    a, b = run_dir_of(run_a), run_dir_of(run_b)
    target = Path(out) if out is not None else Path(f"compare-{a.name}-{b.name}")
    held_a, held_b = benchmarks_in(a), benchmarks_in(b)  # a newer store: one line here
    common = [s for s in held_a if s.name in {t.name for t in held_b}]
    notes = [
        f"{s.name}: only in run {side}; skipped"
        for side, held in (("A", held_a), ("B", held_b))
        for s in held
        if s not in common
    ]
    outcomes: dict[str, tuple[list[Outcome], list[Outcome]]] = {}
    for suite in common:  # what each run answered (a PIXAR run scored from files: its pairs)
        all_a, all_b = suite.outcome(a, judge), suite.outcome(b, judge)
        if {o.item_id for o in all_a} & {o.item_id for o in all_b}:
            outcomes[suite.name] = (all_a, all_b)
    if not outcomes:
        names = ", ".join(s.name for s in common) or "no benchmark in common"
        raise NothingShared(f"{a} and {b} share no item ({names}): nothing to compare")
    check_out(target)
    found: list[BenchmarkComparison] = []
    for suite in common:
        if suite.name not in outcomes:
            notes.append(f"{suite.name}: the runs share no item; skipped")
            continue
        all_a, all_b = outcomes[suite.name]
        asked_a, asked_b = {o.item_id for o in all_a}, {o.item_id for o in all_b}
        both = asked_a & asked_b  # items both runs asked
        found_a: list[Outcome] = [o for o in all_a if o.item_id in both]
        found_b: list[Outcome] = [o for o in all_b if o.item_id in both]
        models_a = list(dict.fromkeys(o.model for o in found_a))
        models_b = set(o.model for o in found_b)
        chosen = (
            [(m, pairs[m]) for m in models_a if m in pairs and pairs[m] in models_b]
            if pairs
            else [(m, m) for m in models_a if m in models_b]
        )
        partnered = {m for m, _ in chosen} | {m for _, m in chosen}
        notes += [
            f"{suite.name}: model {m} has no partner in the other run; skipped"
            for m in [*models_a, *sorted(models_b)]
            if m not in partnered
        ]
        if not chosen:
            continue
        bm = BenchmarkComparison(
            suite.name, suite.title or suite.name, _right_means(suite),
            len(asked_a), len(asked_b), len(both),
        )  # fmt: skip
        rows_a, rows_b = _metric_rows(a, suite.name, judge), _metric_rows(b, suite.name, judge)
        for model_a, model_b in chosen:
            side_a, side_b = Side.of(found_a, model_a), Side.of(found_b, model_b)
            bm.pairs.append(pair_tests(suite.name, model_a, model_b, side_a, side_b))
            bm.headline += headline_rows(
                suite.name, model_a, model_b, rows_a, rows_b, suite.headline
            )
        found.append(bm)
    if not found:
        raise NothingShared(
            f"{a} and {b} hold no model in common"
            + (" among the --pair names" if pairs else " (name pairs with --pair A_MODEL=B_MODEL)")
            + ": nothing to compare"
        )
    answers, pictures = _flip_details(a, b, found, target)

    files = write_compare(target, a, b, found, answers, pictures)
    return CompareResult(target, found, files, notes)


def _flip_details(
    a: Path, b: Path, found: list[BenchmarkComparison], out: Path
) -> tuple[
    dict[tuple[str, str], tuple[str | None, str | None, str | None]], dict[tuple[str, str], str]
]:
    """The answers of every flipped question in both runs (by run, ``A`` or ``B``, and task
    key: two runs of the same model and settings share their keys) and each flipped
    item's picture, written under ``out/img/`` as the report's viewer writes it."""
    answers: dict[tuple[str, str], tuple[str | None, str | None, str | None]] = {}
    pictures: dict[tuple[str, str], str] = {}
    for run, pick in ((a, 0), (b, 1)):
        with Store.open(run, create=False) as store:
            for bm in found:
                flips = bm.flips
                if not flips:
                    continue
                for model in {(f.model_a, f.model_b)[pick] for f in flips}:
                    wanted = {
                        (f.key_a, f.key_b)[pick]
                        for f in flips
                        if (f.model_a, f.model_b)[pick] == model
                    }
                    items = sorted({f.item_id for f in flips})
                    for r in store.records(bm.benchmark, items=items, models=[model]):
                        if r.key in wanted:
                            answers[("AB"[pick], r.key)] = (r.text, r.verdict, r.error)
                todo = [i for i in dict.fromkeys(f.item_id for f in flips)
                        if (bm.benchmark, i) not in pictures]  # fmt: skip
                if not todo:  # run B's dataset only for pictures run A's no longer has
                    continue
                root = store.dataset_folder(bm.benchmark)
                if root is None:
                    settings = store.meta_get("settings")
                    folder = settings.get("dataset") if isinstance(settings, dict) else None
                    root = (
                        Path(folder) if isinstance(folder, str) and Path(folder).is_dir() else None
                    )
                stored = store.items(bm.benchmark)
                for item_id in todo:
                    item = stored.get(item_id)
                    src, _ = picture_sources(item, root, None) if item else (None, None)
                    if src is not None and src.is_file():
                        try:
                            rel, _size = picture(src, out, safe_name(f"{bm.benchmark}/{item_id}"))
                        except OSError:
                            continue
                        pictures[(bm.benchmark, item_id)] = rel["thumb"]
    return answers, pictures
