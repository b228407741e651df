"""One RunDir type checks, creates (marks) and locks a run directory and names its store; the
refusal of a folder that is no run directory is one line, the same from every verb."""

from __future__ import annotations

from pathlib import Path

import pytest

from forgebench._api.common import run_dir_of
from forgebench.errors import UserError
from forgebench.run.lock import RunLocked
from forgebench.run.rundir import DB_NAME, NotARun, RunDir
from forgebench.run.store import Store, StoreError
from forgebench.util.owned import MARKER, kind_of


def test_check_refuses_a_folder_without_a_store_in_one_line(tmp_path: Path) -> None:
    line = f"{tmp_path}: not a run directory (no run.sqlite)"
    with pytest.raises(NotARun) as caught:
        RunDir.check(tmp_path)
    assert str(caught.value) == line and caught.value.exit_code == 2
    assert isinstance(caught.value, UserError)
    with pytest.raises(NotARun, match="not a run directory"):
        run_dir_of(tmp_path)  # the API's check is the same
    with pytest.raises(StoreError) as opened:
        Store.open(tmp_path, create=False)
    assert str(opened.value) == line
    assert not (tmp_path / MARKER).exists()  # a refused folder is not marked


def test_a_store_makes_a_run_directory(tmp_path: Path) -> None:
    run = RunDir(tmp_path / "r")
    assert not run.is_run() and run.db == tmp_path / "r" / DB_NAME
    Store.open(run).close()  # Store.open takes a RunDir as well as a path
    assert run.is_run() and kind_of(run.path) == "run"
    assert RunDir.check(str(run)) == run and RunDir(run) == run
    assert run_dir_of(run.path) == run.path


def test_claim_marks_only_a_folder_of_its_own(tmp_path: Path) -> None:
    assert RunDir(tmp_path / "new").claim() and kind_of(tmp_path / "new") == "run"
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.tex").write_text("mine\n")
    assert not RunDir(mine).claim()
    assert not (mine / MARKER).exists()


def test_lock_holds_the_run_directory(tmp_path: Path) -> None:
    run = RunDir(tmp_path / "r")
    with run.lock("run"):
        assert (run.path / ".lock").read_text().split()[1] == "run"
        with run.lock("judge"):  # re-entrant within a process (run --judge)
            pass
    with run.lock("run"), pytest.raises(RunLocked, match="is in use by"):
        _other_process_locks(run.path)


def _other_process_locks(path: Path) -> None:
    """Take the lock from a child process (flock is per open file: a second process is needed
    to see the refusal)."""
    import subprocess
    import sys

    code = (
        "import sys; from forgebench.run.rundir import RunDir\n"
        "from forgebench.run.lock import RunLocked\n"
        "try:\n"
        f"    with RunDir({str(path)!r}).lock('run'): pass\n"
        "except RunLocked as e: print(e); sys.exit(4)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if done.returncode == 4:
        raise RunLocked(done.stdout.strip())
