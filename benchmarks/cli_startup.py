"""CPU seconds of ``forgebench`` commands run as processes, start-up included (measured, printed;
nothing asserted).

Every command a user types pays the CLI's start-up, and so does each of the test suite's
``forgebench`` processes: this times the common ones on a small Mandela run (three seeds, answered
by ``builtin/artefact``, graded by ``builtin/rules``, as the hostile-input tests make it), each as
a fresh process, CPU = user + system of the process and its children (``wait4``). With
``--against SRC`` (the ``src/`` folder of another checkout, e.g. ``git worktree add /tmp/old
<commit>``) each command runs alternately under this tree and under SRC, and the pairwise ratio
this/SRC is printed beside the medians, so a change can be compared on a busy machine. Byte code
is written and one warm-up run of each command is not counted. Native libraries get one thread.
The load average is printed with each row.

    .venv/bin/python benchmarks/cli_startup.py [--repeats 7] [--against OTHER/src] [--json-only]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

COMMANDS: list[tuple[str, list[str]]] = [
    ("version", ["version"]),
    ("--help", ["--help"]),
    ("run --help", ["run", "--help"]),
    ("judge", ["judge", "{run}", "--judge", "builtin/rules"]),
    ("judge (not a run store)", ["judge", "{bad}", "--judge", "builtin/rules"]),
    ("metrics", ["metrics", "{run}"]),
    ("report (not a run store)", ["report", "{bad}"]),
    ("export csv", ["export", "{run}", "--format", "csv", "--out", "{tmp}/export"]),
    ("calibrate sample", ["calibrate", "sample", "{run}", "--n", "2", "--out", "{tmp}/s.csv"]),
    ("status", ["status", "{run}"]),
    ("prompts", ["prompts"]),
    ("validate", ["validate", "{ds}"]),
    ("tasks", ["tasks", "{ds}", "--probes", "L0", "--conditions", "full"]),
    ("run (all answered)", ["run", "{ds}", "--model", "builtin/artefact", "--out", "{run}",
                            "--cache-dir", "{tmp}/cache", "--probes", "L0", "--conditions", "full"]),
    ("run --dry-run (HTTP model)", ["run", "{ds}", "--model", "openai/m@http://127.0.0.1:9/v1",
                                    "--out", "{tmp}/dry", "--cache-dir", "{tmp}/cache",
                                    "--probes", "L0", "--conditions", "full", "--dry-run"]),
]  # fmt: skip


def _env(src: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(src)
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[name] = "1"
    return env


def _cpu(args: list[str], src: Path, cwd: Path) -> tuple[float, int]:
    """CPU seconds (user + system, children included) and exit code of one command process."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "forgebench.cli", *args],
        env=_env(src), cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime, proc.returncode


def _fixture(tmp: Path, src: Path) -> dict[str, str]:
    """A three-seed Mandela dataset, its run (answered and graded) and a file that is not a run
    store, made with the tree under test."""
    sys.path.insert(0, str(ROOT / "tests"))
    from support.mandela_data import write_mandela_dataset

    ds = write_mandela_dataset(tmp / "ds", seeds=3)
    run = tmp / "run"
    bad = tmp / "bad"
    bad.mkdir()
    (bad / "run.sqlite").write_bytes(b"not a database\n" * 100)
    paths = {"ds": str(ds), "run": str(run), "bad": str(bad), "tmp": str(tmp)}
    for step in (COMMANDS[-2][1], ["judge", "{run}", "--judge", "builtin/rules"]):
        args = [a.format(**paths) for a in step]
        done = subprocess.run(
            [sys.executable, "-m", "forgebench.cli", *args],
            env=_env(src), cwd=tmp, capture_output=True, text=True,
        )  # fmt: skip
        if done.returncode != 0:
            raise SystemExit(f"fixture: forgebench {' '.join(args)} failed:\n{done.stderr}")
    return paths


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7, help="Counted runs of each command.")
    ap.add_argument("--against", type=Path, help="Another checkout's src/ to pair against.")
    ap.add_argument("--json-only", action="store_true", help="Print the JSON only.")
    ns = ap.parse_args()
    here = ROOT / "src"
    trees = [here] if ns.against is None else [here, ns.against.resolve()]
    for tree in trees:
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree)], check=True,
                       stdout=subprocess.DEVNULL)  # fmt: skip
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="cli_startup_") as name:
        tmp = Path(name)
        paths = _fixture(tmp, here)
        for label, template in COMMANDS:
            args = [a.format(**paths) for a in template]
            load = os.getloadavg()[0]
            for tree in trees:
                _cpu(args, tree, tmp)  # warm-up: page cache, byte code
            runs: dict[Path, list[float]] = {t: [] for t in trees}
            codes: dict[Path, int] = {}
            for _ in range(ns.repeats):
                for tree in trees:
                    cpu, codes[tree] = _cpu(args, tree, tmp)
                    runs[tree].append(cpu)
            row: dict[str, Any] = {
                "command": label,
                "args": template,
                "cpu_s": round(statistics.median(runs[here]), 3),
                "exit": codes[here],
                "load": round(load, 2),
            }
            if ns.against is not None:
                other = runs[trees[1]]
                row["against_cpu_s"] = round(statistics.median(other), 3)
                row["against_exit"] = codes[trees[1]]
                row["ratio"] = round(
                    statistics.median(a / b for a, b in zip(runs[here], other, strict=True)), 3
                )
            rows.append(row)
            if not ns.json_only:
                line = f"{label:30} {row['cpu_s']:6.3f} CPU-s  exit {row['exit']}"
                if ns.against is not None:
                    line += f"   against {row['against_cpu_s']:6.3f} (exit {row['against_exit']})"
                    line += f"   ratio {row['ratio']:.2f}"
                print(f"{line}   load {row['load']}", flush=True)
    result = {
        "repeats": ns.repeats,
        "against": str(ns.against) if ns.against else None,
        "commands": rows,
    }
    print(json.dumps(result, indent=None if ns.json_only else 2))


if __name__ == "__main__":
    main()
