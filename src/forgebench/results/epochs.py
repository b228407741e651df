"""Repeats and their spread (``run --epochs N``, Inspect's word): the rows ``metrics`` adds to
``RUN/metrics.csv`` for a run whose tasks were asked more than once.

Design (the least invasive one: no suite knows about epochs). Every stage that scores reads the
current epoch-1 tasks (:data:`~forgebench.run.store.base.CURRENT`), so a suite's existing rows keep
their meaning: epoch 1, byte for byte as before. For each further epoch ``e``, :func:`score_epochs`
makes an *epoch view*: a copy of the run's store (SQLite's backup API, in a temporary folder, with
the run's small files) in which epoch ``e`` and epoch 1 swap labels, and runs the suite's own
:meth:`~forgebench.suites.base.Suite.score` on it, unchanged: it parses epoch ``e``'s answers and
writes that epoch's metrics.csv in the copy. What comes back into the run: the rows written here
and the verdicts the suite's parser gave the later epochs' answers (:func:`~forgebench.run.store.epochs.keep_epoch_rows`: keyed
by their own task keys; no stage that scores reads them, since it reads epoch 1). Exports read
each later epoch from a view too (``exports.table_of``), one copy of the store per epoch.

From the metrics of every epoch, for each headline metric of the suite
(:attr:`~forgebench.suites.base.Suite.headline`) and each model and judge:

- ``<metric>_epoch_mean``: the mean of the metric over the epochs (``n``: the epochs that have it;
  a model with the metric in one epoch only gets no row);
- ``<metric>_epoch_sd``: its sample standard deviation (``ddof=1``; 0 for identical epochs);

and for each model, probe and condition of a headline metric:

- ``epoch_agreement``: the share (percent) of items whose outcome is the same in every epoch
  (``n``: the items answered in every epoch). The outcome is the suite parser's verdict (a
  verdict, a letter, a mask class); for a suite whose readings include ``iou`` (PIXAR's LOC) it
  is whether the answer localises the edit, IoU >= 0.5 (PIXAR's per-item outcome).

A judged metric of a later epoch needs that epoch's answers judged: ``judge`` runs the suite's
own judge stage on each later epoch's view too (:func:`judge_epochs`) and keeps the judgements
in the run under the epoch's task keys, so the next ``judge`` asks only what is still unjudged.

These rows are written only when a benchmark's tasks have more than one epoch: a one-epoch run's
metrics.csv is byte-identical to what it was. Statistics that pair answers (McNemar, the regressions) read the
current tasks, i.e. epoch 1.
"""

from __future__ import annotations

import contextlib
import math
import shutil
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from forgebench.results.metrics_csv import METRICS_FILE, Scope, read_rows, write_metrics
from forgebench.run.rundir import DB_NAME

if TYPE_CHECKING:
    from forgebench.interop.headline import Headline


class Benchmark(Protocol):
    """What this module needs of a benchmark (a suite's core has it; the engine names no
    suite): its name, its headline metrics and its own scoring of a run folder."""

    @property
    def name(self) -> str: ...

    @property
    def headline(self) -> tuple[Headline, ...]: ...

    def score(
        self, run_dir: Path, judge: str | None, options: Mapping[str, str] | None = None
    ) -> Path | None: ...


OutcomeT = TypeVar("OutcomeT")

MEAN, SD, AGREEMENT = "_epoch_mean", "_epoch_sd", "epoch_agreement"
"""The suffixes of the spread rows and the agreement row's name."""
SUFFIXES = (MEAN, SD, AGREEMENT)
"""Every metric name this module writes ends with one of these."""
IOU_HIT = 50.0
"""PIXAR's per-item outcome: the answer's IoU (percent, as a verdict's detail stores it) at or
above 0.5."""


def epochs_of(run_dir: Path, benchmark: str) -> list[int]:
    """The epochs of ``benchmark``'s live tasks in the run ([1] without repeats)."""
    # inside: light path (prompts, validate, import)
    from forgebench.run.store import Store

    with Store.open(run_dir, create=False) as store:
        return store.epochs(benchmark)


def epoch_view(run_dir: Path, epoch: int, into: Path) -> Path:
    """A copy of the run under ``into`` in which epoch ``epoch`` is epoch 1 (and epoch 1 is
    ``epoch``): the run's small files (not its folders, not metrics.csv) and its store
    (:func:`~forgebench.run.store.epochs.copy_as_epoch`)."""
    # inside: light path (judge, metrics, report, export, ...)
    from forgebench.run.store.epochs import copy_as_epoch

    into.mkdir(parents=True, exist_ok=True)
    for f in run_dir.iterdir():
        if f.is_file() and not f.name.startswith(DB_NAME) and f.name != METRICS_FILE:
            shutil.copy2(f, into / f.name)
    copy_as_epoch(run_dir, epoch, into)
    return into


@contextlib.contextmanager
def epoch_views(run_dir: Path, benchmark: str) -> Iterator[list[tuple[int, Path]]]:
    """The epoch views (:func:`epoch_view`) of every epoch of ``benchmark`` after the first,
    as ``(epoch, folder)``, removed on exit (none for a run without repeats)."""
    later = epochs_of(run_dir, benchmark)[1:]
    with tempfile.TemporaryDirectory(prefix="forgebench-epochs-") as tmp:
        yield [(e, epoch_view(run_dir, e, Path(tmp) / f"epoch-{e}")) for e in later]


