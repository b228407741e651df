"""Forensics' dataset facet: ``validate`` of our JSONL folder, its hf layout and the release
TSV written back (``export-dataset --format release-tsv``; :mod:`..interop`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from forgebench.interop.layout import DatasetLayout
from forgebench.suites import facets
from forgebench.suites.forensics import interop, verbs
from forgebench.suites.outputs import Validation


class ForensicsDataset(facets.Dataset):
    def validate(
        self, path: Path, progress: Callable[[int, int], None] | None = None
    ) -> Validation:
        return verbs.validate(path)

    def layout(self) -> DatasetLayout:
        return interop.layout()

    def formats(self) -> Mapping[str, Callable[[Path, Path], tuple[Path, int]]]:
        return {"release-tsv": interop.write_release_tsv}


DATASET = ForensicsDataset()
