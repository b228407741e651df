"""An exported Inspect log opens in `inspect view` (Inspect's own viewer, served on loopback) and
shows the model's answer in headless Chromium."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forgebench.cli import app
from support.browser import CHROMIUM, open_page
from support.interop_runs import forensics_run

INSPECT = Path(sys.executable).parent / "inspect"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(
        CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)"
    ),
    pytest.mark.skipif(not INSPECT.is_file(), reason="the inspect extra is not installed"),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def viewer(tmp_path: Path) -> Iterator[str]:
    _ds, run = forensics_run(tmp_path)
    out = tmp_path / "logs"
    res = CliRunner().invoke(app, ["export", str(run), "--format", "inspect", "--out", str(out)])
    assert res.exit_code == 0, res.output
    port = _free_port()
    proc = subprocess.Popen(
        [str(INSPECT), "view", "start", "--log-dir", str(out), "--host", "127.0.0.1",
         "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(url + "api/logs", timeout=2) as r:
                    if b"forgebench-forensics" in r.read():
                        break
            except OSError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, "inspect view did not start"
            time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_inspect_view_lists_the_log_and_shows_an_answer(viewer: str) -> None:
    with open_page() as page:
        page.goto(viewer)
        page.get_by_text("3/MCQ/full").first.click(timeout=60000)  # the undecided answer
        page.get_by_text("Either A or B, hard to say.").first.wait_for(timeout=30000)
        body = page.inner_text("body")
        assert "forgebench-forensics" in body and "VERDICT" in body.upper()
