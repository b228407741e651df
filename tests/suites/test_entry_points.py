"""A benchmark installs like a plug-in: a distribution on the path whose entry point (group
``forgebench.suites``) names a suite makes it appear in every verb of the ``forgebench`` process,
with no change to forgebench; a package whose entry point does not import is one warning line
naming it, and the rest works."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from forgebench.util.registry import Registry, RegistryError
from support.walkthrough import doc_entry_points

from .test_seam import _toy_dataset

TOY = Path(__file__).parent / "toy"


def _dist(site: Path, name: str, entry_points: str) -> None:
    info = site / f"{name}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(entry_points)


def _site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    shutil.copytree(TOY, site / "toyplug", ignore=shutil.ignore_patterns("__pycache__"))
    points = doc_entry_points()  # the packaging docs/writing-a-suite.md shows
    _dist(site, "toyplug", "".join(
        f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in named.items())
        for group, named in points.items()
    ))  # fmt: skip
    _dist(site, "brokenplug", "[forgebench.suites]\nbroken = brokenplug_gone.suite:Broken\n")
    return site


def test_an_installed_package_adds_a_benchmark_to_every_verb(
    tmp_path: Path, fake_openai: Callable[..., Any]
) -> None:
    site = _site(tmp_path)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]),
           "HF_HUB_OFFLINE": "1"}  # fmt: skip
    server = fake_openai(reply_text="B. The right one shows a seam.")
    ds = _toy_dataset(tmp_path / "toy")
    run = tmp_path / "run"

    def fb(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "forgebench.cli", *args],
            capture_output=True, text=True, env=env, timeout=120,
        )  # fmt: skip

    done = fb("run", str(ds), "--model", f"m=openai/toy@{server.url}", "--out", str(run),
              "--cache-dir", str(tmp_path / "cache"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert server.hits == 4
    warnings = [line for line in done.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and "package brokenplug" in warnings[0], done.stderr
    assert "Traceback" not in done.stderr
    assert fb("metrics", str(run)).returncode == 0
    rows = (run / "metrics.csv").read_text().splitlines()
    assert "toy,m,MCQ,full,all,acc,50.0,4," in rows
    assert fb("report", str(run)).returncode == 0
    assert "Toy accuracy" in (run / "report" / "index.html").read_text()


def test_the_registry_checks_kind_and_freezes() -> None:
    reg: Registry[Any] = Registry("thing", base=Registry)
    reg.add("ok", "forgebench.util.registry:Registry")
    with pytest.raises(RegistryError, match="not a Registry"):
        reg.get("ok")  # the class itself is not an instance (instantiate is off)
    reg.add("self", reg)
    assert reg.get("self") is reg
    with pytest.raises(RegistryError, match="unknown thing 'nope'; known: ok, self"):
        reg.get("nope")
    reg.freeze()
    with pytest.raises(RegistryError, match="frozen"):
        reg.add("late", reg)
