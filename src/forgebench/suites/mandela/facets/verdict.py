"""Mandela's verdict facet: every answer read into REAL/FAKE, YES/NO... (:mod:`..verdict`,
stored by :mod:`..parse_run`)."""

from __future__ import annotations

from pathlib import Path

from forgebench.suites import facets
from forgebench.suites.mandela import verbs_run


class MandelaVerdict(facets.Verdict):
    def parse(self, run_dir: Path) -> str | None:
        return verbs_run.parse(run_dir)


VERDICT = MandelaVerdict()
