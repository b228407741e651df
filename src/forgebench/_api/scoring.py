"""The grading verbs: the verdict stage, ``judge``, ``metrics`` (with each suite's console
summary) and the judge calibration. ``judge`` holds the run directory's lock."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forgebench._api import stages
from forgebench._api.common import StageResult, benchmarks_in, narrowed, run_dir_of, stage_suites
from forgebench.errors import NothingToDo, UserError
from forgebench.models.registry import capabilities
from forgebench.run.lock import run_lock
from forgebench.suites.base import Calibration, JudgeOutcome, Suite, Tables, offers

if TYPE_CHECKING:
    from rich.console import Console

    from forgebench.models.spec import ModelConfig
    from forgebench.run.judging import JudgeSettings

Skip = Callable[[str], None] | None
"""Where the "skipped" lines go (None: nowhere)."""


def _say(on_skip: Skip, lines: list[str]) -> None:
    if on_skip is not None:
        for line in lines:
            on_skip(line)


def parse(run_dir: str | Path, *, benchmark: str | None = None) -> list[str]:
    """The verdict stage of every suite of the run that has one: its count lines."""
    path = run_dir_of(run_dir)
    chosen, _ = stage_suites(path, "verdict", benchmark)
    return [line for s in chosen if (line := stages.parse(s, path))]


def judge_config(spec: str | ModelConfig) -> ModelConfig:
    """The judge's config; a bad spec (``--judge: ...``) or a model that cannot read text (a
    pixel detector) is refused in one line before anything is sent: it can be neither a judge
    nor an option extractor. ``run --judge``, ``api.run(judge=)`` and ``judge`` all ask here."""
    # inside: light path (metrics)
    from forgebench.models.spec import ModelConfig, SpecError

    try:
        config = spec if isinstance(spec, ModelConfig) else ModelConfig(spec=spec, max_tokens=None)
        reads_text = capabilities(config).reads_text
    except SpecError as exc:
        raise SpecError(f"--judge: {exc}") from None
    if not reads_text:
        raise UserError(
            f"--judge {config.name}: this model cannot read text, so it can be neither a judge "
            "nor an option extractor"
        )
    return config


def judge(
    run_dir: str | Path,
    spec: str | ModelConfig,
    settings: JudgeSettings | None = None,
    *,
    benchmark: str | None = None,
    concurrency: int | None = None,
    rpm: float | None = None,
    max_attempts: int | None = None,
    retry_unscored: bool = False,
    console: Console | None = None,
    wait: bool = False,
    on_wait: Callable[[str], None] | None = None,
) -> list[JudgeOutcome]:
    """Run the judge stage of every suite of the run (narrowed by ``benchmark``) with the judge
    ``spec``: Mandela's E0-E4 grades, Forensics' option extraction, ... What each did; a suite
    the judge cannot serve (``builtin/rules`` grades only Mandela) is an outcome with
    ``skipped`` set, and :class:`NothingToDo` when it can serve none. ``settings`` says how the
    judge is asked; the keywords override it: ``concurrency``, ``rpm``, ``max_attempts`` (default:
    the judge config's, at most 3), ``retry_unscored`` (ask again for replies stored as
    unscored), ``console`` (draws a progress bar). Holds the run's lock (``wait``: wait for it)."""
    # inside: light path (metrics)
    from forgebench.run.judging import JudgeSettings

    config = judge_config(spec)
    path = run_dir_of(run_dir)
    base = settings or JudgeSettings()
    chosen = dataclasses.replace(
        base,
        concurrency=concurrency if concurrency is not None else base.concurrency,
        rpm=rpm if rpm is not None else base.rpm,
        max_attempts=max_attempts if max_attempts is not None else base.max_attempts,
        retry_unscored=retry_unscored or base.retry_unscored,
        console=console if console is not None else base.console,
    )
    if chosen.max_reply_bytes is not None:
        config = config.model_copy(update={"max_reply_bytes": chosen.max_reply_bytes})
    having, skipped = stage_suites(path, "judge", benchmark)
    only = capabilities(config).judges
    usable = [s for s in having if only is None or s.name in only]
    skipped += [
        f"{s.name}: {config.name} judges only {', '.join(only or ())}; skipped"
        for s in having
        if s not in usable
    ]
    if not usable:
        names = ", ".join(s.name for s in having)
        raise NothingToDo(
            f"{path}: {config.name} judges only {', '.join(only or ())}; the run holds {names}"
        )
    out = [JudgeOutcome(config.name, line, skipped=True) for line in skipped]
    with run_lock(path, "judge", wait=wait, on_wait=on_wait):
        for suite in usable:
            outcome = stages.judge(suite, path, config, chosen)
            if outcome is not None:
                out.append(outcome)
                if not outcome.fatal:  # run --epochs: the later epochs' answers too
                    out += stages.judge_epochs(suite, path, config, chosen)
    return out


