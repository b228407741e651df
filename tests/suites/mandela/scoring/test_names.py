"""Alias matching: word boundaries, case and accent folding, derived surnames, comparisons."""

from __future__ import annotations

import pytest

from forgebench.suites.mandela.names import derived_surname, fold, matcher


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("President Truman waves the paper.", True),
        ("HARRY S. TRUMAN", True),
        ("harry s truman", True),
        ("Truman's grin", True),
        ("A Trumanesque grin", False),
        ("a truman show", False),  # the derived surname matches only capitalised
        ("Harry  S.\nTruman", True),
    ],
)
def test_truman(text: str, named: bool) -> None:
    assert matcher("Harry S. Truman").named(text) is named


def test_listed_alias_matches_in_any_case() -> None:
    assert matcher("Harry S. Truman", ["Truman"]).named("a truman show")


def test_accents_and_particles() -> None:
    assert matcher("Pelé").named("Pele scores") and matcher("Pele").named("PELÉ")
    assert derived_surname("Charles de Gaulle") == "de Gaulle"
    assert matcher("Charles de Gaulle").named("General de Gaulle")
    assert not matcher("Charles de Gaulle").named("Gaulle alone")
    assert derived_surname("Martin Luther King Jr.") == "King"
    assert derived_surname("Madonna") is None
    assert fold("Ünïcödé’s") == "unicode's"


def test_objects_get_no_derived_surname() -> None:
    assert not matcher("Eiffel Tower", person=False).named("a water Tower")
    assert matcher("Eiffel Tower", ["Tour Eiffel"], person=False).named("la tour eiffel")


@pytest.mark.parametrize(
    ("text", "asserted"),
    [
        ("The man at the left is George Orwell.", True),
        ("The man at the left looks like George Orwell.", True),  # identity, hedged
        ("The man at the left resembles George Orwell.", False),
        ("a figure reminiscent of Orwell", False),
        ("a lookalike of Orwell stands there", False),
        ("written in the style of Orwell; but Orwell himself is on the left", True),
    ],
)
def test_comparison_is_not_assertion(text: str, asserted: bool) -> None:
    assert matcher("George Orwell", ["Orwell"]).asserted(text) is asserted
