"""How long ``forgebench demo`` takes and how much memory it holds, and how fast ``--help`` starts
(measured, printed beside the targets; nothing asserted).

Runs the demo as a separate process three times: into a new OUT folder with a fresh cache folder
(what a new user waits for), into a second new OUT folder with the first run's cache folder (the
per-image tool results and image variants kept there are reused), then the first command again
(a resume: every answer is stored, nothing is sent). For each: wall seconds, CPU seconds
(user + system of the process and its children) and peak RSS (the process's high-water mark,
``ru_maxrss``). Then ``forgebench --help`` five times (median wall). The machine's load average is
printed beside each figure: on a shared machine wall time follows the load, CPU time much less.
The three runs' metrics.csv (rows sorted) must be identical; the script says whether they are.
With ``--reference FILE`` (a metrics.csv kept from another version) it also says whether the
first run's file is byte-identical to it.

Each demo prints the wall and CPU seconds of its steps (``forgebench.demo.clock``; CPU of every
thread, the main thread's share, peak RSS so far) and its verifier tool threads' CPU seconds (the
OCR thread is the longest chain of work): the script prints them per run, so a slow step can be
named and, on a loaded machine, CPU seconds compared where wall seconds are noise.

With ``--against REV`` (a git revision of this repository) it instead times first demos in fresh
cache folders, alternating this checkout and REV's ``src/`` (exported with ``git archive``) for
``--pairs`` pairs, so that both see the same machine load; it prints each run's wall and CPU
seconds and peak RSS, the medians of each side and of the per-pair differences, and whether every
metrics.csv is byte-identical to the first one of REV (or to ``--reference``).

    .venv/bin/python benchmarks/demo_speed.py [--keep DIR] [--fresh-only] [--reference CSV]
        [--help-only] [--json-only] [--against REV [--pairs N]]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

DEMO_WALL_S = 45.0
DEMO_PEAK_MB = 600.0
HELP_MEDIAN_S = 0.3


def _forgebench() -> list[str]:
    """The console script next to this interpreter, else the module's entry point."""
    script = Path(sys.executable).parent / "forgebench"
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-c", "from forgebench.cli import main; main()"]


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def _timed(
    cmd: list[str], log: Path | None = None, env: dict[str, str] | None = None
) -> dict[str, Any]:
    """Wall, CPU and peak RSS of one command run to completion."""
    load = _load()
    out = open(log, "w") if log else subprocess.DEVNULL  # noqa: SIM115 - closed below
    try:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
        _pid, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
    finally:
        if log:
            out.close()  # type: ignore[union-attr]
    return {
        "rc": os.waitstatus_to_exitcode(status),
        "wall_s": round(wall, 2),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 2),
        "peak_rss_mb": round(usage.ru_maxrss / 1024, 1),
        "load_before": load,
        "load_after": _load(),
    }


def _steps(log: Path) -> list[dict[str, Any]]:
    """The step lines a demo printed (``forgebench.demo.clock.LINE``) and its tools line."""
    from forgebench.demo.clock import LINE

    out: list[dict[str, Any]] = []
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        m = LINE.match(line)
        if m:
            out.append(
                {
                    "step": m["step"],
                    "wall_s": float(m["wall"]),
                    "cpu_s": float(m["cpu"]),
                    "main_thread_cpu_s": float(m["main"]),
                    "peak_mb": int(m["peak"]),
                }
            )
        elif line.strip().startswith("[tools]"):
            out.append({"step": "tools", "text": line.strip()[len("[tools] ") :]})
    return out


def _sorted_rows(path: Path) -> list[str]:
    return sorted(path.read_text(encoding="utf-8").splitlines()) if path.is_file() else []


