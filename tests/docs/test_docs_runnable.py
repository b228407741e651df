"""The getting-started page and the tutorials, run as written: every shell block (``console``) and
preparation snippet (``python``) of those pages, except the ones listed below that need the network,
a release file or a model server, runs in a fresh folder on the demo's data (the session's
``demo_dataset``, its Forensics questions and PIXAR maps made from it once) and must exit 0 and
print what the page shows (:func:`docs.runnable.matches`, after timings and paths are normalised).
Commands run in-process through ``CliRunner`` (no process start per command)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from docs.runnable import RUNNABLE_PAGES, Block, blocks, matches
from forgebench.cli import app

NOT_RUNNABLE = {
    # set-up commands: they build the data this test is given, and run this very test suite
    ("getting-started.md", "make demo"),
    # a release file, the Hugging Face Hub or a model server (none is reachable in the tests)
    ("tutorials/mandela.md", "forgebench import items.csv --out mandela --normalize"),
    (
        "tutorials/mandela.md",
        "forgebench run mandela --model qwen8b=openai/Qwen3-VL-8B@http://127.0.0.1:8000/v1 --out runs/mandela",
    ),
    ("tutorials/forensics.md", "forgebench import ForensicsBench.tsv --out fb"),
    (
        "tutorials/forensics.md",
        "forgebench run fb --model qwen8b=openai/Qwen3-VL-8B@http://127.0.0.1:8000/v1 --out runs/fb",
    ),
    (
        "tutorials/pixar.md",
        "forgebench pixar score --dataset PIXAR_ROOT --split validation --pred PREDICTIONS --convention pixar-release",
    ),
    (
        "tutorials/pixar.md",
        "forgebench run PAIRS --model qwen8b=openai/Qwen3-VL-8B@http://127.0.0.1:8000/v1 --out runs/pixar",
    ),
}
"""(page, first command of the block) of the blocks that are not run, and why."""


@pytest.fixture(scope="module")
def demo_data(
    demo_dataset: Path, demo_forensics: Path, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """``demo_out/`` as ``make demo`` leaves what the pages read: the dataset and the Forensics
    questions made from it (the session's, linked) and PIXAR label and score maps of three of
    its forgeries (the demo's detector), each made the way the demo makes them."""
    from forgebench import suites
    from forgebench.models.builtin.artefact import score_map
    from forgebench.suites.mandela.demo_part import PART as MANDELA
    from forgebench.suites.pixar.demo_part import PART as PIXAR

    suites.load()
    out = tmp_path_factory.mktemp("docs-demo") / "demo_out"
    out.mkdir()
    (out / "dataset").symlink_to(demo_dataset, target_is_directory=True)
    (out / "forensics").symlink_to(demo_forensics, target_is_directory=True)
    pairs = MANDELA.forgery_pairs(demo_dataset)[:3]
    PIXAR.score(pairs, out / "run", score_map, model="builtin/artefact")
    return out


@pytest.fixture
def in_folder(tmp_path: Path, demo_data: Path) -> Iterator[Path]:
    (tmp_path / "demo_out").symlink_to(demo_data, target_is_directory=True)
    old = Path.cwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(old)


def _run_block(block: Block, folder: Path) -> None:
    if block.lang == "python":
        exec(compile(block.text, f"{block.page}:{block.line}", "exec"), {"__name__": "docs"})
        return
    assert block.commands, f"{block.page}:{block.line}: a shell block without a `$ ` command"
    runner = CliRunner()
    for cmd in block.commands:
        where = f"{block.page}:{cmd.line}: $ {' '.join(cmd.argv)}"
        assert cmd.argv[0] == "forgebench", f"{where}: only forgebench commands run here"
        result = runner.invoke(app, cmd.argv[1:], env={"COLUMNS": "100"})
        assert result.exit_code == 0, f"{where}: exit {result.exit_code}\n{result.output}"
        missing = matches(cmd.shown, result.output, folder)
        assert missing is None, f"{where}: shown line not printed: {missing!r}\n{result.output}"


@pytest.mark.parametrize("page", RUNNABLE_PAGES)
def test_page_runs_as_written(page: str, in_folder: Path) -> None:
    ran = 0
    for block in blocks(page):
        if (page, block.first) in NOT_RUNNABLE:
            continue
        _run_block(block, in_folder)
        ran += 1
    assert ran, f"{page}: no runnable block"


def test_not_runnable_list_names_blocks_that_exist() -> None:
    """The exceptions above still name blocks of their pages (a renamed block is run again)."""
    firsts = {(page, b.first) for page in RUNNABLE_PAGES for b in blocks(page)}
    assert firsts >= NOT_RUNNABLE, NOT_RUNNABLE - firsts


def test_matching_catches_a_changed_output() -> None:
    printed = "wrote 12 tasks in 0.41 s to /tmp/x/run\nreport: /tmp/x/run/report/index.html\n"
    assert matches(["wrote 12 tasks in 3.2 s to run", "report: run/report/index.html"], printed,
                   Path("/tmp/x")) is None  # fmt: skip
    assert matches(["wrote 13 tasks"], printed) == "wrote 13 tasks"
    assert matches(["report:", "wrote 12 tasks"], printed) == "wrote 12 tasks"  # order kept
