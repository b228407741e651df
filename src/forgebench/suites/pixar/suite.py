"""The PIXAR suite (seed 003) behind the seam: pixel labels, effectiveness checks, the LOC probe
and localization metrics.

PIXAR's datasets are folders of (original, edited) pairs; its commands are ``forgebench pixar
label | score | run`` (the suite's sub-commands), which write the ``pixar`` rows of
``metrics.csv`` themselves. Its answers live in the same run store as Mandela's (benchmark
``pixar``), so one report shows both.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from forgebench.suites import register
from forgebench.suites.base import Headline, Suite

if TYPE_CHECKING:
    import typer


class PixarSuite(Suite):
    """PIXAR: pixel-level tamper maps and localization metrics."""

    name = "pixar"
    title = "PIXAR (seed 003)"
    probes = ("LOC",)
    conditions = ("full",)
    headline = tuple(Headline("LOC", "full", m) for m in ("giou", "f1", "auc"))
    """Localization: gIoU, F1 and AUC over every pair."""

    def detect(self, path: Path) -> bool:
        # ``forgebench run`` does not take pair folders: PIXAR runs through ``pixar run``.
        return False

    def cli(self) -> typer.Typer:
        from forgebench.suites.pixar.cli import pixar_app

        return pixar_app


SUITE = register(PixarSuite())