def metrics(
    run_dir: str | Path,
    judge: str | None = None,
    *,
    benchmark: str | None = None,
    options: Mapping[str, str] | None = None,
    on_skip: Skip = None,
) -> Path | None:
    """Parse and score every suite of the run (narrowed by ``benchmark``) into
    ``RUN/metrics.csv``; each suite replaces only its own rows. The file's path;
    :class:`NothingToDo` when no suite had anything to score. ``options``: values of the suites'
    own metrics options. A run with repeats (``run --epochs``) also gets each suite's spread
    and agreement rows (:mod:`forgebench.results.epochs`); its other rows are epoch 1's."""
    path = run_dir_of(run_dir)
    chosen, skipped = stage_suites(path, "metrics", benchmark)
    _say(on_skip, skipped)
    written: Path | None = None
    for suite in chosen:
        written = stages.score(suite, path, judge, options) or written
    if written is None:
        raise NothingToDo(f"{path}: nothing to score (no benchmark with answers)")
    return written


def summaries(
    run_dir: str | Path, judge: str | None = None, *, benchmark: str | None = None
) -> list[Any]:
    """Each suite's console summary of its rows of ``metrics.csv`` (rich renderables, strings)."""
    path = Path(run_dir)
    chosen = narrowed(benchmarks_in(path), benchmark, path)
    return [part for s in chosen if (t := s.facet(Tables)) for part in t.summary(path, judge)]


def _one(run_dir: Path, benchmark: str | None, on_skip: Skip) -> tuple[Suite, list[str]]:
    """The one suite of the run with a calibration facet, and the skipped lines."""
    having, skipped = stage_suites(run_dir, "calibration", benchmark)
    if len(having) > 1:
        names = ", ".join(s.name for s in having)
        raise UserError(
            f"{run_dir}: several benchmarks can be calibrated ({names}); give --benchmark"
        )
    _say(on_skip, skipped)
    return having[0], skipped


def _calibration(suite: Suite) -> Calibration:
    got = suite.facet(Calibration)
    assert got is not None and offers(suite, "calibration")
    return got


def calibrate_sample(
    run_dir: str | Path,
    n: int = 210,
    *,
    judge: str | None = None,
    seed: int = 0,
    out: str | Path | None = None,
    benchmark: str | None = None,
    on_skip: Skip = None,
) -> StageResult:
    """Write a blinded sample of answers for people to grade (the suite that has a calibration
    stage; ``benchmark`` chooses among several)."""
    path = run_dir_of(run_dir)
    suite, skipped = _one(path, benchmark, on_skip)
    target = Path(out) if out is not None else None
    done = _calibration(suite).sample(path, n, judge, seed, target)
    return StageResult({suite.name: done}, skipped)


def calibrate_score(
    run_dir: str | Path,
    human: str | Path | None = None,
    *,
    judge: str | None = None,
    against: str | None = None,
    benchmark: str | None = None,
    on_skip: Skip = None,
) -> StageResult:
    """Agreement of a judge with people's grades (``human``: the graded sample), or of two
    judges (``judge`` against ``against``)."""
    path = run_dir_of(run_dir)
    suite, skipped = _one(path, benchmark, on_skip)
    done = _calibration(suite).score(path, Path(human) if human else None, judge, against)
    return StageResult({suite.name: done}, skipped)