def measure_demo(
    root: Path, *, fresh_only: bool = False, reference: Path | None = None
) -> dict[str, Any]:
    """The demo into ``root/first`` (fresh cache), then ``root/second`` (reusing that cache),
    then into ``root/first`` again (resumed)."""
    first, second = root / "first", root / "second"
    cache = first / "cache"
    res: dict[str, Any] = {}
    env = {**os.environ, "FORGEBENCH_CACHE": str(root / "fresh-cache")}  # nothing from before
    res["fresh_cache"] = _timed(
        [*_forgebench(), "demo", "--out", str(first)], root / "first.log", env
    )
    res["fresh_cache"]["steps"] = _steps(root / "first.log")
    a = _sorted_rows(first / "run" / "metrics.csv")
    res["metrics_rows"] = len(a)
    if reference is not None:
        got = first / "run" / "metrics.csv"
        res["metrics_match_reference"] = (
            got.is_file() and got.read_bytes() == reference.read_bytes()
        )
    if fresh_only:
        return res
    res["reused_cache"] = _timed(
        [*_forgebench(), "demo", "--out", str(second), "--cache-dir", str(cache)],
        root / "second.log",
        env,
    )
    res["reused_cache"]["steps"] = _steps(root / "second.log")
    b = _sorted_rows(second / "run" / "metrics.csv")
    res["resumed"] = _timed([*_forgebench(), "demo", "--out", str(first)], root / "third.log", env)
    res["resumed"]["steps"] = _steps(root / "third.log")
    c = _sorted_rows(first / "run" / "metrics.csv")
    res["metrics_identical"] = bool(a) and a == b == c
    return res


def _demo_once(root: Path, src: Path | None) -> tuple[dict[str, Any], bytes]:
    """One first demo into ``root`` (fresh cache), ``src`` first on the path when given."""
    root.mkdir(parents=True)
    env = {**os.environ, "FORGEBENCH_CACHE": str(root / "fresh-cache")}
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(src), env.get("PYTHONPATH", "")]).rstrip(
            os.pathsep
        )
    run = _timed([*_forgebench(), "demo", "--out", str(root / "out")], root / "demo.log", env)
    run["steps"] = _steps(root / "demo.log")
    metrics = root / "out" / "run" / "metrics.csv"
    return run, metrics.read_bytes() if metrics.is_file() else b""


def measure_pairs(
    root: Path, against: str, pairs: int, reference: Path | None = None
) -> dict[str, Any]:
    """First demos alternating this checkout and revision ``against`` (see the docstring)."""
    other = root / "against"
    other.mkdir()
    repo = Path(__file__).resolve().parent.parent
    archive = subprocess.run(
        ["git", "-C", str(repo), "archive", against, "src"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(other)], input=archive, check=True)
    here = repo / "src"
    runs: dict[str, list[dict[str, Any]]] = {"this": [], "against": []}
    expected = reference.read_bytes() if reference is not None else None
    identical = True
    for i in range(pairs):
        order = [("against", other / "src"), ("this", here)]
        if i % 2:
            order.reverse()  # neither side always runs first
        for side, src in order:
            run, metrics = _demo_once(root / f"{side}-{i}", src)
            expected = metrics if expected is None else expected
            run["metrics_identical"] = bool(metrics) and metrics == expected
            identical = identical and run["metrics_identical"]
            runs[side].append(run)
            if not run["metrics_identical"] or run["rc"] != 0:
                break

    def med(side: str, key: str) -> float:
        return round(statistics.median(r[key] for r in runs[side]), 2)

    n = min(len(runs["this"]), len(runs["against"]))
    return {
        "against": against,
        "runs": runs,
        "median": {s: {k: med(s, k) for k in ("wall_s", "cpu_s", "peak_rss_mb")} for s in runs},
        "median_difference": {
            k: round(
                statistics.median(runs["this"][i][k] - runs["against"][i][k] for i in range(n)), 2
            )
            for k in ("wall_s", "cpu_s")
        }
        if n
        else {},
        "metrics_identical": identical,
    }


