"""Mandela's prompts facet: the templates of :mod:`..prompts`, an item's exact prompts and the
``tasks`` matrix with each row's population and paper source (:mod:`..protocol_table`)."""

from __future__ import annotations

from pathlib import Path

from forgebench.run.source import Selection
from forgebench.suites import facets
from forgebench.suites.mandela import verbs_dataset
from forgebench.suites.outputs import TaskMatrix


class MandelaPrompts(facets.Prompts):
    def templates(self) -> list[str]:
        return verbs_dataset.prompt_templates()

    def prompts(self, dataset: Path, item_id: str) -> list[str]:
        return verbs_dataset.prompts(dataset, item_id)

    def task_matrix(self, dataset: Path, selection: Selection) -> TaskMatrix:
        return verbs_dataset.task_matrix(dataset, selection)


PROMPTS = MandelaPrompts()
