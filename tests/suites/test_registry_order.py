"""The built-in suites keep their order whichever was imported first (the report's verdict facets
and detection follow it)."""

from __future__ import annotations

from forgebench import suites


def test_builtins_come_in_their_declared_order_whatever_registered_first() -> None:
    mandela = suites.get("mandela")
    suites.unregister("mandela")
    suites.register(mandela)  # now registered after pixar and forensics
    try:
        names = [s.name for s in suites.all_suites()]
        assert names[:3] == ["mandela", "pixar", "forensics"]
    finally:
        suites.register(mandela)
