"""Forensics' judge facet: the option letters an LLM extractor (or ``builtin/embed``) reads
where the rules found none (:mod:`..judge`)."""

from __future__ import annotations

from pathlib import Path

from forgebench.models.spec import ModelConfig
from forgebench.run.judging import JudgeSettings
from forgebench.suites import facets
from forgebench.suites.forensics.judge import extract_run
from forgebench.suites.outputs import JudgeOutcome


class ForensicsJudge(facets.Judge):
    def judge(
        self, run_dir: Path, config: ModelConfig, settings: JudgeSettings
    ) -> JudgeOutcome | None:
        stats = extract_run(run_dir, config, settings)
        return JudgeOutcome(stats.judge, stats.summary(), stats.fatal)


JUDGE = ForensicsJudge()
