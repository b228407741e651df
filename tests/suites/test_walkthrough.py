"""``docs/writing-a-suite.md`` is the toy suite: every file of ``tests/suites/toy`` is shown there
verbatim (the tests that run the toy run what the reader reads), and the packaging it shows is
the one ``test_entry_points`` installs."""

from __future__ import annotations

from pathlib import Path

from forgebench.suites.base import Suite
from forgebench.suites.facets import KINDS
from support.walkthrough import doc_entry_points, doc_files, doc_path

TOY = Path(__file__).parent / "toy"


def test_the_walkthrough_shows_every_file_of_the_toy_suite_as_it_is() -> None:
    shown = doc_files()
    files = {p.name: p.read_text(encoding="utf-8") for p in sorted(TOY.glob("*.py"))}
    assert sorted(shown) == sorted(files)
    for name, text in files.items():
        assert shown[name] == text, (
            f"{doc_path()}: the block of {name} is not tests/suites/toy/{name}"
        )


def test_the_walkthrough_names_every_member_of_the_core_and_every_facet_kind() -> None:
    text = doc_path().read_text(encoding="utf-8")
    members = [n for n in vars(Suite) if not n.startswith("_")]
    assert len(members) <= 12
    assert all(f"| `{m}" in text for m in members), members
    assert all(f"| `{kind}` | `{base.__name__}` |" in text for kind, base in KINDS.items())


def test_the_packaging_names_the_toy_suite() -> None:
    points = doc_entry_points()
    assert points == {"forgebench.suites": {"toy": "toyplug.suite:ToySuite"}}
