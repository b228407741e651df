"""Mandela's dataset facet: ``validate`` (:mod:`..validate`, Appendix D's checks) and the hf
layout of ``export-dataset`` (:mod:`..interop`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from forgebench.interop.layout import DatasetLayout
from forgebench.suites import facets
from forgebench.suites.mandela import interop, verbs_dataset
from forgebench.suites.outputs import Validation


class MandelaDataset(facets.Dataset):
    def validate(
        self, path: Path, progress: Callable[[int, int], None] | None = None
    ) -> Validation:
        return verbs_dataset.validate(path, progress)

    def layout(self) -> DatasetLayout:
        return interop.layout()


DATASET = MandelaDataset()
