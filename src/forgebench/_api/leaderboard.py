"""Reading results across runs: ``leaderboard`` (many runs in one static site).

One row per (run, benchmark, model): the benchmark's headline numbers (``Suite.headline``; a
suite that declares none shows every metric of its rows on ``subset == all``) from the run's
``metrics.csv``, with their 95% intervals where the run's report computed them
(``report/overview.csv``, the front page's numbers, used when its value is the metrics' value)
or else as the front page computes them (the suite's report facet's ``intervals``); the
run's items of the benchmark (count and a digest of their ids: rows with the same digest ran the
same items) and the ``n`` of the model's first headline number (what it was computed on); the model's spec (redacted), temperature and
max_tokens as the store recorded them; a relative link to the run's report. A plug-in
benchmark's runs rank like the three: only the core (``name``, ``title``, ``headline``) and the
optional report facet are used. Stores are read through their read API; a store of a newer
schema is refused in one line by the store itself.
"""

from __future__ import annotations

import csv
import hashlib
import math
import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from forgebench._api.common import benchmarks_in, run_dir_of
from forgebench.errors import NothingToDo, UserError
from forgebench.report.front import FILENAME
from forgebench.report.leaderboard import BoardRow, write_leaderboard
from forgebench.results.compare import headlines_of
from forgebench.results.metrics_csv import read_rows
from forgebench.run.store import Store
from forgebench.suites.base import Report, Suite
from forgebench.util.outpath import check_out
from forgebench.util.redact import redact

__all__ = ["LeaderboardResult", "leaderboard"]

REPORTS = "reports"
"""Where ``--copy-reports`` puts each run's report inside the site."""


@dataclass
class LeaderboardResult:
    """What :func:`leaderboard` wrote."""

    out: Path
    rows: list[BoardRow] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """One line each: runs without metrics, reports not found."""

    @property
    def index(self) -> Path:
        return self.out / "index.html"


def _names(paths: Sequence[Path]) -> list[str]:
    """Each run's name on the site: its folder's name, ``-2``, ``-3`` ... for a repeated one."""
    seen: dict[str, int] = {}
    names = []
    for p in paths:
        base = p.resolve().name or "run"
        seen[base] = seen.get(base, 0) + 1
        names.append(base if seen[base] == 1 else f"{base}-{seen[base]}")
    return names


def _finite(text: str | float | None) -> float | None:
    try:
        value = float(text)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


Key = tuple[str, str, str, str, str, str]
"""(benchmark, model, probe, condition, subset, metric)."""


def _overview(run: Path) -> dict[Key, tuple[float | None, float | None, float | None]]:
    """The front page's numbers of the run's report (``report/overview.csv``): value, lo, hi."""
    path = run / "report" / FILENAME
    found: dict[Key, tuple[float | None, float | None, float | None]] = {}
    if not path.is_file():
        return found
    try:
        with path.open(newline="", encoding="utf-8") as fh:
            for r in csv.DictReader(fh):
                key = tuple(r.get(c) or "" for c in
                            ("benchmark", "model", "probe", "condition", "subset", "metric"))  # fmt: skip
                found.setdefault(
                    key,  # type: ignore[arg-type]
                    (_finite(r.get("value")), _finite(r.get("lo")), _finite(r.get("hi"))),
                )
    except (OSError, UnicodeDecodeError, csv.Error):
        return {}
    return found


def _facet_intervals(
    suite: Suite, run: Path, judge: str | None
) -> dict[Key, tuple[float | None, float | None]]:
    """The suite's headline intervals as its report facet gives them (None: it gives none)."""
    facet = suite.facet(Report)
    if facet is None:
        return {}
    ci = facet.intervals(run, run / "report", judge)
    if ci is None or not len(ci):
        return {}
    return {
        (suite.name, str(r.model), str(r.probe), str(r.condition), str(r.subset), str(r.metric)):
            (_finite(r.lo), _finite(r.hi))
        for r in ci.itertuples(index=False)
    }  # fmt: skip


def _settings(config: Any) -> tuple[str, float | None, int | None]:
    """Spec (redacted), temperature and max_tokens of a model's stored config."""
    if not isinstance(config, dict):
        return "", None, None
    clean = redact(config)
    spec = clean.get("spec")
    temperature = _finite(clean.get("temperature"))
    tokens = clean.get("max_tokens")
    return (
        str(spec) if spec is not None else "",
        temperature,
        int(tokens) if isinstance(tokens, int) and not isinstance(tokens, bool) else None,
    )


