"""`forgebench demo`: the whole pipeline, offline, on the bundled benchmark."""

from __future__ import annotations

import csv
import re
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forgebench.cli import app
from forgebench.demo.clock import LINE


def _metrics(run: Path) -> list[dict[str, str]]:
    with (run / "metrics.csv").open(newline="") as fh:
        return list(csv.DictReader(fh))


@pytest.mark.timeout(1200)  # two demo runs; builtin/verifier reads ~60 images (OCR, SIFT)
def test_demo_runs_every_stage_and_resumes(
    tmp_path: Path, demo_dataset: Path, demo_forensics: Path
) -> None:
    from support.shared_builds import copy_built

    out = tmp_path / "demo"
    out.mkdir()
    # The dataset and the Forensics set the session built once (build_demo and
    # build_forensics_demo, as the demo calls them; tests/demo and tests/suites/forensics check
    # how they are built), copied with their records: the demo keeps them, as a second demo
    # keeps what the first built, and runs every other stage (its KB, the asks, the verifier's
    # tools, judge, PIXAR, scoring, report) from scratch.
    copy_built(demo_dataset, out)
    copy_built(demo_forensics, out)
    started = time.perf_counter()
    res = CliRunner().invoke(app, ["demo", "--out", str(out)])
    elapsed = time.perf_counter() - started
    assert res.exit_code == 0, res.output
    print(f"demo took {elapsed:.1f} s")  # speed is measured in benchmarks/, not asserted
    text = res.output
    for step in (
        "Validate it",
        "The task matrix",
        "Ask builtin/artefact",
        "Judge with builtin/rules",
        "PIXAR",
        "Report",
    ):
        assert step in text
    assert "Mandela results (strict scoring; judge: builtin/rules)" in text
    assert "KGR by knowledge family (L0)" in text
    run = out / "run"
    rows = _metrics(run)
    benchmarks = {r["benchmark"] for r in rows}
    assert benchmarks == {"mandela", "pixar", "forensics"}  # one run holds all three
    det = next(
        r
        for r in rows
        if r["benchmark"] == "mandela"
        and r["model"] == "builtin/artefact"
        and r["probe"] == "L0"
        and r["condition"] == "full"
        and r["subset"] == "all"
        and r["metric"] == "det"
    )
    assert det["n"] == "33" and 0 < float(det["value"]) < 100  # a real but weak detector
    assert any(r["benchmark"] == "pixar" and r["metric"] == "giou" for r in rows)
    _check_verifier_beside_artefact(rows, text)
    assert (run / "report" / "index.html").is_file()
    assert (run / "report" / "tables.md").is_file()
    assert str(run / "report" / "index.html") in text
    page = (run / "report" / "index.html").read_text()
    for title in ("PIXAR (seed 003)", "Forensics-Bench (seed 002)"):
        assert page.count(f"<h2>{title}</h2>") == 1  # one page, a section per benchmark
    assert (run / "report" / "pixar_table2.md").is_file()
    assert (run / "report" / "forensics_tables.md").is_file()
    from support.report_js import load_js

    # every Forensics item in the one viewer with its picture; the detector's PIXAR pairs (its
    # score maps, kept in the store) with their truth and predicted masks
    report = run / "report"
    listed = load_js(report / "data" / "index.js", "index")["rows"]
    forensics = [r for r in listed if r[4] == "forensics"]
    assert len(forensics) >= 100 and all(r[5] for r in forensics)
    assert "forensics_items.html" not in page and "pixar_gallery.html" not in page
    pixar = {r[0] for r in listed if r[4] == "pixar"}
    n_pages = load_js(report / "data" / "index.js", "index")["meta"]["n_pages"]
    made = [
        [label for label, _src in a.get("o", [])]
        for k in range(n_pages)
        for it in load_js(report / "data" / f"page-{k:04d}.js", "page")["items"]
        if it["id"] in pixar
        for a in it["answers"]
    ]
    assert len(made) == len(pixar) > 0
    assert all("truth mask" in m and "predicted mask (score >= 0.5)" in m for m in made)
    assert not (out / "forensics_run").exists()

    # the same command again resumes: nothing is sent twice, the numbers stay the same, and
    # the dataset, its KB and the Forensics set, unchanged since they were built, are kept
    built = {name: (out / name).stat().st_ino for name in ("dataset", "kb", "forensics")}
    again = CliRunner().invoke(app, ["demo", "--out", str(out)])
    assert again.exit_code == 0, again.output
    assert "308 tasks, 0 sent, 0 errors" in again.output
    sent = re.findall(r"^(\S+): \d+ tasks, (\d+) sent", again.output, flags=re.M)
    assert len(sent) >= 2 and all(n == "0" for _, n in sent)  # Mandela and Forensics alike
    assert _metrics(run) == rows
    assert {name: (out / name).stat().st_ino for name in built} == built


def _l0(rows: list[dict[str, str]], model: str, subset: str, metric: str) -> float:
    return next(
        float(r["value"])
        for r in rows
        if r["benchmark"] == "mandela"
        and r["model"] == model
        and r["probe"] == "L0"
        and r["condition"] == "full"
        and r["subset"] == subset
        and r["metric"] == metric
    )


