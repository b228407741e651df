"""The suite seam: a third benchmark that lives only under tests/ runs through run, metrics and
report with no engine file changed; the engine imports no suite."""

from __future__ import annotations

import ast
import importlib
import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

import forgebench
from forgebench import suites
from forgebench.cli import app

ENGINE = ("models", "run", "report", "analysis", "results", "util", "interop")
"""Packages of the engine: none of them may import a suite."""


def _toy() -> Any:
    """The toy suite's core module, imported as the package ``suites.toy`` (``tests`` is on the
    path) so that its facets' references, relative to it, resolve."""
    return importlib.import_module("suites.toy.suite")


@pytest.fixture
def toy() -> Iterator[Any]:
    module = _toy()
    suite = suites.register(module.ToySuite())
    yield suite
    suites.unregister(suite.name)


def _toy_dataset(root: Path, n: int = 4) -> Path:
    (root / "img").mkdir(parents=True)
    rng = np.random.default_rng(1)
    with (root / "toy.jsonl").open("w") as fh:
        for i in range(n):
            Image.fromarray(rng.integers(0, 255, (16, 16, 3), dtype=np.uint8)).save(
                root / "img" / f"{i}.png"
            )
            row = {"id": str(i), "image": f"img/{i}.png", "question": f"Which is fake? ({i})",
                   "options": {"A": "left", "B": "right", "C": "both", "D": "neither"},
                   "answer": "B" if i % 2 == 0 else "C"}  # fmt: skip
            fh.write(json.dumps(row) + "\n")
    return root


def _toy_rows(ds: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (ds / "toy.jsonl").read_text().splitlines() if line]


