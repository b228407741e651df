"""The suite registry: every benchmark the harness can run (``suites/base.py`` is the seam).

The built-in suites are loaded by :func:`load` (the CLI and ``forgebench.api`` call it; the engine
never does). A suite from elsewhere (a notebook, a plug-in package, ``tests/suites/toy``) calls
:func:`register` with an instance. Registering a suite also registers the model providers it
brings (``Suite.providers``) with ``models.registry``.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from forgebench.suites.base import Loaded, Section, Selection, Suite, SuiteError

__all__ = [
    "Loaded",
    "Section",
    "Selection",
    "Suite",
    "SuiteError",
    "all_suites",
    "detect",
    "get",
    "load",
    "register",
]

BUILTIN: tuple[str, ...] = (
    "forgebench.suites.mandela.suite",
    "forgebench.suites.pixar.suite",
    "forgebench.suites.forensics.suite",
)
"""Modules whose import registers a built-in suite (order: detection order)."""

_SUITES: dict[str, Suite] = {}
_loaded = False


def register(suite: Suite) -> Suite:
    """Add (or replace) a suite and its providers; returns it."""
    from forgebench.models.registry import register_provider

    if not suite.name:
        raise ValueError(f"{type(suite).__name__}: a suite needs a name")
    _SUITES[suite.name] = suite
    for name, module in suite.providers().items():
        register_provider(name, module)
    return suite


def unregister(name: str) -> None:
    """Remove a suite (tests)."""
    _SUITES.pop(name, None)


def load() -> None:
    """Import the built-in suites (idempotent)."""
    global _loaded
    if _loaded:
        return
    for module in BUILTIN:
        importlib.import_module(module)
    _loaded = True


def all_suites() -> list[Suite]:
    """Every registered suite: the built-ins in :data:`BUILTIN` order (whichever module was
    imported first), then the others in registration order."""
    load()
    builtin = {module: k for k, module in enumerate(BUILTIN)}
    return sorted(_SUITES.values(), key=lambda s: builtin.get(type(s).__module__, len(BUILTIN)))


def get(name: str) -> Suite:
    """The suite named ``name``; :class:`SuiteError` naming the known ones."""
    load()
    try:
        return _SUITES[name]
    except KeyError:
        raise SuiteError(f"unknown benchmark {name!r}; known: {', '.join(_SUITES)}") from None


def detect(path: Path, benchmark: str | None = None) -> Suite:
    """The suite of a dataset folder (or the one named by ``benchmark``).

    A folder may name its suite in ``benchmark.txt``; otherwise each suite's ``detect`` is asked,
    later registrations first (so a user's suite can claim a folder a built-in would also take).
    """
    if benchmark:
        return get(benchmark)
    load()
    if not path.exists():
        raise SuiteError(f"{path}: no such dataset")
    marker = path / "benchmark.txt"
    if marker.is_file():
        return get(marker.read_text(encoding="utf-8").strip())
    for suite in reversed(list(_SUITES.values())):
        if suite.detect(path):
            return suite
    raise SuiteError(
        f"{path}: not a dataset of any known benchmark ({', '.join(_SUITES)}); "
        "a Mandela dataset has items.jsonl"
    )
