"""PIXAR (seed 003): pixel-level tamper labels, the LOC probe, localization scoring and result
tables. The suite itself (what the engine runs) is :mod:`.suite`; its sub-commands are :mod:`.cli`.
Its construction parts (COCO seeds, effectiveness checks, pairs) are :mod:`.construct`.
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
