"""The construction parts of every benchmark that has them, by benchmark name.

Filled by whoever holds the benchmarks (loading a suite adds its ``construction`` facet
lazily), so this package imports no suite; light (no numpy) so that loading a suite costs no
construction import until a construction verb asks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from forgebench.util.registry import Registry

if TYPE_CHECKING:
    from forgebench.construct.parts import Construction


def _is_construction(obj: Any) -> bool:
    from forgebench.construct.parts import Construction  # inside: circle (parts imports registry)

    return isinstance(obj, Construction)


CONSTRUCTIONS: Registry[Construction] = Registry("construction", check=_is_construction)
"""Benchmark name -> its :class:`~forgebench.construct.parts.Construction`."""
