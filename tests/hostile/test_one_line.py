"""Environmental failures end as one ``error:`` line, never a traceback, and
lose nothing.

A full disk and a read-only run directory are real here: the commands run in a private mount
namespace (``unshare --user --mount``) on a tmpfs of a few hundred KiB that a filler file fills up,
or that is remounted read-only (tests skip where user namespaces are not allowed)."""

from __future__ import annotations

import shlex
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest

from support.mandela_data import write_mandela_dataset

from .conftest import FB, cli, error_lines, run_args, sandbox

pytestmark = pytest.mark.slow  # real tmpfs mounts and one CLI process per command


def _scored_run(tmp_path: Path) -> Path:
    ds = write_mandela_dataset(tmp_path / "ds", seeds=3)
    run_dir = tmp_path / "run"
    assert cli(*run_args(ds, run_dir, "builtin/artefact")).exit_code == 0
    assert cli("judge", str(run_dir), "--judge", "builtin/rules").exit_code == 0
    return run_dir


def _answers(db: Path) -> int:
    with sqlite3.connect(db) as con:
        return int(con.execute("SELECT COUNT(*) FROM answers").fetchone()[0])


def _check_one_line(out: str, label: str) -> int:
    """``out`` holds ``== label`` blocks with each command's stderr and ``rc=N``: a command that
    failed said so in exactly one ``error:`` line and no traceback. Returns how many failed."""
    failed = 0
    for block in out.split("== ")[1:]:
        name, _, body = block.partition("\n")
        if not name.startswith(label):
            continue
        rc = int(body.rsplit("rc=", 1)[1].split()[0])
        assert "Traceback" not in body, (name, body)
        if rc != 0:
            failed += 1
            assert len(error_lines(body)) == 1, (name, body)
    return failed


@pytest.mark.parametrize("free_kib", [0, 48])
def test_full_disk_metrics_report_judge_calibrate_are_one_line_and_lose_nothing(
    free_kib: int, tmp_path: Path
) -> None:
    run_dir = _scored_run(tmp_path)
    before = _answers(run_dir / "run.sqlite")
    mnt = tmp_path / "m"
    mnt.mkdir()
    r = shlex.quote(str(mnt / "run"))
    err = shlex.quote(str(tmp_path / "err"))  # the test's own: tests run side by side
    cmds = [
        f"metrics {r}",
        f"report {r}",
        f"judge {r} --judge builtin/rules --retry-unscored",
        f"calibrate sample {r} --n 2",
        f"export {r} --format csv",
    ]
    script = f"""
mount -t tmpfs -o size=512k tmpfs {mnt}
cp -r {run_dir} {mnt}/run
dd if=/dev/zero of={mnt}/filler bs=4k 2>/dev/null || true
truncate -s -{free_kib}K {mnt}/filler
for c in {" ".join(shlex.quote(c) for c in cmds)}; do
  echo "== full $c"; set +e; {FB} $c >/dev/null 2>{err}; rc=$?; set -e; cat {err}; echo "rc=$rc"
done
rm {mnt}/filler
for c in {" ".join(shlex.quote(c) for c in cmds[:1] + cmds[2:3])}; do
  echo "== free $c"; {FB} $c >/dev/null 2>&1 && echo ok
done
cp {mnt}/run/run.sqlite {tmp_path}/after.sqlite
"""
    done = sandbox(script)
    assert done.returncode == 0, done.stdout + done.stderr
    assert _check_one_line(done.stdout, "full") >= 3, done.stdout  # the disk really was full
    assert done.stdout.count("\nok") == 2, done.stdout  # metrics and judge work again
    assert _answers(tmp_path / "after.sqlite") == before