def test_engine_packages_import_no_suite() -> None:
    src = Path(forgebench.__file__).parent
    offenders = []
    for pkg in ENGINE:
        for path in sorted((src / pkg).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                names: list[str] = []
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module:
                    names = [node.module]
                names += [
                    a.value
                    for a in ast.walk(node)
                    if isinstance(node, ast.Call | ast.Assign)
                    and isinstance(a, ast.Constant)
                    and isinstance(a.value, str)
                    and a.value.startswith("forgebench.suites")
                ]
                offenders += [
                    f"{path.relative_to(src)}: {n}"
                    for n in names
                    if n == "forgebench.suites" or n.startswith("forgebench.suites.")
                ]
    assert offenders == []


def _imports(path: Path) -> list[str]:
    """Every module ``path`` imports (``from X import y`` counts as ``X`` and ``X.y``)."""
    out: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            out += [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
    return out


SUITES = sorted(p.parent.name for p in (Path(suites.__file__).parent).glob("*/__init__.py"))
"""The suite packages under ``forgebench/suites/``."""


def _suite_of(name: str) -> str | None:
    """The suite package a module name lies in (None: not in one)."""
    parts = name.split(".")
    if parts[:2] == ["forgebench", "suites"] and len(parts) > 2 and parts[2] in SUITES:
        return parts[2]
    return None


def _offenders(pkg: str, bad: Callable[[str], bool]) -> list[str]:
    src = Path(forgebench.__file__).parent
    return [
        f"{path.relative_to(src)}: {name}"
        for path in sorted((src / pkg).rglob("*.py"))
        for name in _imports(path)
        if bad(name)
    ]


def test_construct_imports_nothing_of_the_suites() -> None:
    # construct/ receives the construction parts (construct.parts.CONSTRUCTIONS, filled when a
    # suite is loaded); it never reaches up into forgebench.suites, not even its registry
    assert _offenders("construct", lambda n: n.split(".")[:2] == ["forgebench", "suites"]) == []


def test_the_demo_pipeline_imports_no_suite() -> None:
    # the demo drives the stages through forgebench.api; what only a benchmark can give comes
    # from its registered demo part (Suite.demo, api.demo_parts): no import of forgebench.suites
    # (the registry included), and no module name of one handed to importlib either
    path = Path(forgebench.__file__).parent / "demo" / "pipeline.py"
    named = [
        node.value
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value.startswith("forgebench.suites")
    ]
    imported = [n for n in _imports(path) if n.split(".")[:2] == ["forgebench", "suites"]]
    assert imported + named == []
    assert "forgebench.api" in _imports(path)


def test_models_import_nothing_from_run() -> None:
    assert _offenders("models", lambda n: n.split(".")[:2] == ["forgebench", "run"]) == []


@pytest.mark.parametrize("suite", SUITES)
def test_a_suite_imports_no_other_suite(suite: str) -> None:
    assert _offenders(f"suites/{suite}", lambda n: _suite_of(n) not in (None, suite)) == []


SUITE_NEUTRAL = ("api.py", "_api", "_cli", "exports.py", "cli_support.py")
"""Above the engine yet naming no suite: they reach suites through the registry only."""
NAMES_A_FOLDER = {"_cli/demo.py"}
"""Prints the demo's output folders, one of which is named after its benchmark (no import)."""


def test_api_and_cli_name_no_suite() -> None:
    src = Path(forgebench.__file__).parent
    names = {s.name for s in suites.all_suites()}
    offenders = []
    for top in SUITE_NEUTRAL:
        paths = [src / top] if top.endswith(".py") else sorted((src / top).rglob("*.py"))
        for path in paths:
            rel = path.relative_to(src).as_posix()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                module = node.module if isinstance(node, ast.ImportFrom) else None
                public = ("forgebench.suites.base", "forgebench.suites.outputs")
                if module and module.startswith("forgebench.suites.") and module not in public:
                    offenders.append(f"{rel}: imports {module}")
                if (
                    isinstance(node, ast.Constant)
                    and node.value in names
                    and rel not in NAMES_A_FOLDER
                ):
                    offenders.append(f"{rel}:{node.lineno}: names {node.value!r}")
    assert offenders == []


def test_a_suite_under_tests_runs_through_run_metrics_and_report(
    toy: Any, tmp_path: Path, fake_openai: Callable[..., Any]
) -> None:
    server = fake_openai(reply_text="B. The right one shows a seam.")
    ds = _toy_dataset(tmp_path / "toy")
    run = tmp_path / "run"
    res = CliRunner().invoke(
        app,
        ["run", str(ds), "--model", f"m=openai/toy@{server.url}", "--out", str(run),
         "--cache-dir", str(tmp_path / "cache"), "--protocol", "gray"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    assert server.hits == 8  # 4 questions x (full, gray)
    with sqlite3.connect(run / "run.sqlite") as con:
        assert con.execute("SELECT DISTINCT benchmark FROM tasks").fetchall() == [("toy",)]
        assert con.execute("SELECT COUNT(*) FROM items WHERE benchmark='toy'").fetchone() == (4,)
    # the same command again sends nothing (resume is the engine's, not the suite's)
    again = CliRunner().invoke(
        app,
        ["run", str(ds), "--model", f"m=openai/toy@{server.url}", "--out", str(run),
         "--cache-dir", str(tmp_path / "cache"), "--protocol", "gray"],
    )  # fmt: skip
    assert again.exit_code == 0 and server.hits == 8
    res = CliRunner().invoke(app, ["metrics", str(run)])
    assert res.exit_code == 0, res.output
    rows = (run / "metrics.csv").read_text().splitlines()
    assert "toy,m,MCQ,full,all,acc,50.0,4," in rows and "toy,m,MCQ,gray,all,acc,50.0,4," in rows
    # the per-answer outcome agrees: every answer says B, the right letter of half the questions
    outcome = toy.outcome(run, None)
    assert len(outcome) == 8 and sum(r.right for r in outcome) == 4
    assert {r.item_id for r in outcome if r.right} == {
        q["id"] for q in _toy_rows(ds) if q["answer"] == "B"
    }
    res = CliRunner().invoke(app, ["report", str(run)])
    assert res.exit_code == 0, res.output
    page = (run / "report" / "index.html").read_text()
    assert "Toy multiple choice" in page and "Toy accuracy" in page
    # the viewer's verdict facet offers the toy's letters though the suite declares no codes
    index = (run / "report" / "data" / "index.js").read_text()
    assert '"verdicts":["B","ERROR","PENDING"]' in index


def test_a_suite_under_tests_brings_its_sub_commands(toy: Any, tmp_path: Path) -> None:
    ds = _toy_dataset(tmp_path / "toy", n=3)
    top = CliRunner().invoke(app, ["--help"])
    assert top.exit_code == 0
    listed = [line.split()[0] for line in top.output.splitlines() if line.startswith("  ")]
    assert {"toy", "pixar", "forensics"} <= set(listed)
    res = CliRunner().invoke(app, ["toy", "count", str(ds)])
    assert res.exit_code == 0, res.output
    assert res.output.strip() == "3 toy questions"
    assert "Print how many questions" in CliRunner().invoke(app, ["toy", "--help"]).output


def test_an_unregistered_suite_has_no_sub_commands(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["toy", "count", str(tmp_path)])
    assert res.exit_code == 2 and "No such command 'toy'" in res.output


def test_an_unknown_protocol_part_is_one_line_exit_2(toy: Any, tmp_path: Path) -> None:
    ds = _toy_dataset(tmp_path / "toy")
    res = CliRunner().invoke(
        app, ["run", str(ds), "--model", "builtin/artefact", "--protocol", "robustness"]
    )
    assert res.exit_code == 2
    assert "unknown protocol part 'robustness'; known: gray" in res.output


def test_a_folder_of_no_known_benchmark_is_one_line_exit_2(tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    res = CliRunner().invoke(app, ["run", str(tmp_path / "x"), "--model", "builtin/artefact"])
    assert res.exit_code == 2
    assert "not a dataset of any known benchmark" in res.output


def test_a_suite_option_is_a_flag_of_its_verbs(
    toy: Any, tmp_path: Path, fake_openai: Callable[..., Any]
) -> None:
    server = fake_openai(reply_text="B or C. Hard to say.")
    ds = _toy_dataset(tmp_path / "toy", n=2)
    run = tmp_path / "run"
    assert "--toy-letters" in CliRunner().invoke(app, ["metrics", "--help"]).output
    assert "--toy-hint" not in CliRunner().invoke(app, ["metrics", "--help"]).output
    res = CliRunner().invoke(
        app, ["run", str(ds), "--model", f"m=openai/toy@{server.url}", "--out", str(run),
              "--cache-dir", str(tmp_path / "cache"), "--toy-hint", "Look closely."],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "Look closely.\\nQuestion:" in json.dumps(server.requests[0])
    res = CliRunner().invoke(app, ["metrics", str(run)])  # default: one letter only
    assert (
        res.exit_code == 0 and "toy,m,MCQ,full,all,acc,0.0,2," in (run / "metrics.csv").read_text()
    )
    res = CliRunner().invoke(app, ["metrics", str(run), "--toy-letters", "first"])
    assert (
        res.exit_code == 0 and "toy,m,MCQ,full,all,acc,50.0,2," in (run / "metrics.csv").read_text()
    )
    res = CliRunner().invoke(app, ["metrics", str(run), "--toy-letters", "all"])
    assert (
        res.exit_code == 2
        and res.stderr == "error: --toy-letters: 'all' is not one of one, first\n"
    )
