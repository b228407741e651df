"""The run directory as a folder forgebench owns (:mod:`forgebench.util.owned`)."""

from __future__ import annotations

from pathlib import Path

from forgebench.util.owned import claim


def claim_run_dir(run_dir: Path) -> bool:
    """Create ``run_dir`` if it is missing, with the run marker; an existing folder gets the
    marker only when it holds nothing but what a run writes (``.lock``, ``run.sqlite``,
    ``config.json``, ``metrics.csv``, ``report/`` ...), never a folder of the user's other
    files. The one place a run directory is marked. Whether it carries the run marker."""
    return claim(run_dir, "run")
