"""PIXAR's prompts facet: the LOC prompt (:mod:`..probe`) and a pair's exact prompt."""

from __future__ import annotations

from pathlib import Path

from forgebench.suites import facets
from forgebench.suites.pixar import verbs


class PixarPrompts(facets.Prompts):
    def templates(self) -> list[str]:
        return verbs.prompt_templates()

    def prompts(self, dataset: Path, item_id: str) -> list[str]:
        return verbs.prompts(dataset, item_id)


PROMPTS = PixarPrompts()
