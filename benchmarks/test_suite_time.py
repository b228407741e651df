"""How long the test suite takes, as ``make test`` runs it (measured, not asserted).

Runs pytest on ``tests/`` in a child process, as the Makefile does (``-n auto --dist loadgroup``,
pytest-xdist: one worker per CPU this process may use and one more; ``--workers N`` to choose),
or in one process (``--serial``), and
prints, beside the 240 s target:

- wall: seconds from start to exit (what a user waits for);
- cpu: user + system seconds of pytest and everything it started (its workers, the CLI
  processes, Chromium, Ray): what the suite costs however the machine is shared;
- cpu / wall: how much of the machine it used on average (2.0 = both cores of this machine);
- the load average before and after (other jobs on a shared machine lengthen the wall time; a
  figure without the load beside it means little);
- the summary line pytest printed (passed, skipped, failed) and its slowest tests
  (``--durations``);
- with ``--fresh``, what CI does: in a clone of this repository's committed HEAD in a temporary
  folder, ``make venv-dev`` (a new ``.venv``: ``install`` seconds), then the tests with that
  clone's venv, byte-code caches on; the target is then install + tests. ``--cold-cache`` gives
  the install an empty uv cache of its own (a machine that never installed these packages);
  without it the user's uv cache serves what it holds.

The figures go to stdout, and as JSON to ``--json``. The exit status is pytest's.

    .venv/bin/python benchmarks/test_suite_time.py [--serial | --workers N] [--durations 15]
        [--json OUT] [--fresh [--cold-cache]] [-- PYTEST ARGS]   (after ``--``: pytest's)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_S = 240.0
ROOT = Path(__file__).resolve().parent.parent
SUMMARY = re.compile(r"^=*\s*(\d+ (passed|failed|skipped|error).*) in [\d.]+s")
DURATION = re.compile(r"^([\d.]+)s (call|setup|teardown)\s+(\S+)")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _failures(lines: list[str]) -> str:
    """What pytest said about its failures (the FAILURES section, at most 400 lines), and its
    short summary."""
    start = next(
        (i for i, ln in enumerate(lines) if "= FAILURES =" in ln or "= ERRORS =" in ln), None
    )
    summary = next((i for i, ln in enumerate(lines) if "short test summary info" in ln), len(lines))
    body = lines[start : min(summary, start + 400)] if start is not None else []
    return "\n".join(body + lines[summary:])


def install_fresh(clone: Path, cold_cache: bool) -> dict[str, object]:
    """Clone this repository's HEAD into ``clone`` and run ``make venv-dev`` there; its figures."""
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if cold_cache:
        env["UV_CACHE_DIR"] = str(clone.parent / "uv-cache")
    load_before = os.getloadavg()
    cpu0, t0 = _children_cpu(), time.perf_counter()
    done = subprocess.run(["make", "venv-dev"], cwd=clone, env=env, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - t0, _children_cpu() - cpu0
    return {
        "install_s": round(wall, 1),
        "install_cpu_s": round(cpu, 1),
        "install_cache": "cold (empty uv cache)" if cold_cache else "the user's uv cache",
        "install_load_before": [round(x, 2) for x in load_before],
        "install_returncode": done.returncode,
        "install_output": (done.stdout + done.stderr)[-4000:] if done.returncode else "",
    }


def run_suite(
    pytest_args: list[str],
    serial: bool,
    durations: int,
    root: Path = ROOT,
    python: str = "",
    workers: str = "auto",
) -> dict[str, object]:
    """Run pytest once (in ``root``, with ``python``); the figures of that run."""
    command = [python or sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    if not serial:
        command += ["-n", workers, "--dist", "loadgroup"]
    command += [f"--durations={durations}", *(pytest_args or ["tests"])]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    if root != ROOT:  # a fresh clone, as CI runs it: byte-code caches on
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    load_before = os.getloadavg()
    cpu0, t0 = _children_cpu(), time.perf_counter()
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - t0, _children_cpu() - cpu0
    lines = done.stdout.splitlines()
    summary = next((m.group(1) for ln in lines if (m := SUMMARY.match(ln))), None)
    slowest = [
        {"seconds": float(m.group(1)), "phase": m.group(2), "test": m.group(3)}
        for ln in lines
        if (m := DURATION.match(ln))
    ]
    return {
        "command": " ".join(command[1:]),
        "workers": "1" if serial else workers,
        "cpus": len(os.sched_getaffinity(0)),
        "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 1),
        "cpu_per_wall": round(cpu / wall, 2) if wall else None,
        "target_s": TARGET_S,
        "met": done.returncode == 0 and wall < TARGET_S,
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
        "summary": summary,
        "slowest": slowest,
        "returncode": done.returncode,
        "failures": _failures(lines) if done.returncode else "",
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serial", action="store_true", help="one process (no pytest-xdist)")
    parser.add_argument(
        "--workers", default="auto", help="pytest-xdist workers (default auto, as `make test`)"
    )
    parser.add_argument("--durations", type=int, default=15, help="slowest tests to list")
    parser.add_argument("--json", type=Path, help="also write the figures here as JSON")
    parser.add_argument(
        "--fresh", action="store_true", help="clone HEAD, `make venv-dev` there, time both"
    )
    parser.add_argument(
        "--cold-cache", action="store_true", help="with --fresh: install from an empty uv cache"
    )
    args, rest = parser.parse_known_args()
    pytest_args = [a for a in rest if a != "--"]
    work = Path(tempfile.mkdtemp(prefix="fb-suite-")) if args.fresh else None
    try:
        install: dict[str, object] = {}
        if work is not None:
            clone = work / "clone"
            install = install_fresh(clone, args.cold_cache)
            if install["install_returncode"]:
                print(f"make venv-dev failed:\n{install['install_output']}")
                return int(install["install_returncode"])  # type: ignore[call-overload]
            python = str(clone / ".venv/bin/python")
            figures = run_suite(
                pytest_args, args.serial, args.durations, clone, python, args.workers
            )
        else:
            figures = run_suite(pytest_args, args.serial, args.durations, workers=args.workers)
    finally:
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
    total = float(figures["wall_s"]) + float(install.get("install_s", 0.0))  # type: ignore[arg-type]
    figures.update(install, total_s=round(total, 1))
    figures["met"] = figures["returncode"] == 0 and total < TARGET_S
    print(f"command: {figures['command']}")
    print(f"tests:   {figures['summary']}")
    if install:
        print(
            f"install: {install['install_s']} s ({install['install_cpu_s']} CPU-s; "
            f"{install['install_cache']}; load {install['install_load_before']} before)"
        )
        print(f"pytest:  {figures['wall_s']} s")
    label = "total:  " if install else "wall:   "
    print(
        f"{label} {total:.1f} s   target < {TARGET_S:.0f} s   "
        f"{'met' if figures['met'] else 'NOT met'}"
    )
    print(
        f"cpu:     {figures['cpu_s']} s (user + system, pytest and its children), "
        f"{figures['cpu_per_wall']} of {figures['cpus']} CPUs on average"
    )
    print(f"load:    {figures['load_before']} before, {figures['load_after']} after (1/5/15 min)")
    for row in figures["slowest"]:  # type: ignore[union-attr]
        print(f"  {row['seconds']:7.2f} s {row['phase']:<8} {row['test']}")
    if figures["failures"]:
        print(figures["failures"])
    print(json.dumps({k: v for k, v in figures.items() if k not in ("failures", "install_output")}))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return int(figures["returncode"])  # type: ignore[call-overload]


if __name__ == "__main__":
    raise SystemExit(main())
