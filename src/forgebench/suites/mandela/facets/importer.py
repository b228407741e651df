"""Mandela's importer facet: ``forgebench import`` of an item table (CSV, Parquet, JSONL) into a
dataset folder (:mod:`..importer`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from forgebench.suites import facets
from forgebench.suites.outputs import ImportSettings, Output


class MandelaImporter(facets.Importer):
    def imports(self, src: Path) -> bool:
        """A CSV / Parquet / JSONL item table (the other suites claim their own files first)."""
        return src.is_file() and src.suffix.lower() in (".csv", ".parquet", ".jsonl")

    def import_(
        self,
        src: Path,
        out: Path,
        settings: ImportSettings,
        progress: Callable[[int, int], None] | None = None,
    ) -> Output:
        """Import an item table into a dataset folder that validates (all or nothing)."""
        # here, not at the top: `forgebench import` asks every suite's imports() first (the
        # importer and the dataset facet's summary load the validator and Pillow)
        from forgebench.suites.mandela.facets.dataset import dataset_summary
        from forgebench.suites.mandela.importer import import_dataset

        result = import_dataset(
            src, out, images_root=settings.images_root, normalize=settings.normalize,
            force=settings.force, kb=settings.kb, progress=progress,
        )  # fmt: skip
        how = "re-encoded (JPEG q92, longest side 1280)" if settings.normalize else "copied"
        return Output(
            files=[out / "items.jsonl"],
            lines=[
                f"imported {len(result.report.items)} items; {result.n_images} images {how}",
                *dataset_summary(result.report),
            ],
            notes=[str(p) for p in result.warnings],
        )


IMPORTER = MandelaImporter()
