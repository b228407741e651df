"""Mandela's calibration facet: a blinded sample stratified by model, probe, verdict and level,
and a judge's agreement with people's grades (Appendix F; :mod:`..calibration_io`)."""

from __future__ import annotations

from pathlib import Path

from forgebench.suites import facets
from forgebench.suites.mandela import verbs_run
from forgebench.suites.outputs import Output


class MandelaCalibration(facets.Calibration):
    def sample(
        self, run_dir: Path, n: int, judge: str | None, seed: int, out: Path | None
    ) -> Output:
        return verbs_run.calibrate_sample(run_dir, n, judge, seed, out)

    def score(
        self, run_dir: Path, human: Path | None, judge: str | None, against: str | None
    ) -> Output:
        return verbs_run.calibrate_score(run_dir, human, judge, against)


CALIBRATION = MandelaCalibration()
