"""``forgebench --version`` beside ``forgebench version``, and ``forgebench benchmarks``: every
suite the registry knows, plug-ins included, with its probes, conditions, parts and stages."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from forgebench import __version__, suites
from forgebench.cli import app


def test_version_flag_and_command_agree() -> None:
    runner = CliRunner()
    flag = runner.invoke(app, ["--version"])
    verb = runner.invoke(app, ["version"])
    assert flag.exit_code == 0 and verb.exit_code == 0
    assert flag.stdout.strip() == verb.stdout.strip() == f"forgebench {__version__}"


@pytest.fixture
def toy_registered() -> Iterator[str]:
    """The test toy suite (tests/suites/toy), registered as a plug-in would be, then removed."""
    from suites.test_seam import _toy

    suite = suites.register(_toy().ToySuite())
    yield suite.name
    suites.unregister(suite.name)


def test_benchmarks_lists_every_suite_with_its_protocol(toy_registered: str) -> None:
    result = CliRunner().invoke(app, ["benchmarks"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    for suite in suites.all_suites():
        assert f"{suite.name}: {suite.title}" in out
    blocks = {b.split(":", 1)[0]: b for b in out.split("\n") if b and not b.startswith(" ")}
    assert {"mandela", "forensics", "pixar", toy_registered} <= set(blocks)
    # each suite's block lists its own probes, parts and options
    mandela = out.split("mandela:", 1)[1].split("\n" + "pixar:", 1)[0]
    assert "L0, L1" in mandela and "table12" in mandela and "judge" in mandela
    pixar = out.split("pixar:", 1)[1]
    assert "--convention" in pixar.split("forensics:", 1)[0]
    assert "  data " in out