def _run_rows(
    run: Path,
    name: str,
    present: list[Suite],
    judge: str | None,
    intervals: bool,
    report: str | None,
    labels: dict[str, list[str]],
    ready: dict[str, dict[Key, tuple[float | None, float | None]]],
) -> list[BoardRow]:
    """The rows of one run; ``ready``: intervals already computed, by benchmark."""
    metrics = read_rows(run / "metrics.csv")
    if judge is not None:
        metrics = [r for r in metrics if r["judge"] in ("", judge)]
    overview = _overview(run)
    rows: list[BoardRow] = []
    with Store.open(run, create=False) as store:
        for suite in present:
            mine = [r for r in metrics if r["benchmark"] == suite.name]
            heads = headlines_of(mine, suite.headline)
            numbers: dict[tuple[str, str], tuple[float | None, float | None]] = {}
            for h in heads:
                for r in mine:
                    if h.matches(r):
                        numbers.setdefault(
                            (r["model"], h.label), (_finite(r["value"]), _finite(r["n"]))
                        )
            if not numbers:
                continue
            # the run's items of the benchmark; a run scored from files (pixar score --out)
            # holds its pairs' scores instead of items
            ids = sorted(store.items(suite.name)) or sorted(
                {p.pair for p in store.pair_scores(suite.name)}
            )
            digest = hashlib.sha1("\n".join(ids).encode("utf-8")).hexdigest()[:10]
            computed = ready.get(suite.name)
            group = labels.setdefault(suite.name, [])
            for h in heads:
                if h.label not in group:
                    group.append(h.label)
            for model in dict.fromkeys(m for m, _ in numbers):
                stored = store.meta_get(f"model:{model}")
                config = stored.get("config") if isinstance(stored, dict) else None
                spec, temperature, max_tokens = _settings(config)
                first_n = next(
                    (n for h in heads if (n := numbers.get((model, h.label), (None, None))[1])
                     is not None),
                    None,
                )  # fmt: skip
                row = BoardRow(
                    suite.name, suite.title or suite.name, model, name, len(ids), digest,
                    n=int(first_n) if first_n is not None else None, spec=spec,
                    temperature=temperature, max_tokens=max_tokens, report=report,
                )  # fmt: skip
                for h in heads:
                    value = numbers.get((model, h.label), (None, None))[0]
                    if value is None:
                        continue
                    key = (suite.name, model, h.probe, h.condition, h.subset, h.metric)
                    lo = hi = None
                    seen = overview.get(key)
                    if seen is not None and seen[0] is not None and abs(seen[0] - value) < 1e-9:
                        lo, hi = seen[1], seen[2]
                    elif intervals:
                        if computed is None:
                            computed = _facet_intervals(suite, run, judge)
                        lo, hi = computed.get(key, (None, None))
                    row.metrics[h.label] = (value, lo, hi)
                rows.append(row)
    return rows


def _bootstrapped(
    runs: Sequence[Path], present: dict[Path, list[Suite]], judge: str | None
) -> dict[Path, dict[str, dict[Key, tuple[float | None, float | None]]]]:
    """The intervals of every run and benchmark whose report gave none (no row of it in
    ``report/overview.csv``), from the suite's report facet (about 0.3 CPU-s for a run of 25
    models x 1,000 Forensics items; on threads, two at a time, no faster on the shared 2-core
    machine this was measured on, so one after another)."""
    found: dict[Path, dict[str, dict[Key, tuple[float | None, float | None]]]] = {}
    for run in runs:
        covered = {key[0] for key in _overview(run)}
        for suite in present[run]:
            if suite.name not in covered and suite.facet(Report) is not None:
                found.setdefault(run, {})[suite.name] = _facet_intervals(suite, run, judge)
    return found


def _report_link(run: Path, name: str, out: Path, copy: bool) -> str | None:
    """The run's report relative to the site: under ``reports/NAME/`` with ``copy`` (copied
    there by :func:`_copy_report`), else by a relative path to where it is (None: the run has
    no report)."""
    index = run / "report" / "index.html"
    if not index.is_file():
        return None
    if copy:
        return f"{REPORTS}/{name}/index.html"
    return Path(os.path.relpath(index.resolve(), out.resolve())).as_posix()


def _copy_report(run: Path, name: str, out: Path) -> None:
    """Copy the run's report folder into the site (replacing an earlier copy of it)."""
    target = out / REPORTS / name
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(run / "report", target)


def leaderboard(
    runs: Sequence[str | Path],
    out: str | Path,
    *,
    copy_reports: bool = False,
    judge: str | None = None,
    intervals: bool = True,
) -> LeaderboardResult:
    """Write one static site under ``out`` ranking every model of every benchmark of ``runs``
    (``index.html``, ``leaderboard.csv``, ``leaderboard.json``); ``copy_reports`` copies each
    run's report into the site so that it can be published alone; ``intervals=False`` leaves
    out the intervals the runs' reports did not compute. A run without ``metrics.csv`` is
    skipped with a note; none with any number is one line (exit 2)."""
    if not runs:
        raise UserError("leaderboard: name at least one run directory")
    paths = list(dict.fromkeys(run_dir_of(r).resolve() for r in runs))
    target = Path(out)
    check_out(target)
    if any(target.resolve() == p or target.resolve() in p.parents for p in paths):
        raise UserError(f"{target}: the site cannot be written inside a run directory")
    present = {p: benchmarks_in(p) for p in paths}  # a newer store: one line, nothing written
    names = _names(paths)
    notes = [
        f"{p}: no metrics.csv yet; skipped" for p in paths if not (p / "metrics.csv").is_file()
    ]
    labels: dict[str, list[str]] = {}
    rows: list[BoardRow] = []
    scored = [
        (p, name) for p, name in zip(paths, names, strict=True) if (p / "metrics.csv").is_file()
    ]
    ready = _bootstrapped([p for p, _ in scored], present, judge) if intervals else {}
    for p, name in scored:
        link = _report_link(p, name, target, copy_reports)
        if link is None:
            notes.append(f"{p}: no report yet (forgebench report {p}); not linked")
        rows += _run_rows(p, name, present[p], judge, intervals, link, labels, ready.get(p, {}))
    if not rows:
        raise NothingToDo(
            "leaderboard: no run holds a headline number yet (run forgebench metrics)"
        )
    order = {s.name: i for i, s in enumerate(s for ss in present.values() for s in ss)}
    ordered = dict(sorted(labels.items(), key=lambda kv: order.get(kv[0], 0)))
    for p, name in zip(paths, names, strict=True):
        if copy_reports and (p / "report" / "index.html").is_file():
            _copy_report(p, name, target)
    files = write_leaderboard(target, rows, ordered, [n for p, n in zip(paths, names, strict=True)])
    return LeaderboardResult(target, rows, files, notes)
