"""PIXAR's own sub-commands, ``forgebench pixar label | score | run`` (:mod:`..cli`)."""

from __future__ import annotations

from forgebench.suites.facets import Commands
from forgebench.suites.pixar.cli import pixar_app

COMMANDS = Commands(pixar_app)
