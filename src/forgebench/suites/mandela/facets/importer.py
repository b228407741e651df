"""Mandela's importer facet: ``forgebench import`` of a folder of seed items
(:mod:`..importer`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from forgebench.suites import facets
from forgebench.suites.mandela import verbs_dataset
from forgebench.suites.outputs import ImportSettings, Output


class MandelaImporter(facets.Importer):
    def imports(self, src: Path) -> bool:
        return verbs_dataset.imports(src)

    def import_(
        self,
        src: Path,
        out: Path,
        settings: ImportSettings,
        progress: Callable[[int, int], None] | None = None,
    ) -> Output:
        return verbs_dataset.import_(src, out, settings, progress)


IMPORTER = MandelaImporter()
