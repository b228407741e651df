"""Mandela's construction facet: proposers, verification rule, gates and assembly of
``forgebench propose`` / ``build`` (:mod:`..construct.parts`)."""

from __future__ import annotations

from forgebench.suites.facets import ConstructionParts
from forgebench.suites.mandela.construct.parts import CONSTRUCTION as PARTS

CONSTRUCTION = ConstructionParts(PARTS)
