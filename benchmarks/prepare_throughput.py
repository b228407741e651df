"""``run --prepare`` on a realistic Forensics release: tasks per second and peak memory, against
the targets (measured, not asserted).

The script writes a release-format ``ForensicsBench.tsv`` (``--items`` rows spread over 112 type
codes, default 565 each = 63,280 rows as released; question, option, hint and ``image_path``
cells shaped like the release's for each task; a distinct small PNG per row, four frames for
video rows, every tenth ``image`` cell a reference to another row), imports it with
``forgebench import`` (not timed), then prepares it for ``--models`` models (default 25) in a
fresh child process per repeat: ``run_generation(prepare_only=True)``, the engine path of
``forgebench run --prepare``. The first repeat fills the image cache (video rows render a tile);
the median is over the later repeats, as a user's second prepare. Peak RSS is the child's peak
(``VmHWM``) minus its peak once forgebench, the suite and everything a prepare imports are
loaded (the import baseline: a prepare of one item per type code, into another run, comes first;
the suite's modules, NumPy, OpenCV and Pillow load on first use).
Thread counts are pinned to one (BLAS, OpenMP). Tasks per CPU second are printed beside tasks
per wall second, and the load average beside both: on a shared machine the CPU figure is what a
quiet one's wall clock shows, less the time the disk takes (a new run writes about 1 KB a task).

Targets: >= 20,000 tasks/s; peak RSS above the import baseline < 50 MB at every size.

    python benchmarks/prepare_throughput.py [--items 10000,63280] [--models 25] [--repeats 3]
        [--keep DIR] [--json OUT]
"""

from __future__ import annotations

import argparse
import base64
import csv
import dataclasses
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

TARGET_TASKS_S = 20_000
TARGET_RSS_MB = 50
CODES = 112
PINNED = {
    k: "1"
    for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS")
}


def type_codes(n: int) -> list[str]:
    """``n`` distinct release ``category`` strings, every modality and task represented."""
    from forgebench.suites.forensics.taxonomy import CATEGORY_ORDER, TOKENS

    sem = list(TOKENS["semantic"])
    types = [t for t in TOKENS["type"] if t not in ("real", "none")]
    models = [m for m in TOKENS["model"] if m not in ("real", "none")]
    mod_task = [("visibleimage", "category"), ("visibleimage", "seg"), ("visibleimage", "det"),
                ("nirimage", "category"), ("visibleimagetext", "category"),
                ("visibleimagetext", "det"), ("video", "temporal"), ("video", "category")]  # fmt: skip
    out: list[str] = []
    for k in range(10 * n):
        s = sem[k % 2]
        mod, task = mod_task[k % len(mod_task)]
        typ, model = (("real", "none") if k % 9 == 0 else
                      (types[(k // 2) % len(types)], models[(k // 3) % len(models)]))  # fmt: skip
        tokens = {"semantic": s, "type": typ, "model": model, "modality": mod, "task": task}
        cat = "_".join(tokens[p] for p in CATEGORY_ORDER)
        if cat not in out:
            out.append(cat)
        if len(out) == n:
            return out
    raise SystemExit("not enough distinct type codes")


def _png(seed: int, side: int = 16) -> str:
    """A distinct small RGB PNG (raw deflate, no Pillow: the TSV is written quickly)."""
    rows = b"".join(
        b"\x00"
        + bytes((seed * 7 + y * 13 + x * 29 + c * 61) % 256 for x in range(side) for c in range(3))
        for y in range(side)
    )
    body = seed.to_bytes(8, "big")  # distinct bytes per image even where pixels repeat

    def chunk(tag: bytes, data: bytes) -> bytes:
        return (len(data).to_bytes(4, "big") + tag + data
                + (zlib.crc32(tag + data) & 0xFFFFFFFF).to_bytes(4, "big"))  # fmt: skip

    ihdr = side.to_bytes(4, "big") * 2 + bytes((8, 2, 0, 0, 0))
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"tEXt", b"id\x00" + body)
           + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b""))  # fmt: skip
    return base64.b64encode(png).decode("ascii")


def _question(cat: str, i: int) -> tuple[str, list[str], str, str]:
    """Question, options, answer and hint shaped like the release's for the category's task."""
    task = cat.rsplit("_", 1)[1]
    real = "_real_" in cat
    if task == "category":
        opts = (
            ["AI-generated", "non AI-generated"] if i % 2 else ["non AI-generated", "AI-generated"]
        )
        ans = "A" if (opts[0] == "non AI-generated") == real else "B"
        return "What is the authenticity of the image?", opts, ans, ""
    if task == "det":
        boxes = [f"[{(i * k) % 500}, {(i * 3 + k) % 400}, {(i * k) % 500 + 120}, {(i + k) % 400 + 90}]"
                 for k in range(1, 5)]  # fmt: skip
        return ("Which of the following bounding boxes best marks the forged region of the image? "
                "The coordinates are [x_min, y_min, x_max, y_max] in pixels.",
                boxes, "ABCD"[i % 4], "The image may contain one manipulated area.")  # fmt: skip
    if task == "seg":
        return ("The following images are the segmentation masks of possible forged regions. "
                "Which mask best covers the forged region of the first image?",
                [f"Mask {k} (<image {k + 1}>)" for k in range(1, 5)], "ABCD"[i % 4], "")  # fmt: skip
    return ("These frames are sampled from one video. During which interval was the video "
            "manipulated?", [f"From second {k * 2} to second {k * 2 + 3}" for k in range(4)],
            "ABCD"[i % 4], "")  # fmt: skip


def write_tsv(path: Path, items: int) -> None:
    cats = type_codes(CODES)
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, delimiter="\t", lineterminator="\n")
        w.writerow(["index", "image", "question", "A", "B", "C", "D", "answer", "category",
                    "hint", "image_path"])  # fmt: skip
        for i in range(items):
            cat = cats[i % len(cats)]
            question, opts, ans, hint = _question(cat, i)
            video = "_video_" in cat
            if (
                i % 10 == 5
                and i + 1 < items
                and not video
                and "_video_" not in cats[(i + 1) % len(cats)]
            ):
                image = str(i + 1)
            elif video:
                image = repr([_png(i * 4 + k) for k in range(4)])
            else:
                image = _png(i)
            opts = opts + [""] * (4 - len(opts))
            w.writerow([i, image, question, *opts, ans, cat, hint,
                        f"{cat.split('_')[1]}/{i:06d}.png"])  # fmt: skip


