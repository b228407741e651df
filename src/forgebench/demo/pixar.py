"""The demo's PIXAR part on a Mandela-format dataset folder, for callers outside the demo
pipeline: the pairs are Mandela's forgeries with their originals, the scoring PIXAR's
(:mod:`forgebench.suites.pixar.demo_part`, which the pipeline reaches through ``api.demo_parts``).
"""

from __future__ import annotations

from pathlib import Path

from forgebench.construct.pixels import DEFAULT_TAU
from forgebench.suites.mandela.demo_part import PART as MANDELA
from forgebench.suites.pixar.demo_part import PART as PIXAR
from forgebench.suites.pixar.demo_part import PixarDemoResult, ScoreMap

__all__ = ["PixarDemoResult", "ScoreMap", "score_pixar", "write_pixar"]


def score_pixar(
    dataset_root: Path,
    run_dir: Path,
    score_map: ScoreMap,
    *,
    model: str,
    tau: float = DEFAULT_TAU,
) -> PixarDemoResult:
    """Label every forgery of the dataset against its original and score the detector's maps
    (:meth:`~forgebench.suites.pixar.demo_part.PixarDemo.score`)."""
    pairs = MANDELA.forgery_pairs(dataset_root)
    return PIXAR.score(pairs, run_dir, score_map, model=model, tau=tau)


def write_pixar(run_dir: Path, scored: PixarDemoResult, *, model: str) -> None:
    """The rows of :func:`score_pixar` into ``RUN/metrics.csv`` (that model's PIXAR rows only)."""
    PIXAR.write(run_dir, scored, model=model)
