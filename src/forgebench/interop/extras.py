"""Each export format's library is an optional extra; asking for a format without it is one line
that names the install command (never a traceback)."""

from __future__ import annotations

import importlib
from types import ModuleType

from forgebench.errors import UserError


class MissingExtra(UserError):
    """A format whose library is not installed."""


def need(module: str, extra: str, what: str) -> ModuleType:
    """Import ``module`` for ``what`` (``--format inspect``), or raise :class:`MissingExtra`
    naming ``pip install 'forgebench[EXTRA]'``."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtra(
            f"{what} needs the {extra!r} extra: pip install 'forgebench[{extra}]'"
        ) from None
