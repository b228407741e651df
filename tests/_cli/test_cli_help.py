"""Every command answers --help, and help text keeps what users type literally."""

from __future__ import annotations

from typing import Any

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
