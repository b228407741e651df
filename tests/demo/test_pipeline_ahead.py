"""The demo's steps computed ahead: PIXAR's scoring (its failure raised where the demo prints
PIXAR), the release of the tools and the report's imports start once the prewarm has read every
image; a demo failing meanwhile stops the prewarm, skips what has not started and leaves no step
running behind it."""

from __future__ import annotations

import importlib
import sys
import threading
from pathlib import Path

import pytest

from forgebench.demo import pipeline
from forgebench.demo.pipeline import REPORT_MODULES, Demo


class FakePrewarm:
    """Stands in for the prewarm: it finishes when told to, or when cancelled."""

    def __init__(self) -> None:
        self.finished = threading.Event()
        self.cancelled = False

    def join(self, timeout: float | None = None) -> bool:
        return self.finished.wait(timeout)

    def cancel(self) -> None:
        self.cancelled = True
        self.finished.set()


def test_the_report_modules_listed_exist() -> None:
    for name in REPORT_MODULES:
        assert importlib.util.find_spec(name) is not None, name


def test_pixar_failing_ahead_is_raised_where_its_result_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(self: Demo, dataset: Path) -> None:
        raise ValueError("label and edit differ in size")

    monkeypatch.setattr(Demo, "score_pixar", broken)
    with Demo(tmp_path).ahead(tmp_path / "dataset", None) as later:
        assert later.report_ready is None  # nothing to release without the verifier
    with pytest.raises(ValueError, match="differ in size"):
        later.pixar.result()


def test_tools_are_released_and_the_report_prepared_only_after_the_prewarm(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    released = threading.Event()
    monkeypatch.setattr(Demo, "score_pixar", lambda self, dataset: "scored")
    monkeypatch.setattr(Demo, "release_tools", lambda self: released.set())
    monkeypatch.setattr(pipeline, "REPORT_MODULES", ("colorsys",))  # small: the real ones are big
    monkeypatch.delitem(sys.modules, "colorsys", raising=False)
    warm = FakePrewarm()
    with Demo(tmp_path).ahead(tmp_path / "dataset", warm) as later:  # type: ignore[arg-type]
        assert not released.wait(0.3)  # the prewarm is still reading: the memory peaks there
        assert not later.pixar.done()
        warm.finished.set()
        assert later.pixar.result() == "scored"
        assert later.report_ready is not None
        later.report_ready.result()
        assert released.is_set() and "colorsys" in sys.modules
    assert not warm.cancelled


def test_a_demo_failing_meanwhile_stops_the_prewarm_and_leaves_nothing_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    released = threading.Event()
    monkeypatch.setattr(Demo, "score_pixar", lambda self, dataset: "scored")
    monkeypatch.setattr(Demo, "release_tools", lambda self: released.set())
    monkeypatch.setattr(pipeline, "REPORT_MODULES", ("forgebench.no_such_module",))
    warm = FakePrewarm()
    steps = Demo(tmp_path)
    with pytest.raises(RuntimeError, match="detector"):  # noqa: SIM117 - the block must raise
        with steps.ahead(tmp_path / "dataset", warm) as later:  # type: ignore[arg-type]
            raise RuntimeError("the detector failed")
    assert warm.cancelled
    assert later.report_ready is not None
    later.report_ready.result()  # ended without importing anything: the demo is ending
    assert not released.is_set()
    ahead = ("forgebench-pixar", "forgebench-report-ready")
    assert not [t for t in threading.enumerate() if t.name in ahead]
