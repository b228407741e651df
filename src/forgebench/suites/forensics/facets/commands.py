"""Forensics' own sub-commands, ``forgebench forensics ...`` (:mod:`..cli`)."""

from __future__ import annotations

from forgebench.suites.facets import Commands
from forgebench.suites.forensics.cli import forensics_app

COMMANDS = Commands(forensics_app)
