"""Forensics's part of ``forgebench demo`` (:mod:`..demo_part`), which the demo pipeline reaches
through ``api.demo_parts``."""

from __future__ import annotations

from forgebench.suites.facets import DemoPart
from forgebench.suites.forensics.demo_part import PART

DEMO = DemoPart(PART)
