"""The root group's commands are made once and reused by every invocation in a thread, yet a
suite registered or removed between two invocations shows (or stops showing) at once."""

from __future__ import annotations

import dataclasses
import importlib
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from forgebench import suites
from forgebench.cli import app


def _root() -> Any:
    return typer.main.get_command(app)


@pytest.fixture
def toy() -> Iterator[Any]:
    module = importlib.import_module("suites.toy.suite")
    suite = suites.register(module.ToySuite())
    yield suite
    suites.unregister(suite.name)


def test_invocations_share_the_commands_and_never_add_an_option_twice() -> None:
    runner = CliRunner()
    first = _root().commands
    for _ in range(3):
        assert runner.invoke(app, ["version"]).exit_code == 0
    again = _root().commands
    assert list(again) == list(first)
    assert all(again[name] is first[name] for name in first)
    for cmd in again.values():  # suites' options (PIXAR's --tau, ...) added once, not per run
        flags = [o for p in cmd.params for o in getattr(p, "opts", ())]
        assert len(flags) == len(set(flags)), (cmd.name, flags)
    for verb in ("run", "judge", "metrics"):  # the verbs that suites give options to
        res = runner.invoke(app, [verb, "--help"])
        assert res.exit_code == 0, res.output
        assert verb == "judge" or res.output.count("--tau") == 1, res.output
        assert "--install-completion" not in res.output  # the app has no shell completion


def test_a_suite_registered_after_a_run_is_mounted_then_removed(toy: Any, tmp_path: Path) -> None:
    runner = CliRunner()
    assert "toy" in _root().commands
    assert "--toy-hint" in runner.invoke(app, ["run", "--help"]).output
    (tmp_path / "toy.jsonl").write_text('{"id": "1"}\n{"id": "2"}\n')
    res = runner.invoke(app, ["toy", "count", str(tmp_path)])
    assert res.exit_code == 0 and "2 toy questions" in res.output, res.output
    suites.unregister(toy.name)
    assert "toy" not in _root().commands
    assert "--toy-hint" not in runner.invoke(app, ["run", "--help"]).output
    res = runner.invoke(app, ["toy", "count", str(tmp_path)])
    assert res.exit_code == 2 and "No such command" in res.output, res.output


def test_a_suite_whose_options_change_gets_the_new_flags(toy: Any) -> None:
    runner = CliRunner()
    assert "--toy-hint" in runner.invoke(app, ["run", "--help"]).output
    # on the instance: the class keeps its options for the other tests
    toy.protocol = dataclasses.replace(toy.protocol, options=())
    out = runner.invoke(app, ["run", "--help"]).output
    assert "--toy-hint" not in out and "--tau" in out


def test_another_thread_gets_commands_of_its_own() -> None:
    mine = _root().commands["judge"]
    seen: dict[str, Any] = {}

    def other() -> None:
        seen["judge"] = _root().commands["judge"]
        seen["help"] = CliRunner().invoke(app, ["judge", "--help"])

    worker = threading.Thread(target=other)
    worker.start()
    worker.join(60)
    assert seen["judge"] is not mine  # a command's callback keeps per-call state
    assert seen["help"].exit_code == 0 and "--judge" in seen["help"].output