def outcomes(run_dir: Path, benchmark: str, by_iou: bool) -> dict[tuple[str, ...], str]:
    """The per-item outcome of each current (epoch-1) task of ``benchmark`` that has a verdict:
    (model, probe, condition, item, extra) -> the verdict, or with ``by_iou`` whether its IoU
    reaches :data:`IOU_HIT`."""
    # inside: light path (judge, metrics, report, export, ...)
    from forgebench.run.store.epochs import current_verdicts

    out: dict[tuple[str, ...], str] = {}
    for model, probe, cond, item, extra, verdict, detail in current_verdicts(run_dir, benchmark):
        value = verdict
        if by_iou:
            iou = _number(detail.get("iou"))
            value = "hit" if iou is not None and iou >= IOU_HIT else "no"
        out[(model, probe, cond, item, extra)] = value
    return out


def _number(value: Any) -> float | None:
    try:
        f = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(f) else f


def spread(values: list[float]) -> tuple[float, float]:
    """Mean and sample standard deviation (``ddof=1``; 0.0 for a single value)."""
    mean = sum(values) / len(values)
    if len(values) < 2:
        return mean, 0.0
    var = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return mean, math.sqrt(var)


def agreement(
    by_epoch: Sequence[Mapping[tuple[str, ...], str]],
) -> dict[tuple[str, str, str], tuple[float, int]]:
    """(model, probe, condition) -> (percent of items with the same outcome in every epoch,
    items present in every epoch)."""
    common = set(by_epoch[0]).intersection(*by_epoch[1:])
    counts: dict[tuple[str, str, str], list[int]] = {}
    for key in common:
        same = len({o[key] for o in by_epoch}) == 1
        c = counts.setdefault((key[0], key[1], key[2]), [0, 0])
        c[0] += int(same)
        c[1] += 1
    return {k: (100.0 * s / n, n) for k, (s, n) in counts.items()}


def epoch_rows(
    suite: Benchmark,
    metrics: list[list[dict[str, str]]],
    items: Sequence[Mapping[tuple[str, ...], str]],
) -> list[dict[str, Any]]:
    """The spread and agreement rows of ``suite`` from each epoch's metrics rows and per-item
    outcomes (both in epoch order)."""
    name = suite.name
    rows: list[dict[str, Any]] = []
    heads = suite.headline
    found: dict[tuple[str, ...], list[float]] = {}
    for epoch_rows_ in metrics:
        for r in epoch_rows_:
            if r["benchmark"] != name or not any(h.matches(r) for h in heads):
                continue
            value = _number(r["value"])
            if value is None:
                continue
            key = (r["model"], r["probe"], r["condition"], r["subset"], r["metric"], r["judge"])
            found.setdefault(key, []).append(value)
    for (model, probe, cond, subset, metric, judge), values in found.items():
        if len(values) < 2:  # a model asked once (a merged run): no spread to tell
            continue
        mean, sd = spread(values)
        base = {"benchmark": name, "model": model, "probe": probe, "condition": cond,
                "subset": subset, "n": len(values), "judge": judge}  # fmt: skip
        rows.append({**base, "metric": metric + MEAN, "value": mean})
        rows.append({**base, "metric": metric + SD, "value": sd})
    wanted = {(h.probe, h.condition) for h in heads}
    for (model, probe, cond), (value, n) in sorted(agreement(items).items()):
        if (probe, cond) in wanted:
            rows.append({"benchmark": name, "model": model, "probe": probe, "condition": cond,
                         "subset": "all", "metric": AGREEMENT, "value": value, "n": n,
                         "judge": ""})  # fmt: skip
    return rows


def score_epochs(
    suite: Benchmark,
    run_dir: Path,
    judge: str | None,
    options: Mapping[str, str] | None = None,
    *,
    by_iou: bool = False,
) -> Path | None:
    """Write ``suite``'s spread and agreement rows into ``RUN/metrics.csv`` (after its own
    :meth:`~forgebench.suites.base.Suite.score` wrote epoch 1's); None, touching nothing, when its
    tasks have one epoch. Each later epoch is scored by the suite itself on an epoch view."""
    # inside: light path (judge, metrics, report, export, ...)
    from forgebench.run.store.epochs import keep_epoch_rows

    run_dir = Path(run_dir)
    epochs = epochs_of(run_dir, suite.name)
    if len(epochs) < 2:
        return None
    metrics = [read_rows(run_dir / METRICS_FILE)]
    items = [outcomes(run_dir, suite.name, by_iou)]
    with epoch_views(run_dir, suite.name) as views:
        for e, view in views:
            suite.score(view, judge, dict(options or {}))
            keep_epoch_rows(run_dir, view, e, "verdicts")
            metrics.append(read_rows(view / METRICS_FILE))
            items.append(outcomes(view, suite.name, by_iou))
    rows = epoch_rows(suite, metrics, items)
    return write_metrics(run_dir, rows, Scope.of(suite.name, ends=SUFFIXES))


def judge_epochs(
    benchmark: str,
    run_dir: Path,
    judge_view: Callable[[Path], OutcomeT | None],
    stopped: Callable[[OutcomeT], bool],
) -> list[tuple[int, OutcomeT]]:
    """Run a benchmark's judge stage (``judge_view``: the suite's judge facet on a run folder)
    on each later epoch of the run (an epoch view each) and keep its judgements and verdicts in
    the run: each epoch's outcome (none for a run without repeats). Stops after an epoch whose
    judge stage ``stopped``."""
    # inside: light path (judge, metrics, report, export, ...)
    from forgebench.run.store.epochs import KEPT_TABLES, keep_epoch_rows

    out: list[tuple[int, OutcomeT]] = []
    with epoch_views(Path(run_dir), benchmark) as views:
        for e, view in views:
            outcome = judge_view(view)
            for table in KEPT_TABLES:
                keep_epoch_rows(Path(run_dir), view, e, table)
            if outcome is None:
                continue
            out.append((e, outcome))
            if stopped(outcome):
                break
    return out
