"""Where the test suite's CPU goes, from ``pytest --cpu-profile DIR``
(tests/support/cpu_profile.py): the tests ranked by CPU seconds (the pytest process's own, all threads, plus the processes it
started and waited for), with their wall seconds; the costliest fixtures (their own time, not
the fixtures they requested); the CPU by test file; each worker's session total.

    .venv/bin/python -m pytest -n auto --dist loadgroup --cpu-profile /tmp/prof
    .venv/bin/python benchmarks/test_suite_profile.py /tmp/prof [--top 40] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

PHASES = ("setup", "call", "teardown")


def _cpu(figures: dict[str, float]) -> float:
    return figures["cpu"] + figures["children_cpu"]


def load(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))]


def tests_by_cpu(workers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rows = []
    for worker in workers:
        for test in worker["tests"]:
            phases = {ph: test[ph] for ph in PHASES if ph in test}
            rows.append(
                {
                    "test": test["nodeid"],
                    "worker": worker["worker"],
                    "cpu": round(sum(_cpu(f) for f in phases.values()), 2),
                    "children_cpu": round(sum(f["children_cpu"] for f in phases.values()), 2),
                    "wall": round(sum(f["wall"] for f in phases.values()), 2),
                    "setup_cpu": round(_cpu(phases["setup"]), 2) if "setup" in phases else 0.0,
                }
            )
    return sorted(rows, key=lambda r: -r["cpu"])


def idle_estimate(worker: dict[str, Any]) -> float:
    """Seconds the worker's test phases spent neither running, nor waiting for a CPU, nor
    running threads or child processes: its core's idle time on a machine of its own (the
    children's CPU is counted when they end, so this is a lower bound)."""
    idle = 0.0
    for test in worker["tests"]:
        for ph in PHASES:
            f = test.get(ph)
            if f is not None:
                idle += max(0.0, f["wall"] - f.get("run_wait", 0.0) - _cpu(f))
    return idle


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    workers = [w for w in load(args.folder) if w["tests"]]
    tests = tests_by_cpu(workers)
    total_tests = sum(r["cpu"] for r in tests)
    print(f"{len(tests)} tests, {total_tests:.1f} CPU-s in test phases")
    for w in workers:
        s, t = w["session"], w["process_total"]
        print(
            f"  {w['worker']}: session {_cpu(s):.1f} CPU-s ({s['children_cpu']:.1f} in children), "
            f"wall {s['wall']:.1f} s; whole process {_cpu(t):.1f} CPU-s"
        )
        idle = idle_estimate(w)
        print(
            f"    waited for a CPU {s.get('run_wait', 0.0):.1f} s; blocked with nothing of its "
            f"own running (a core idle on a machine of its own) ~{idle:.1f} s"
        )
    print(f"\ntop {args.top} tests by CPU-s (own + children; wall; setup CPU)")
    for r in tests[: args.top]:
        print(
            f"{r['cpu']:7.2f} {r['children_cpu']:7.2f}c {r['wall']:7.2f}w {r['setup_cpu']:6.2f}s"
            f"  {r['worker']}  {r['test']}"
        )
    fixtures = sorted((f for w in workers for f in w["fixtures"]), key=lambda f: -_cpu(f))
    by_fixture: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
    for f in fixtures:
        acc = by_fixture[(f["fixture"], f["scope"])]
        acc[0] += _cpu(f)
        acc[1] += f["wall"]
        acc[2] += 1
    print("\nfixtures by CPU-s, summed over their set-ups (own time; count)")
    for (name, scope), (cpu, wall, n) in sorted(by_fixture.items(), key=lambda kv: -kv[1][0])[
        : args.top
    ]:
        print(f"{cpu:7.2f} {wall:7.2f}w x{n:<4} {scope:8} {name}")
    by_file: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
    for r in tests:
        acc = by_file[r["test"].split("::")[0]]
        acc[0] += r["cpu"]
        acc[1] += r["wall"]
        acc[2] += 1
    print("\ntest files by CPU-s")
    for name, (cpu, wall, n) in sorted(by_file.items(), key=lambda kv: -kv[1][0])[: args.top]:
        print(f"{cpu:7.2f} {wall:7.2f}w x{n:<4} {name}")
    if args.json:
        args.json.write_text(json.dumps({"tests": tests, "fixtures": fixtures}, indent=1))


if __name__ == "__main__":
    main()
