"""The facets behind the core: ``offers`` reads a suite's declaration and imports no facet, a
facet is imported once and checked against its kind, and an absent one is None."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import ClassVar

import pytest

from forgebench import suites
from forgebench.suites.base import STAGES, Judge, Report, Suite, Viewer, offers
from forgebench.suites.facets import KINDS
from forgebench.util.registry import RegistryError

_PROBE = """
import json, sys
from forgebench import suites
from forgebench.suites.base import STAGES, offers
got = {s.name: sorted(st for st in STAGES if offers(s, st)) for s in suites.all_suites()}
loaded = sorted(m for m in sys.modules if ".facets." in m)
print(json.dumps([got, loaded]))
"""


def test_offers_reads_the_declaration_and_imports_no_facet_but_the_providers() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    got, loaded = json.loads(done.stdout)
    # loading a suite registers its providers (a light module of names); nothing else is imported
    assert loaded == [
        "forgebench.suites.forensics.facets.providers",
        "forgebench.suites.mandela.facets.providers",
    ]
    assert got["pixar"] == [
        "export",
        "metrics",
        "prompts",
        "report",
        "summary",
        "tables",
        "validation",
    ]
    assert "calibration" in got["mandela"] and "calibration" not in got["forensics"]
    for suite in suites.all_suites():
        for stage in got[suite.name]:
            kind = STAGES[stage]
            assert kind is None or isinstance(suite.facet(KINDS[kind]), KINDS[kind])


class _Wrong(Suite):
    name = "wrong"
    facets: ClassVar = {
        "viewer": "forgebench.suites.mandela.facets.judge:JUDGE",
        "report": Report(),
    }


def test_a_facet_of_another_kind_is_refused_and_an_absent_one_is_none() -> None:
    wrong = _Wrong()
    with pytest.raises(RegistryError, match="its viewer facet is a MandelaJudge, not a Viewer"):
        wrong.facet(Viewer)
    assert isinstance(wrong.facet(Report), Report)  # the object itself
    assert wrong.facet(Judge) is None and not offers(wrong, "judge") and offers(wrong, "report")
    mandela = suites.get("mandela")
    assert mandela.facet(Judge) is mandela.facet(Judge)  # imported once
