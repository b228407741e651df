"""PIXAR (seed 003): pixel-level tamper labels, localization scoring and result tables.

Building blocks live where the pipeline puts them (``construct/pixels.py``, ``score/
localization.py``, ``protocol/pixar_probe.py``); this package joins them for users.
"""

from forgebench.suites.pixar.results import (
    classification_table,
    localization_table,
    pixar_metrics_rows,
    size_table,
    tables_from_rows,
    write_tables,
)
from forgebench.suites.pixar.scoring import score_arrays, score_folder

__all__ = [
    "classification_table",
    "localization_table",
    "pixar_metrics_rows",
    "score_arrays",
    "score_folder",
    "size_table",
    "tables_from_rows",
    "write_tables",
]
