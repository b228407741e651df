"""The multi-node recipe of docs/how-to/scale-out.md, on one machine: one more raylet
(``--num-cpus 1``) joins the test session's Ray head (``local_ray``, in token mode as Ray 2.60
runs) the way the guide says, with ``RAY_AUTH_MODE=token`` and the cluster's token from ``ray
get-auth-token``, and ``forgebench run --prepare --executor ray`` renders the image variants on
the two nodes. The joined node runs ``ray start --block`` in a process group of its own, stopped
by its id (never ``ray stop``, which would stop every Ray on the machine); the address file
``ray start`` leaves in Ray's temp folder (``/tmp/ray/ray_current_cluster``, which a later plain
``ray.init()`` on the machine would try to join) is put back as it was."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from forgebench.cli import app

RAY = str(Path(sys.executable).with_name("ray"))


def _alive(ray: Any) -> int:
    return sum(1 for node in ray.nodes() if node["Alive"])


@pytest.mark.slow
def test_a_joined_raylet_with_the_cluster_token_runs_the_executor(
    local_ray: Any, demo_dataset: Path, tmp_path: Path
) -> None:
    ray = local_ray
    address = ray.get_runtime_context().gcs_address
    token = subprocess.run([RAY, "get-auth-token"], capture_output=True, text=True, check=True)
    assert token.stdout.strip(), "the head in token mode has a token"
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    env.update(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=token.stdout.strip())
    before = _alive(ray)
    address_file = Path("/tmp/ray/ray_current_cluster")
    was = address_file.read_bytes() if address_file.is_file() else None
    node = subprocess.Popen(
        [RAY, "start", "--address", address, "--num-cpus", "1", "--block", "--disable-usage-stats"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while _alive(ray) < before + 1 and time.monotonic() < deadline:
            assert node.poll() is None, (
                f"ray start ended: {node.stdout.read() if node.stdout else ''}"
            )
            time.sleep(0.5)
        assert _alive(ray) == before + 1
        assert ray.cluster_resources().get("CPU") == 3.0  # the head's 2 and the joined 1
        out = tmp_path / "run"
        result = CliRunner().invoke(
            app,
            ["run", str(demo_dataset), "--model", "builtin/artefact", "--out", str(out),
             "--sample", "1", "--prepare", "--executor", "ray", "--workers", "3"],
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        assert "nothing sent" in result.output
        assert (out / "run.sqlite").is_file()
    finally:
        os.killpg(node.pid, signal.SIGTERM)
        node.communicate(timeout=60)
        if was is None:
            address_file.unlink(missing_ok=True)
        else:
            address_file.write_bytes(was)
    deadline = time.monotonic() + 30
    while _alive(ray) > before and time.monotonic() < deadline:
        time.sleep(0.5)
    assert _alive(ray) == before
