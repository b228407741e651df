"""Every command answers --help, and help text keeps what users type literally."""

from __future__ import annotations

from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from forgebench.cli import app


def _commands(group: Any, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out = []
    for name, cmd in group.commands.items():
        path = (*prefix, name)
        out.append(path)
        if hasattr(cmd, "commands"):  # a group: walk its subcommands
            out.extend(_commands(cmd, path))
    return out


def test_every_command_has_help() -> None:
    root = typer.main.get_command(app)
    paths = _commands(root)
    names = {" ".join(p) for p in paths}
    for expected in (
        "validate",
        "import",
        "prompts",
        "tasks",
        "demo",
        "run",
        "status",
        "judge",
        "metrics",
        "calibrate sample",
        "calibrate score",
        "export",
        "report",
        "view",
        "tables",
        "figures",
        "export-batch",
        "import-batch",
        "cache clean",
        "pixar label",
        "pixar score",
        "pixar run",
        "forensics export",
    ):
        assert expected in names, expected
    runner = CliRunner()
    for path in paths:
        res = runner.invoke(app, [*path, "--help"])
        assert res.exit_code == 0, (path, res.output)
        assert "Usage:" in res.output


def test_help_shows_model_spec_brackets_literally() -> None:
    res = CliRunner().invoke(app, ["run", "--help"])
    assert "[ALIAS=]PROVIDER/MODEL[@BASE_URL]" in res.output
    assert "[[models]]" in res.output


def test_the_root_help_lists_what_typer_would(monkeypatch: pytest.MonkeyPatch) -> None:
    """`forgebench --help` reads each command's line from how it was registered, making none
    of them; the text is the one Typer writes from every command made, a hidden command left
    out, a deprecated one marked, an explicit short help and the suites' groups included."""
    from typer.core import TyperGroup

    from forgebench._cli.app import SuiteGroup
    from forgebench._cli.mount import verbs

    @verbs.command("zz-hidden", hidden=True)
    def _hidden() -> None:
        """Never listed."""

    @verbs.command("zz-old", deprecated=True, short_help="An old verb.")
    def _old() -> None:
        """The long help, which the listing does not show."""

    try:
        fast = CliRunner().invoke(app, ["--help"])
        monkeypatch.setattr(SuiteGroup, "format_commands", TyperGroup.format_commands)
        slow = CliRunner().invoke(app, ["--help"])
    finally:
        del verbs.registered_commands[-2:]
    assert fast.exit_code == 0 and fast.output == slow.output
    lines = fast.output.splitlines()
    assert any(line.split() == ["zz-old", "An", "old", "verb.", "(DEPRECATED)"] for line in lines)
    assert "zz-hidden" not in fast.output
    listed = {line.split()[0] for line in lines if line.startswith("  ") and line.split()}
    assert {"run", "judge", "cache", "pixar", "forensics"} <= listed
