"""Forensics' prompts facet: the release's MCQ prompt and the study prompts, and the exact
prompts one item receives under the default protocol."""

from __future__ import annotations

from pathlib import Path

from forgebench.suites import facets
from forgebench.suites.forensics import verbs
from forgebench.suites.forensics.suite import SUITE


class ForensicsPrompts(facets.Prompts):
    def templates(self) -> list[str]:
        return verbs.prompt_templates()

    def prompts(self, dataset: Path, item_id: str) -> list[str]:
        return verbs.prompts(SUITE, dataset, item_id)


PROMPTS = ForensicsPrompts()
