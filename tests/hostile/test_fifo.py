"""A named pipe given where a file is read is refused at once (reading it would wait forever).
Real processes with a timeout: a hang must fail the test, not stall it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import error_lines

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")


def _fb(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "forgebench.cli", *args],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip


@pytest.mark.parametrize("verb", ["import-batch", "review-import"])
def test_a_fifo_is_refused_not_read(verb: str, tmp_path: Path) -> None:
    fifo = tmp_path / "results.jsonl"
    os.mkfifo(fifo)
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "run.sqlite").touch()
    if verb == "import-batch":
        from forgebench.run.store import Store

        (tmp_path / "run" / "run.sqlite").unlink()
        Store.open(tmp_path / "run").close()
        done = _fb("import-batch", str(tmp_path / "run"), str(fifo))
    else:
        done = _fb("review", "import", str(tmp_path / "run"), str(fifo))
    assert done.returncode == 2, done.stderr
    lines = error_lines(done.stderr)
    assert len(lines) == 1 and "named pipe" in lines[0], done.stderr
