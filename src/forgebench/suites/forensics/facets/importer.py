"""Forensics' importer facet: the release TSV (or its folder) into our JSONL dataset folder
(:mod:`..tsv_import`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from forgebench.suites import facets
from forgebench.suites.outputs import ImportSettings, Output


class ForensicsImporter(facets.Importer):
    def imports(self, src: Path) -> bool:
        """A ``.tsv`` file: the release's ``ForensicsBench.tsv`` (the importer names what is
        wrong with one that is not: a missing column, a file that is not UTF-8)."""
        return src.suffix.lower() == ".tsv" and src.is_file()

    def import_(
        self,
        src: Path,
        out: Path,
        settings: ImportSettings,
        progress: Callable[[int, int], None] | None = None,
    ) -> Output:
        """The release TSV into a Forensics folder (all or nothing)."""
        # here, not at the top: `forgebench import` asks every suite's imports() first
        from forgebench.suites.forensics.tsv_import import import_release_tsv

        on_row = (lambda n: progress(n, 0)) if progress is not None else None
        summary = import_release_tsv(src, out, force=settings.force, on_row=on_row)
        return Output(
            files=[summary.out],
            lines=[
                f"imported {summary.items} Forensics items ({summary.images} images, "
                f"{summary.references} rows reusing another row's image) into {summary.out}"
            ],
        )


IMPORTER = ForensicsImporter()
