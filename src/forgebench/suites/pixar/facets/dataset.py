"""PIXAR's dataset facet: ``validate`` of a pairs folder or CSV (every pair decodes and pairs
up; :mod:`..loc_items`) and its hf layout (:mod:`..interop`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from forgebench.interop.layout import DatasetLayout
from forgebench.run.source import Selection
from forgebench.suites import facets
from forgebench.suites.base import SuiteError
from forgebench.suites.outputs import Validation
from forgebench.suites.pixar import interop
from forgebench.suites.pixar.loc_items import load_items


class PixarDataset(facets.Dataset):
    def validate(
        self, path: Path, progress: Callable[[int, int], None] | None = None
    ) -> Validation:
        """Every pair of the folder (or CSV) decodes and has its original and edited image."""
        try:
            loaded = load_items(path, Selection())
        except SuiteError as exc:
            return Validation(errors=[str(exc)])
        taus = sorted({float(it["tau"]) for it in loaded.items})
        return Validation(
            summary=[f"pixar pairs: {len(loaded.items)} pairs (tau {', '.join(map(str, taus))})"],
            items=len(loaded.items),
        )

    def layout(self) -> DatasetLayout:
        return interop.layout()


DATASET = PixarDataset()
