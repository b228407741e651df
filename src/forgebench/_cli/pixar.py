"""Where PIXAR's sub-commands lived before they moved into the suite
(:mod:`forgebench.suites.pixar.cli`, mounted through ``Suite.cli()``); kept so that
``import forgebench._cli.pixar`` still finds ``pixar_app``."""

from __future__ import annotations

from forgebench.suites.pixar.cli import pixar_app

__all__ = ["pixar_app"]
