"""Mandela's verdict facet: every answer read into REAL/FAKE, YES/NO... (:mod:`..verdict`,
stored by :mod:`..parse_run`)."""

from __future__ import annotations

from pathlib import Path

from forgebench.suites import facets
from forgebench.suites.mandela.parse_run import parse_answers


class MandelaVerdict(facets.Verdict):
    def parse(self, run_dir: Path) -> str | None:
        """A verdict stored for every answer lacking one; a count line (None: none new)."""
        return parse_answers(run_dir)


VERDICT = MandelaVerdict()