def measure_help(runs: int = 5) -> dict[str, Any]:
    """``forgebench --help`` ``runs`` times after one warm-up (the files are in the page cache)."""
    cmd = [*_forgebench(), "--help"]
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    walls = [_timed(cmd)["wall_s"] for _ in range(runs)]
    return {"runs_s": walls, "median_s": statistics.median(walls), "load": _load()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--keep", type=Path, help="Run the demos under this (new) folder and keep it.")
    ap.add_argument("--help-only", action="store_true", help="Measure --help only.")
    ap.add_argument(
        "--fresh-only", action="store_true", help="Only the first demo (fresh cache folder)."
    )
    ap.add_argument(
        "--reference", type=Path, help="A metrics.csv the first demo's must equal byte for byte."
    )
    ap.add_argument("--json-only", action="store_true", help="Print the JSON line only.")
    ap.add_argument("--against", help="Alternate first demos with this git revision's src/.")
    ap.add_argument("--pairs", type=int, default=3, help="Pairs of runs with --against.")
    args = ap.parse_args()
    result: dict[str, Any] = {"cores": os.cpu_count()}
    if args.against:
        root = args.keep or Path(tempfile.mkdtemp(prefix="fb-demo-pairs-"))
        root.mkdir(parents=True, exist_ok=bool(not args.keep))
        try:
            result["pairs"] = measure_pairs(root, args.against, args.pairs, args.reference)
        finally:
            if not args.keep:
                shutil.rmtree(root, ignore_errors=True)
        if not args.json_only:
            _print_pairs(result["pairs"])
        print(json.dumps(result))
        return
    if not args.help_only:
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=False)
            result["demo"] = measure_demo(
                args.keep, fresh_only=args.fresh_only, reference=args.reference
            )
        else:
            tmp = Path(tempfile.mkdtemp(prefix="fb-demo-speed-"))
            try:
                result["demo"] = measure_demo(
                    tmp, fresh_only=args.fresh_only, reference=args.reference
                )
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
    result["help"] = measure_help()
    if not args.json_only:
        demo = result.get("demo")
        if demo:
            for key, label in (
                ("fresh_cache", "demo, fresh cache"),
                ("reused_cache", "demo, cache reused"),
                ("resumed", "demo, resumed"),
            ):
                if key not in demo:
                    continue
                d = demo[key]
                wall_ok = "met" if d["wall_s"] < DEMO_WALL_S else "NOT met"
                mem_ok = "met" if d["peak_rss_mb"] < DEMO_PEAK_MB else "NOT met"
                print(
                    f"{label:20s} wall {d['wall_s']:6.1f} s (target < {DEMO_WALL_S:.0f}: {wall_ok})  "
                    f"cpu {d['cpu_s']:6.1f} s  peak RSS {d['peak_rss_mb']:6.0f} MB "
                    f"(target < {DEMO_PEAK_MB:.0f}: {mem_ok})  load {d['load_before']}->{d['load_after']}"
                    + ("" if d["rc"] == 0 else f"  EXIT {d['rc']}")
                )
                _print_steps(d["steps"])
            print(
                f"metrics.csv rows {demo['metrics_rows']}, identical across the three runs: "
                f"{demo.get('metrics_identical', 'not measured')}"
                + (
                    f", byte-identical to the reference: {demo['metrics_match_reference']}"
                    if "metrics_match_reference" in demo
                    else ""
                )
            )
        h = result["help"]
        ok = "met" if h["median_s"] < HELP_MEDIAN_S else "NOT met"
        print(
            f"--help median of 5 {h['median_s']:.3f} s (target < {HELP_MEDIAN_S}: {ok})  "
            f"runs {h['runs_s']}  load {h['load']}"
        )
    print(json.dumps(result))


def _print_pairs(p: dict[str, Any]) -> None:
    for side in ("against", "this"):
        for i, r in enumerate(p["runs"][side]):
            name = p["against"] if side == "against" else "this checkout"
            print(
                f"{name:14s} run {i + 1}: wall {r['wall_s']:6.1f} s  cpu {r['cpu_s']:6.1f} s  "
                f"peak RSS {r['peak_rss_mb']:5.0f} MB  load {r['load_before']}->{r['load_after']}"
                + ("" if r["rc"] == 0 else f"  EXIT {r['rc']}")
            )
            _print_steps(r["steps"])
    m, d = p["median"], p["median_difference"]
    for side in ("against", "this"):
        print(
            f"median {side:8s} wall {m[side]['wall_s']:6.1f} s  cpu {m[side]['cpu_s']:6.1f} s  "
            f"peak RSS {m[side]['peak_rss_mb']:5.0f} MB (target wall < {DEMO_WALL_S:.0f} s, "
            f"peak < {DEMO_PEAK_MB:.0f} MB)"
        )
    if d:
        print(
            f"median of per-pair differences (this - against): wall {d['wall_s']:+.1f} s  "
            f"cpu {d['cpu_s']:+.1f} s"
        )
    print(f"every metrics.csv byte-identical: {p['metrics_identical']}")


def _print_steps(steps: list[dict[str, Any]]) -> None:
    for s in steps:
        if "text" in s:
            print(f"    verifier tools: {s['text']}")
        else:
            print(
                f"    {s['step']:34s} wall {s['wall_s']:5.1f} s  cpu {s['cpu_s']:5.1f} s  "
                f"main thread {s['main_thread_cpu_s']:5.1f} s  peak {s['peak_mb']:4d} MB"
            )


if __name__ == "__main__":
    main()
