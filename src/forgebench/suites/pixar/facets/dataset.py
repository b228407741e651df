"""PIXAR's dataset facet: ``validate`` of a pairs folder or CSV and its hf layout
(:mod:`..interop`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from forgebench.interop.layout import DatasetLayout
from forgebench.suites import facets
from forgebench.suites.outputs import Validation
from forgebench.suites.pixar import interop, verbs


class PixarDataset(facets.Dataset):
    def validate(
        self, path: Path, progress: Callable[[int, int], None] | None = None
    ) -> Validation:
        return verbs.validate(path)

    def layout(self) -> DatasetLayout:
        return interop.layout()


DATASET = PixarDataset()