def test_full_disk_during_run_is_one_line_and_the_run_resumes(
    tmp_path: Path, fake_openai: Any
) -> None:
    ds = write_mandela_dataset(
        tmp_path / "ds", seeds=6, label="a long event label " * 200
    )  # 12 tasks
    server = fake_openai(latency_ms=20, reply_text="REAL. " + "x" * 30_000)  # 30 KB answers
    mnt = tmp_path / "m"
    mnt.mkdir()
    args = run_args(ds, mnt / "run", f"openai/fake@{server.url}", "--concurrency", "2")
    args[args.index("--cache-dir") + 1] = str(tmp_path / "cache")
    cmd = f"{FB} {shlex.join(args)}"
    err = shlex.quote(str(tmp_path / "err"))  # the test's own: tests run side by side
    script = f"""
mount -t tmpfs -o size=4m tmpfs {mnt}
dd if=/dev/zero of={mnt}/filler bs=4k 2>/dev/null || true
truncate -s -600K {mnt}/filler
echo "== full run"; set +e; {cmd} >/dev/null 2>{err}; rc=$?; set -e; cat {err}; echo "rc=$rc"
python3 -c "import sqlite3; print('stored', sqlite3.connect('{mnt}/run/run.sqlite').execute('select count(*) from answers').fetchone()[0])"
rm {mnt}/filler
set +e; {cmd} >/dev/null 2>{err}2; rc=$?; set -e; cat {err}2; [ $rc = 0 ] && echo resumed
cp {mnt}/run/run.sqlite {tmp_path}/after.sqlite
"""
    done = sandbox(script)
    assert done.returncode == 0, done.stdout + done.stderr
    assert _check_one_line(done.stdout, "full") == 1, done.stdout
    assert "resumed" in done.stdout, done.stdout
    stored = int(done.stdout.split("stored ")[1].split()[0])
    assert 0 < stored < 12  # the disk filled up mid-run
    assert _answers(tmp_path / "after.sqlite") == 12  # every task answered, once


def test_read_only_run_directory_is_one_line(tmp_path: Path) -> None:
    run_dir = _scored_run(tmp_path)
    mnt = tmp_path / "m"
    mnt.mkdir()
    r = shlex.quote(str(mnt / "run"))
    cmds = [f"report {r}", f"calibrate sample {r} --n 2", f"view {r} --port 0 --rebuild"]
    err = shlex.quote(str(tmp_path / "err"))  # the test's own: tests run side by side
    script = f"""
mount -t tmpfs -o size=4m tmpfs {mnt}
cp -r {run_dir} {mnt}/run
mount -o remount,ro {mnt}
for c in {" ".join(shlex.quote(c) for c in cmds)}; do
  echo "== ro $c"; set +e; timeout 60 {FB} $c >/dev/null 2>{err}; rc=$?; set -e
  cat {err}; echo "rc=$rc"
done
"""
    done = sandbox(script)
    assert done.returncode == 0, done.stdout + done.stderr
    assert _check_one_line(done.stdout, "ro") == 3, done.stdout
    assert "read-only" in done.stdout


@pytest.mark.parametrize("kind", ["garbage", "other_schema"])
def test_a_run_sqlite_that_is_not_a_run_store_is_one_line(kind: str, tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    db = run_dir / "run.sqlite"
    if kind == "garbage":
        db.write_bytes(b"this is not a database\n" * 200)
    else:
        with sqlite3.connect(db) as con:
            con.execute("CREATE TABLE answers(x)")
            con.execute("CREATE TABLE tasks(y)")
            con.execute("INSERT INTO answers VALUES (1)")
    for cmd in (["report", str(run_dir)], ["judge", str(run_dir), "--judge", "builtin/rules"],
                ["metrics", str(run_dir)]):  # fmt: skip
        done = subprocess.run([*FB.split(), *cmd], capture_output=True, text=True, timeout=120)
        assert done.returncode != 0, (cmd, done.stderr)
        assert "Traceback" not in done.stderr, (cmd, done.stderr)
        assert len(error_lines(done.stderr)) == 1, (cmd, done.stderr)
