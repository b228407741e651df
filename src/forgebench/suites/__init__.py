"""The suite registry: every benchmark the harness can run (``suites/base.py`` is the seam: a
benchmark is a small core plus facets, :mod:`.facets`).

The built-in suites and those of installed packages (entry-point group ``forgebench.suites``)
are lazy entries of one :class:`~forgebench.util.registry.Registry`, imported by :func:`load`
(the CLI and ``forgebench.api`` call it; the engine never does). A suite from elsewhere (a
notebook, ``tests/suites/toy``) calls :func:`register` with an instance. Loading or registering
a suite also registers what its ``providers`` facet brings with ``models.registry`` and its
``construction`` facet (lazily) with ``construct.registry``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from forgebench.construct.registry import CONSTRUCTIONS
from forgebench.models.registry import register_provider
from forgebench.suites.base import Loaded, Section, Selection, Suite, SuiteError, offers
from forgebench.suites.facets import ConstructionParts, Providers
from forgebench.util.registry import Registry

if TYPE_CHECKING:
    from forgebench.construct.parts import Construction

__all__ = [
    "Loaded",
    "Section",
    "Selection",
    "Suite",
    "SuiteError",
    "all_suites",
    "detect",
    "freeze",
    "get",
    "load",
    "offers",
    "register",
]

BUILTIN: tuple[str, ...] = (
    "forgebench.suites.mandela.suite:SUITE",
    "forgebench.suites.pixar.suite:SUITE",
    "forgebench.suites.forensics.suite:SUITE",
)
"""The built-in suites, as lazy references (order: detection order)."""

ENTRY_POINTS = "forgebench.suites"
"""The entry-point group through which an installed package adds a benchmark."""

REGISTRY: Registry[Suite] = Registry("benchmark", base=Suite, instantiate=True, group=ENTRY_POINTS)
for _ref in BUILTIN:
    REGISTRY.add(_ref.split(".")[2], _ref, origin="forgebench")
_loaded = False


def register(suite: Suite) -> Suite:
    """Add (or replace) a suite and its providers; returns it."""
    if not suite.name:
        raise ValueError(f"{type(suite).__name__}: a suite needs a name")
    REGISTRY.add(suite.name, suite)
    _bring_facets(suite)
    return suite


def _bring_facets(suite: Suite) -> None:
    """The registries beside this one learn what the suite brings: its model providers, and
    its construction parts (lazily: imported when a construction verb first asks)."""
    providers = suite.facet(Providers)  # a light module: names only
    for name, module in (providers.backends if providers is not None else {}).items():
        register_provider(name, module)
    if ConstructionParts.kind in suite.facets:

        def parts() -> Construction:
            facet = suite.facet(ConstructionParts)
            assert facet is not None
            return facet.parts

        CONSTRUCTIONS.add_lazy(suite.name, parts)


def unregister(name: str) -> None:
    """Remove a suite (tests)."""
    REGISTRY.remove(name)
    CONSTRUCTIONS.remove(name)


def load() -> None:
    """Import the built-in suites and those of installed packages (idempotent); an installed
    package whose suite does not load is one warning line, and the others work."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for _name, suite in REGISTRY.items():
        if suite.name != _name:
            raise SuiteError(f"benchmark {_name!r} is registered under another name ({suite.name})")
        _bring_facets(suite)


def freeze() -> None:
    """No benchmark is added or removed from now on (the command line, once started)."""
    load()
    REGISTRY.freeze()


def all_suites() -> list[Suite]:
    """Every registered suite: the built-ins in :data:`BUILTIN` order, then the others in
    registration order (installed packages first, then :func:`register` calls)."""
    load()
    order = {ref.split(":")[0]: k for k, ref in enumerate(BUILTIN)}
    got = [suite for _name, suite in REGISTRY.items()]
    return sorted(got, key=lambda s: order.get(type(s).__module__, len(order)))


def get(name: str) -> Suite:
    """The suite named ``name``; :class:`SuiteError` naming the known ones."""
    load()
    if name not in REGISTRY:
        raise SuiteError(f"unknown benchmark {name!r}; known: {', '.join(REGISTRY.names())}")
    return REGISTRY.get(name)


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
    known = [suite for _name, suite in REGISTRY.items()]
    for suite in reversed(known):
        if suite.detect(path):
            return suite
    raise SuiteError(
        f"{path}: not a dataset of any known benchmark ({', '.join(s.name for s in known)}); "
        "a Mandela dataset has items.jsonl"
    )
