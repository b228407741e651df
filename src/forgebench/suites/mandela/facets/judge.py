"""Mandela's judge facet: the E0-E4 evidence-ladder grades (Appendix F; :mod:`..judge`), the
verdicts parsed first, and the rubric people grade the calibration sample with."""

from __future__ import annotations

from pathlib import Path

from forgebench.models.spec import ModelConfig
from forgebench.run.judging import JudgeSettings
from forgebench.suites import facets
from forgebench.suites.mandela.judge import judge_run
from forgebench.suites.mandela.parse_run import parse_answers
from forgebench.suites.mandela.rubric import RUBRIC
from forgebench.suites.outputs import JudgeOutcome


class MandelaJudge(facets.Judge):
    def judge(
        self, run_dir: Path, config: ModelConfig, settings: JudgeSettings
    ) -> JudgeOutcome | None:
        parse_answers(run_dir)
        stats = judge_run(run_dir, config.spec, settings, config=config)
        return JudgeOutcome(judge=stats.judge, summary=stats.summary(), fatal=stats.fatal)

    def rubric(self) -> str:
        return str(RUBRIC)


JUDGE = MandelaJudge()