def _check_verifier_beside_artefact(rows: list[dict[str, str]], text: str) -> None:
    """With the faces and ocr extras, the knowledge verifier runs beside the pixel detector and
    grounds the people and text families that the detector cannot; without them the demo says so."""
    from forgebench.demo.pipeline import verifier_missing

    if verifier_missing() is not None:
        assert "builtin/verifier skipped" in text
        return
    assert "Ask builtin/artefact and builtin/verifier" in text
    # its tools read every image ahead of its questions, and the steps say what they cost
    assert re.search(r"\[tools\] OCR thread [\d.]+ CPU-s, .*; 46 images read ahead, 0 failed", text)
    steps = [m["step"] for m in map(LINE.match, text.splitlines()) if m]
    assert steps[:3] == ["build", "validate", "matrix"] and steps[-1] == "report"
    for family in ("K1", "K4"):
        assert _l0(rows, "builtin/verifier", family, "kgr") >= 75.0
        assert _l0(rows, "builtin/verifier", family, "kgr") > _l0(
            rows, "builtin/artefact", family, "kgr"
        )
    assert _l0(rows, "builtin/verifier", "K0", "kgr") == 0.0
    assert _l0(rows, "builtin/verifier", "all", "auth") == 100.0


def test_demo_names_the_missing_extras(monkeypatch: pytest.MonkeyPatch) -> None:
    from forgebench.demo.pipeline import verifier_missing
    from forgebench.suites.mandela.verifier import faces, ocr

    monkeypatch.setattr(faces, "available", lambda: False)
    assert verifier_missing() == "the faces extra is not installed"
    monkeypatch.setattr(ocr, "available", lambda: False)
    assert verifier_missing() == "the faces,ocr extras are not installed"


def test_demo_refuses_an_out_folder_holding_something_else(tmp_path: Path) -> None:
    (tmp_path / "dataset").mkdir()
    (tmp_path / "dataset" / "notes.txt").write_text("mine")
    res = CliRunner().invoke(app, ["demo", "--out", str(tmp_path)])
    assert res.exit_code == 2
    assert "not a dataset folder" in res.output
    assert (tmp_path / "dataset" / "notes.txt").read_text() == "mine"


_SCRIPT = """
import sys
import forgebench.util.memory as memory
memory.bound_heap = lambda: print("allocator bounded") or True
sys.argv = ["forgebench", "demo", "--out", sys.argv[1]]
from forgebench.cli import main
main()
"""


def test_the_demo_bounds_the_allocator_of_its_own_process_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ``forgebench`` script fixes glibc's mmap threshold for the demo (its peak memory); a
    Python session calling the command keeps its allocator as it was (the fix cannot be undone)."""
    import subprocess
    import sys

    from forgebench.util import memory

    (tmp_path / "dataset").mkdir()
    (tmp_path / "dataset" / "notes.txt").write_text("mine")  # the demo stops at its build step
    script = subprocess.run(
        [sys.executable, "-c", _SCRIPT, str(tmp_path)], capture_output=True, text=True
    )
    assert script.returncode == 2 and "not a dataset folder" in script.stderr
    assert script.stdout.count("allocator bounded") == 1
    calls: list[int] = []
    monkeypatch.setattr(memory, "bound_heap", lambda: calls.append(1) or True)
    res = CliRunner().invoke(app, ["demo", "--out", str(tmp_path)])
    assert res.exit_code == 2 and "not a dataset folder" in res.output
    assert calls == [] and not memory.process_claimed()


def test_a_detector_step_failing_in_the_background_ends_the_demo_with_its_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, demo_dataset: Path
) -> None:
    from forgebench.demo import pipeline
    from forgebench.demo.kb import build_demo_kb
    from forgebench.errors import UserError
    from support.shared_builds import copy_of

    out = tmp_path / "demo"
    out.mkdir()
    seen: list[threading.Thread] = []

    def build(self: pipeline.Demo) -> tuple[Path, Path]:
        return copy_of(demo_dataset, out), build_demo_kb(out)

    def ask(self: pipeline.Demo, *args: object, **kwargs: object) -> None:
        seen.append(threading.current_thread())
        raise UserError("the run folder's disk is full")

    monkeypatch.setattr(pipeline.Demo, "build", build)
    monkeypatch.setattr(pipeline.Demo, "ask_mandela", ask)
    res = CliRunner().invoke(app, ["demo", "--out", str(out)])
    assert res.exit_code == 2, res.output
    assert res.output.count("disk is full") == 1 and "Traceback" not in res.output
    assert seen and seen[0] is not threading.main_thread()  # it ran giving way to the tools
    assert not (out / "run" / "metrics.csv").exists()
    assert "Judge with" not in res.output
    # the verifier's tools and the steps computed ahead stopped with it, leaving no file half
    # written (PIXAR's label and score maps had started)
    left = ("forgebench-prewarm-vision", "forgebench-prewarm-text", "forgebench-pixar")
    assert not [t for t in threading.enumerate() if t.name in left]
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]
