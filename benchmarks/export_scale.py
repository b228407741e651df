"""Time and peak memory of the run exports on a large synthetic Forensics run (measured, not
asserted).

Builds a real run store (``Store.put_items`` / ``put_tasks``, answers and verdicts inserted in
bulk) of ``--models`` models x ``--items`` release questions (MCQ / full; one 64x48 PNG per item,
four options), with ``metrics.csv`` from the suite's own scoring, then runs each export in a
fresh child process and prints its wall time and the child's peak RSS (``ru_maxrss``):

- ``inspect`` (one log per model x 5,000 tasks; images copied once),
- ``vlmevalkit --tsv`` and ``vlmevalkit`` (xlsx, write-only),
- ``model-index``,
- ``export-dataset --format hf`` of the items as a dataset folder (parquet shards of 2,000 rows).

The claim under test: an export holds at most one shard in memory, so peak RSS stays flat as
``--items`` and ``--models`` grow (compare ``--items 10000`` with ``--items 40000``). The paper's
scale is ``--models 25 --items 63000``: a long build on a small machine.

    .venv/bin/python benchmarks/export_scale.py [--models 4] [--items 20000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from PIL import Image

from forgebench.models.base import ImageRef
from forgebench.run.store import Store
from forgebench.run.tasks import Question, make_task

CATEGORIES = (
    "human_entiresynthesis_diffusion_visibleimage_category",
    "nonhuman_real_none_visibleimage_category",
    "human_faceantispoofing_3D_visibleimage_category",
    "human_entiresynthesis_gan_visibleimage_category",
)
"""Release categories the items cycle through (several type codes, as a real run has)."""


def build(root: Path, models: int, items: int) -> Path:
    """The synthetic run under ``root/run``; returns it."""
    from forgebench.suites.forensics.taxonomy import PERSPECTIVES, parse_category

    codes = [parse_category(c) for c in CATEGORIES]
    rng = np.random.default_rng(0)
    images = root / "images"
    images.mkdir(parents=True)
    run = root / "run"
    started = time.perf_counter()
    with Store.open(run) as store:
        rows = []
        refs = []
        for i in range(items):
            path = images / f"{i}.png"
            buf = io.BytesIO()
            Image.fromarray(rng.integers(0, 256, (48, 64, 3), dtype=np.uint8)).save(buf, "PNG")
            path.write_bytes(buf.getvalue())
            refs.append(ImageRef(f"v{i:08d}", path, "image/png"))
            rows.append({
                "id": str(i), "images": [f"images/{i}.png"], "question": "Which is forged?",
                "options": {"A": "left", "B": "right", "C": "both", "D": "neither"},
                "answer": "ABCD"[i % 4], "category": CATEGORIES[i % len(CATEGORIES)],
                **{p: codes[i % len(codes)].value(p) for p in PERSPECTIVES},
            })  # fmt: skip
        store.put_items("forensics", rows)
        with (root / "items.jsonl").open("w", encoding="utf-8") as fh:  # the dataset folder too
            fh.writelines(json.dumps(r) + "\n" for r in rows)
        (root / "benchmark.txt").write_text("forensics\n", encoding="utf-8")
        store.meta_set("datasets", {"forensics": str(root)})
        for m in range(models):
            name = f"model-{m:02d}"
            tasks = [
                make_task(
                    Question(
                        item_id=r["id"], probe="MCQ", condition="full",
                        prompt="Question: Which is forged?\nA. left\nB. right\nC. both\nD. neither",
                        prompt_version="MCQ/v1", images=(refs[i],), benchmark="forensics",
                        extra={"options": r["options"], "answer": r["answer"],
                               "type_code": "-".join(r[p] for p in PERSPECTIVES)},
                    ),
                    name, {"temperature": 0},
                )
                for i, r in enumerate(rows)
            ]  # fmt: skip
            store.put_tasks(tasks)
            now = time.time()
            answers = [
                (t.key, f"The answer is {'ABCD'[(i * (m + 1)) % 4]}.", "{}", "stop", 900, 8, 0.8,
                 1, "{}", now + i * 1e-3)
                for i, t in enumerate(tasks)
            ]  # fmt: skip
            with store.connection:
                store.connection.executemany(
                    "INSERT INTO answers(task_key, text, raw, finish_reason, input_tokens, "
                    "output_tokens, latency_s, attempts, request, created_at) "
                    "VALUES(?,?,?,?,?,?,?,?,?,?)",
                    answers,
                )
    from forgebench import api

    api.metrics(run)  # the suite's own extraction: verdicts and metrics.csv
    print(f"built {models} x {items} = {models * items:,} answers in "
          f"{time.perf_counter() - started:.1f} s")  # fmt: skip
    return run


CHILD = """
import resource, sys, time
from pathlib import Path
from typer.testing import CliRunner
from forgebench.cli import app
args = sys.argv[1:]
t = time.perf_counter()
res = CliRunner().invoke(app, args)
assert res.exit_code == 0, res.output
wall = time.perf_counter() - t
u = resource.getrusage(resource.RUSAGE_SELF)
print(wall, u.ru_utime + u.ru_stime, u.ru_maxrss)
"""


def measure(
    run: Path, out: Path, fmt: str, *extra: str, verb: str = "export"
) -> tuple[float, float, float, float]:
    """``(wall s, CPU s, peak RSS MiB, MiB written)`` of one export in a fresh process (CPU
    includes the process's imports; wall time grows on a busy machine, CPU time does not)."""
    args = [verb, str(run), "--format", fmt, "--out", str(out), *extra]
    done = subprocess.run([sys.executable, "-c", CHILD, *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{fmt}: {done.stderr[-2000:]}")
    wall, cpu, rss_kib = done.stdout.split()[-3:]
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file()) / 2**20
    return float(wall), float(cpu), int(rss_kib) / 1024, size


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", type=int, default=4)
    ap.add_argument("--items", type=int, default=20000)
    ap.add_argument("--keep", type=Path, default=None, help="Build here and keep it.")
    a = ap.parse_args()
    root = a.keep or Path(tempfile.mkdtemp(prefix="export-scale-"))
    run = build(root, a.models, a.items)
    print(f"{'format':<18} {'wall s':>8} {'CPU s':>8} {'peak RSS MiB':>13} {'written MiB':>12}")
    for fmt, extra in (
        ("model-index", ()),
        ("vlmevalkit", ("--tsv",)),
        ("vlmevalkit", ()),
        ("inspect", ()),
    ):
        label = fmt + (" --tsv" if extra else "")
        out = root / f"out-{label.replace(' ', '')}"
        wall, cpu, rss, size = measure(run, out, fmt, *extra)
        print(f"{label:<18} {wall:>8.1f} {cpu:>8.1f} {rss:>13.0f} {size:>12.1f}")
    wall, cpu, rss, size = measure(root, root / "out-hf", "hf", verb="export-dataset")
    print(f"{'export-dataset hf':<18} {wall:>8.1f} {cpu:>8.1f} {rss:>13.0f} {size:>12.1f}")
    print(json.dumps({"models": a.models, "items": a.items, "root": str(root)}))


if __name__ == "__main__":
    main()
