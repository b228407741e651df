"""Forensics' dataset facet: ``validate`` of our JSONL folder (:mod:`..validate`), its hf layout
and the release TSV written back (``export-dataset --format release-tsv``; :mod:`..interop`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from forgebench.interop.layout import DatasetLayout
from forgebench.suites import facets
from forgebench.suites.forensics import interop
from forgebench.suites.forensics.validate import validate_forensics
from forgebench.suites.outputs import Validation


class ForensicsDataset(facets.Dataset):
    def validate(
        self, path: Path, progress: Callable[[int, int], None] | None = None
    ) -> Validation:
        """Every problem of a Forensics folder; when valid, its items by task."""
        report = validate_forensics(path)
        tasks = ", ".join(f"{k} {v}" for k, v in sorted(report.by_task.items()))
        summary = [f"forensics dataset: {report.items} items ({tasks})"]
        return Validation(
            errors=[str(p) for p in report.errors],
            warnings=[str(p) for p in report.warnings],
            summary=summary if not report.errors else [],
            items=report.items,
        )

    def layout(self) -> DatasetLayout:
        return interop.layout()

    def formats(self) -> Mapping[str, Callable[[Path, Path], tuple[Path, int]]]:
        return {"release-tsv": interop.write_release_tsv}


DATASET = ForensicsDataset()
