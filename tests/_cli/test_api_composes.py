"""The API composes, the CLI prints: ``run --judge`` is ``api.run(judge=...)``, ``pixar run`` is
``run`` + ``metrics`` + ``tables``, and ``redact`` / ``view`` have their API functions."""

from __future__ import annotations

import threading
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from forgebench import api
from forgebench.cli import app
from forgebench.errors import UserError
from forgebench.run.generate import GenerationSettings
from support.mandela_data import write_mandela_dataset
from support.pixar_loc import box_pairs, exact_or_prose, serve_loc

runner = CliRunner()


@pytest.fixture(scope="module")
def mandela(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_mandela_dataset(tmp_path_factory.mktemp("ds") / "ds", seeds=1)


def test_api_run_with_a_judge_writes_the_metrics_of_run_judge(
    mandela: Path, tmp_path: Path
) -> None:
    flags = ["--probes", "L0", "--conditions", "full", "--cache-dir", str(tmp_path / "cache")]
    cli = tmp_path / "cli"
    res = runner.invoke(
        app,
        ["run", str(mandela), "--model", "builtin/artefact", "--judge", "builtin/rules",
         "--out", str(cli), *flags],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    assert f"wrote {cli / 'metrics.csv'}" in res.output
    made = tmp_path / "api"
    selection = api.selection_for(api.suite_of(mandela), probes="L0", conditions="full")
    settings = GenerationSettings(selection=selection, cache_dir=tmp_path / "cache")
    result = api.run(mandela, made, ["builtin/artefact"], settings, judge="builtin/rules")
    assert result.went_through and result.metrics == made / "metrics.csv"
    assert [o.judge for o in result.judged] == ["builtin/rules"] and not result.judge_failed
    assert (made / "metrics.csv").read_bytes() == (cli / "metrics.csv").read_bytes()
    # without a judge it only asks, as before
    plain = api.run(mandela, tmp_path / "plain", ["builtin/artefact"], settings)
    assert plain.metrics is None and not (tmp_path / "plain" / "metrics.csv").exists()


def test_pixar_run_is_run_metrics_and_tables(fake_openai: Any, tmp_path: Path) -> None:
    pairs = tmp_path / "pairs"
    server = serve_loc(fake_openai, box_pairs(pairs), exact_or_prose)
    models = ["--model", f"exact=openai/exact@{server.url}",
              "--model", f"mixed=openai/mixed@{server.url}"]  # fmt: skip
    alias = tmp_path / "alias"
    res = runner.invoke(app, ["pixar", "run", str(pairs), *models, "--out", str(alias)])
    assert res.exit_code == 0, res.output
    assert "exact:  gIoU 100.0" in res.output and "misses 1/3" in res.output
    verbs = tmp_path / "verbs"
    for args in (
        ["run", str(pairs), *models, "--out", str(verbs)],
        ["metrics", str(verbs)],
        ["tables", str(verbs)],
    ):
        done = runner.invoke(app, args)
        assert done.exit_code == 0, done.output
    assert (alias / "metrics.csv").read_bytes() == (verbs / "metrics.csv").read_bytes()
    written = sorted(p.name for p in (alias / "report").iterdir())
    assert written == sorted(p.name for p in (verbs / "report").iterdir()) and written
    for name in written:
        assert (alias / "report" / name).read_bytes() == (verbs / "report" / name).read_bytes()
    assert server.hits == 12  # each run asked its own three pairs of both models


def test_api_redact_and_view(
    mandela: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = tmp_path / "run"
    settings = GenerationSettings(
        selection=api.selection_for(api.suite_of(mandela), probes="L0", conditions="full"),
        cache_dir=tmp_path / "cache",
    )
    api.run(mandela, run, ["builtin/artefact"], settings)
    secret = "sk-test-0123456789abcdef"
    (run / "notes.txt").write_text(f"key {secret}\n")
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    done = api.redact(run)
    assert done.keys >= 1 and done.files >= 1
    assert secret not in (run / "notes.txt").read_text()
    with pytest.raises(UserError, match="not a run directory"):
        api.redact(tmp_path)
    notes: list[Any] = []
    viewer = api.view(run, 0, on_report=notes.append)
    assert notes and notes[0].index == run / "report" / "index.html"  # none there: built first
    serving = threading.Thread(target=viewer.serve)
    serving.start()
    try:
        with urllib.request.urlopen(viewer.url, timeout=10) as page:
            assert b"<html" in page.read(4096).lower()
    finally:
        viewer.server.shutdown()
        serving.join(10)
    assert api.view(run, 0).report is None  # a report there: served as it is
