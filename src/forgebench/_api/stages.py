"""One small function per suite stage that the API's verbs compose: the one place where a verb
asks a suite's core or facet (``api.judge``, ``api.metrics``, ``api.tables``, ``api.parse``,
``api.validate`` and the verbs that chain them: ``api.run(judge=...)``, ``api.demo``), so that a
change of how a suite offers a stage is made here once."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from forgebench.suites.base import Dataset, Facet, Judge, Tables, Verdict

if TYPE_CHECKING:
    from forgebench.models.spec import ModelConfig
    from forgebench.run.judging import JudgeSettings
    from forgebench.suites.base import JudgeOutcome, Output, Suite, Validation

F = TypeVar("F", bound=Facet)


def _facet(suite: Suite, kind: type[F]) -> F:
    """The facet of a suite chosen for its stage (the verb asked ``offers`` first)."""
    got = suite.facet(kind)
    assert got is not None, (suite.name, kind.kind)
    return got


def validate(
    suite: Suite, dataset: Path, progress: Callable[[int, int], None] | None = None
) -> Validation:
    """The suite's check of a dataset folder."""
    return _facet(suite, Dataset).validate(dataset, progress)


def parse(suite: Suite, run_dir: Path) -> str | None:
    """The suite's verdict stage on a run: its count line (None: nothing to say)."""
    verdict = suite.facet(Verdict)
    return verdict.parse(run_dir) if verdict is not None else None


def judge(
    suite: Suite, run_dir: Path, config: ModelConfig, settings: JudgeSettings
) -> JudgeOutcome | None:
    """The suite's judge stage with the judge ``config``."""
    return _facet(suite, Judge).judge(run_dir, config, settings)


def score(
    suite: Suite, run_dir: Path, judge: str | None, options: Mapping[str, str] | None = None
) -> Path | None:
    """The suite's rows of ``RUN/metrics.csv`` (None: nothing to score)."""
    return suite.score(run_dir, judge, dict(options or {}))


def tables(
    suite: Suite, run_dir: Path, out: Path | None, judge: str | None, reps: int = 2000
) -> Output:
    """The suite's tables (Markdown, LaTeX, CSV) under ``out`` (None: ``RUN/report``)."""
    return _facet(suite, Tables).tables(run_dir, out, judge, reps)