def dataset(keep: Path, items: int) -> Path:
    """The imported dataset of ``items`` rows, built once under ``keep``."""
    from forgebench.suites.forensics.tsv_import import import_release_tsv

    out = keep / f"forensics-{items}"
    if (out / "items.jsonl").is_file():
        return out
    tsv = keep / f"ForensicsBench-{items}.tsv"
    t0 = time.perf_counter()
    write_tsv(tsv, items)
    import_release_tsv(tsv, out)
    tsv.unlink()
    print(f"  built and imported {items:,} rows in {time.perf_counter() - t0:.0f} s", flush=True)
    return out


def child(data: str, run: str, cache: str, n_models: int) -> None:
    """One prepare in this process; prints a JSON line."""
    import resource

    from forgebench.models.spec import ModelConfig
    from forgebench.run.generate import GenerationSettings, run_generation
    from forgebench.run.source import Selection
    from forgebench.suites import get as get_suite

    def peak_kb() -> int:
        """This process's peak RSS: ``VmHWM`` (``ru_maxrss`` keeps the parent's peak across the
        fork and exec that started this process, hiding the child's own)."""
        try:
            for line in Path("/proc/self/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        except OSError:
            pass
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    suite = get_suite("forensics")
    configs = [
        ModelConfig(spec=f"m{k:02d}=builtin/artefact", max_tokens=64) for k in range(n_models)
    ]
    settings = GenerationSettings(cache_dir=Path(cache), prepare_only=True)
    # the import baseline: what a prepare imports (the suite's modules, NumPy, OpenCV, Pillow
    # load lazily, on first use) is loaded by a prepare of one item per type code first
    warm = dataclasses.replace(settings, selection=Selection(sample=1))
    run_generation(suite, Path(data), Path(run + "-imports"), configs, warm)
    base = peak_kb()
    t0, c0 = time.perf_counter(), time.process_time()
    run_generation(suite, Path(data), Path(run), configs, settings)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    import sqlite3

    con = sqlite3.connect(Path(run) / "run.sqlite")
    tasks = con.execute("SELECT COUNT(*) FROM tasks").fetchone()[0]
    con.close()
    peak = peak_kb()
    print(json.dumps({"tasks": tasks, "wall_s": wall, "cpu_s": cpu, "base_mb": base / 1024,
                      "peak_mb": peak / 1024, "load": os.getloadavg()[0]}))  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--items", default="10000,63280")
    ap.add_argument("--models", type=int, default=25)
    ap.add_argument("--repeats", type=int, default=3, help="Warm-cache repeats (after one cold).")
    ap.add_argument("--keep", type=Path, help="Keep the built datasets here (reused next time).")
    ap.add_argument("--json", type=Path, help="Also write the figures here.")
    ap.add_argument(
        "--reference",
        type=Path,
        help="Another checkout's src/ (e.g. main before a change): each repeat also prepares "
        "with it, alternating, and the speed-up over it is printed (the machine's load cancels).",
    )
    ap.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(*args.child[:3], int(args.child[3]))
        return
    env = dict(os.environ, **PINNED, PYTHONUNBUFFERED="1")
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        keep = args.keep or Path(tmp)
        keep.mkdir(parents=True, exist_ok=True)
        for items in (int(x) for x in args.items.split(",")):
            data = dataset(keep, items)
            cache = Path(tmp) / f"cache-{items}"
            runs: list[dict] = []
            refs: list[dict] = []
            for r in range(args.repeats + 1):
                for ref in [False, True] if args.reference else [False]:
                    run = Path(tmp) / f"run-{items}-{r}-{int(ref)}"
                    env_r = dict(env, PYTHONPATH=str(args.reference)) if ref else env
                    out = subprocess.run(
                        [sys.executable, __file__, "--child", str(data), str(run), str(cache),
                         str(args.models)], env=env_r, capture_output=True, text=True,
                    )  # fmt: skip
                    if out.returncode != 0:
                        raise SystemExit(f"prepare of {items} items failed:\n{out.stderr[-3000:]}")
                    rec = json.loads(out.stdout.strip().splitlines()[-1])
                    rec["cold"] = r == 0
                    (refs if ref else runs).append(rec)
                    print(f"  {items:>6} items, {'cold' if r == 0 else 'warm'}"
                          f"{' (reference)' if ref else ''}: {rec['tasks']:,} tasks in "
                          f"{rec['wall_s']:.1f} s ({rec['cpu_s']:.1f} CPU s), peak "
                          f"+{rec['peak_mb'] - rec['base_mb']:.0f} MB over {rec['base_mb']:.0f} "
                          f"MB, load {rec['load']:.1f}", flush=True)  # fmt: skip
            warm = runs[1:] or runs
            rate = statistics.median(x["tasks"] / x["wall_s"] for x in warm)
            cpu_rate = statistics.median(x["tasks"] / x["cpu_s"] for x in warm)
            extra = max(x["peak_mb"] - x["base_mb"] for x in runs)
            results.append({
                "items": items, "models": args.models, "tasks": runs[0]["tasks"],
                "tasks_per_s": round(rate), "tasks_per_cpu_s": round(cpu_rate),
                "tasks_per_s_cold": round(runs[0]["tasks"] / runs[0]["wall_s"]),
                "peak_rss_above_baseline_mb": round(extra, 1),
                "baseline_mb": round(runs[0]["base_mb"], 1),
                "target_tasks_per_s": TARGET_TASKS_S, "target_rss_mb": TARGET_RSS_MB,
                "load_avg": [round(min(x["load"] for x in runs), 1),
                             round(max(x["load"] for x in runs), 1)],
            })  # fmt: skip
            if refs:
                ref_rate = statistics.median(x["tasks"] / x["wall_s"] for x in refs[1:] or refs)
                ref_cpu = statistics.median(x["tasks"] / x["cpu_s"] for x in refs[1:] or refs)
                results[-1]["reference_tasks_per_cpu_s"] = round(ref_cpu)
                results[-1]["reference_tasks_per_s"] = round(ref_rate)
                results[-1]["speedup_over_reference"] = round(rate / ref_rate, 2)
                results[-1]["cpu_speedup_over_reference"] = round(cpu_rate / ref_cpu, 2)
                results[-1]["reference_rss_above_baseline_mb"] = round(
                    max(x["peak_mb"] - x["base_mb"] for x in refs), 1
                )
    print(f"\n{'items':>7} {'tasks':>10} {'tasks/s':>9} {'/CPU-s':>8} {'target':>8} {'cold/s':>8} "
          f"{'RSS+ MB':>8} {'target':>7} {'x ref':>6} {'ref/CPU-s':>9} {'load':>9}")  # fmt: skip
    for r in results:
        print(f"{r['items']:>7} {r['tasks']:>10,} {r['tasks_per_s']:>9,} {r['tasks_per_cpu_s']:>8,} "
              f"{'>=' + str(TARGET_TASKS_S):>8} "
              f"{r['tasks_per_s_cold']:>8,} {r['peak_rss_above_baseline_mb']:>8.1f} "
              f"{'<' + str(TARGET_RSS_MB):>7} {r.get('speedup_over_reference', '-'):>6} "
              f"{r.get('reference_tasks_per_cpu_s', '-'):>9} "
              f"{'-'.join(str(x) for x in r['load_avg']):>9}")  # fmt: skip
    print(json.dumps(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
