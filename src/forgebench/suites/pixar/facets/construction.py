"""PIXAR's construction facet: the parts of ``forgebench propose`` / ``build`` for image pairs
(:mod:`..construct.parts`)."""

from __future__ import annotations

from forgebench.suites.facets import ConstructionParts
from forgebench.suites.pixar.construct.parts import CONSTRUCTION as PARTS

CONSTRUCTION = ConstructionParts(PARTS)
