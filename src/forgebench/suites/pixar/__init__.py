"""PIXAR (seed 003): pixel-level tamper labels, the LOC probe, localization scoring and result
tables. The suite itself (what the engine runs) is :mod:`.suite`; its sub-commands are :mod:`.cli`.
Its construction parts (COCO seeds, effectiveness checks, pairs) are :mod:`.construct`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from forgebench.suites.pixar.results import (
        classification_table,
        localization_table,
        pixar_metrics_rows,
        size_table,
        tables_from_rows,
        write_tables,
    )
    from forgebench.suites.pixar.scoring import score_arrays, score_folder

_HOMES = {
    "classification_table": "results",
    "localization_table": "results",
    "pixar_metrics_rows": "results",
    "size_table": "results",
    "tables_from_rows": "results",
    "write_tables": "results",
    "score_arrays": "scoring",
    "score_folder": "scoring",
}
"""Where each name lives: imported on first use, so registering the suite (every CLI start)
does not load NumPy and OpenCV."""

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


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
