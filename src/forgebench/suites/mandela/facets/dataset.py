"""Mandela's dataset facet: ``validate`` (:mod:`..validate`, Appendix D's checks) with the
summary of a valid folder, and the hf layout of ``export-dataset`` (:mod:`..interop`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.table import Table

from forgebench.interop.layout import DatasetLayout
from forgebench.suites import facets
from forgebench.suites.mandela import interop
from forgebench.suites.mandela.validate import ValidationReport, validate_dataset
from forgebench.suites.outputs import Validation


def dataset_summary(report: ValidationReport) -> list[Any]:
    """A one-screen summary of a valid dataset: totals, then counts per field (a rich table);
    what ``validate`` and ``import`` show after a folder passes."""
    seeds = len({it.seed_id for it in report.items})
    images = len({it.image for it in report.items})
    head = (
        f"{report.root}: {len(report.items)} items, {seeds} seeds, {images} images, "
        f"{len(report.kb)} KB entities; {len(report.warnings)} warning(s)"
    )
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("field")
    table.add_column("counts")
    for name, counts in report.summary().items():
        table.add_row(name, "  ".join(f"{k} {v}" for k, v in counts.items()))
    return [head, table]


class MandelaDataset(facets.Dataset):
    def validate(
        self, path: Path, progress: Callable[[int, int], None] | None = None
    ) -> Validation:
        """Every problem of the folder as ``FILE:LINE: FIELD: message`` and, when valid, its
        summary (counts by label, family, domain, saliency, k1_type, variant)."""
        report = validate_dataset(path, progress=progress)
        return Validation(
            errors=[str(p) for p in report.errors],
            warnings=[str(p) for p in report.warnings],
            summary=dataset_summary(report) if report.ok else [],
            items=len(report.items),
        )

    def layout(self) -> DatasetLayout:
        return interop.layout()


DATASET = MandelaDataset()
