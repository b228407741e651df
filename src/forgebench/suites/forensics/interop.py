"""Forensics in the interchange formats: the dataset's table layout (``export-dataset --format
hf``)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from forgebench.interop.layout import DatasetLayout, ImageColumn
from forgebench.suites.base import SuiteError
from forgebench.suites.forensics.contract import ITEMS_FILE, ForensicsItem
from forgebench.suites.forensics.marker import BENCHMARK_FILE, MARKER_FILE
from forgebench.suites.forensics.problems import ForensicsDataError
from forgebench.suites.forensics.tsv_export import export_release_tsv

CONTRACT = """\
One row per question of a Forensics dataset (DESIGN.md "Forensics identifiers"): `id` (the release
TSV's `index`), `question`, `options` (letter -> text, JSON), `answer` (the right letter), the five
perspective values (`semantic`, `modality`, `task`, `type`, `model`) and the type code, the release
`category`. `images` is the question's candidate row of images, in order; their paths are the
files' places in the dataset folder. The folder's markers (`benchmark.txt`, `dataset.json`) travel
beside the data."""


def _license(item: Mapping[str, Any]) -> str:
    return str(item.get("license") or "")


def layout() -> DatasetLayout:
    """The table layout of a Forensics dataset folder."""
    return DatasetLayout(
        benchmark="forensics",
        items_file=ITEMS_FILE,
        item_model=ForensicsItem,
        images={"images": ImageColumn(lambda it: [str(p) for p in it.get("images") or []], True)},
        license=_license,
        contract=CONTRACT,
        files=(BENCHMARK_FILE, MARKER_FILE),
    )


RELEASE_TSV = "ForensicsBench.tsv"
"""The release's file name (VLMEvalKit's dataset name)."""


def write_release_tsv(dataset: Path, out_dir: Path) -> tuple[Path, int]:
    """``export-dataset --format release-tsv``: ``out_dir/ForensicsBench.tsv``
    (:func:`.tsv_export.export_release_tsv`)."""
    path = Path(out_dir) / RELEASE_TSV
    try:
        return path, export_release_tsv(Path(dataset), path)
    except ForensicsDataError as exc:
        raise SuiteError(str(exc)) from None
