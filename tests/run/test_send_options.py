"""One value carries a run's send options (:class:`SendOptions`, as Inspect's
``TaskRunOptions``): from :func:`forgebench.api.run` through ``run_generation`` to ``send``, the
progress bars count what was sent, and the signal handlers a run installs are removed after it."""

from __future__ import annotations

import dataclasses
import io
import signal
from pathlib import Path

import pytest
from rich.console import Console

from forgebench import api
from forgebench.run.generate import GenerationSettings
from forgebench.run.send import SendOptions
from forgebench.run.send.progress import RunProgress
from forgebench.run.send.retry import RetryPolicy
from forgebench.run.source import Selection
from support.mandela_data import write_mandela_dataset


def test_the_options_are_one_frozen_value() -> None:
    options = SendOptions()
    assert (options.progress, options.retry, options.handle_signals, options.on_signal) == (
        None, None, False, None,
    )  # fmt: skip
    assert options.grace_s == 5.0
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.handle_signals = True  # type: ignore[misc]
    assert api.SendOptions is SendOptions


def test_api_run_sends_with_the_options_it_is_given(tmp_path: Path) -> None:
    data = write_mandela_dataset(tmp_path / "ds", seeds=2)
    progress = RunProgress(Console(file=io.StringIO()), enabled=False)
    signalled: list[str] = []
    before = signal.getsignal(signal.SIGINT)
    options = SendOptions(
        progress=progress, retry=RetryPolicy(base_s=0.0, cap_s=0.0), handle_signals=True,
        on_signal=lambda: signalled.append("stop"),
    )  # fmt: skip
    settings = GenerationSettings(
        selection=Selection(probes=("L0",), conditions=("full",)), cache_dir=tmp_path / "cache"
    )
    result = api.run(data, tmp_path / "run", ["det=builtin/artefact"], settings, send=options)
    assert [(m.name, m.tasks, m.sent, m.remaining) for m in result.models] == [("det", 4, 4, 0)]
    assert [(b.name, b.total, b.done) for b in progress.models] == [("det", 4, 4)]
    assert not result.interrupted and signalled == []
    assert signal.getsignal(signal.SIGINT) is before  # the run's handlers are gone again
