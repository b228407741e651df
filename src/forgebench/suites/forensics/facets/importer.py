"""Forensics' importer facet: the release TSV (or its folder) into our JSONL dataset folder."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from forgebench.suites import facets
from forgebench.suites.forensics import verbs
from forgebench.suites.outputs import ImportSettings, Output


class ForensicsImporter(facets.Importer):
    def imports(self, src: Path) -> bool:
        return verbs.imports(src)

    def import_(
        self,
        src: Path,
        out: Path,
        settings: ImportSettings,
        progress: Callable[[int, int], None] | None = None,
    ) -> Output:
        return verbs.import_(src, out, settings, progress)


IMPORTER = ForensicsImporter()
