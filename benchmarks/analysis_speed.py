"""How long metrics, statistics and tables take on a paper-sized run (measured, not asserted).

Builds a synthetic run store (a real ``RUN/run.sqlite`` with ``run/store/schema.py``'s schema: items,
tasks, answers, verdicts, grades) of 36 models x 1,981 items (474 seeds: 474 authentic, 1,507
forged) with L0 and L1 under Full on every item, RECOG under Full on the forgeries, and the
de-recognition conditions (L1 under Full+Caption, Crop and Crop+Caption) on the peripheral
people-family forgeries and their originals: about 220,000 answers. Then it times, separately:

- read: the rows themselves from SQLite (tasks joined with answers, verdicts and grades), the
  reference for everything else;
- metrics: ``analysis.frame.load_frame`` and ``analysis.metrics.compute_metrics``;
- statistics: every regression (Table 10, Table 20 when footprints exist) and the cluster
  bootstrap (2,000 replicates) of the headline rates;
- tables: building and rendering every table from the metrics, the frame and the statistics;
- figures (PNG + SVG).

Thread counts are pinned to one (BLAS, OpenMP). Each stage prints its CPU seconds (what a quiet
machine's wall clock shows; the shared machine's load is left out) and its wall seconds, and
its wall time over the reference read's (load cancels in the ratio).

Targets: metrics + statistics + tables under 6 s together; figures under 3 s.

    .venv/bin/python benchmarks/analysis_speed.py [--models 36] [--keep DIR] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import tempfile
import time
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_var] = "1"

import numpy as np  # noqa: E402

from forgebench.run.store.schema import SCHEMA, SCHEMA_VERSION  # noqa: E402

TARGET_ANALYSIS_S = 6.0
TARGET_FIGURES_S = 3.0

FAMILIES = ("K0", "K1", "K2", "K3", "K4", "K5", "K6")
FAMILY_SIZES = (148, 567, 294, 89, 108, 145, 156)  # Table 5's caption; 1,507 forged
N_SEEDS = 474  # = authentic items
JUDGE = "judge/bench"


def build_items(rng: np.random.Generator) -> list[dict]:
    """1,981 items: 474 seeds, each with its authentic original; forgeries spread over seeds."""
    items: list[dict] = []
    domains = rng.choice(
        ["A1", "A2", "A3", "A4", "A5", "A6"], N_SEEDS, p=[0.22, 0.13, 0.39, 0.1, 0.14, 0.02]
    )
    for s in range(N_SEEDS):
        items.append(
            {
                "id": f"s{s:03d}-orig",
                "seed_id": f"s{s:03d}",
                "image": f"images/s{s:03d}.jpg",
                "label": "authentic",
                "domain": str(domains[s]),
                "noun": "photograph",
                "event": {"label": f"Event {s}", "date": "1960-01-01"},
            }
        )
    fams = np.repeat(FAMILIES, FAMILY_SIZES)
    rng.shuffle(fams)
    for i, fam in enumerate(fams):
        s = int(rng.integers(0, N_SEEDS))
        sal = str(rng.choice(["C1", "C2", "C3"], p=[605 / 1507, 72 / 1507, 830 / 1507]))
        item = {
            "id": f"f{i:04d}",
            "seed_id": f"s{s:03d}",
            "image": f"images/f{i:04d}.jpg",
            "label": "forged",
            "family": str(fam),
            "domain": str(domains[s]),
            "noun": "photograph",
            "saliency": sal,
            "event": {"label": f"Event {s}", "date": "1960-01-01"},
            "entity": {"name": f"Person {i}", "aliases": []} if fam == "K1" else None,
            "contradiction": "a recorded contradiction",
            "k1_type": "date_impossible" if fam == "K1" else None,
        }
        if fam == "K0":
            item["control_for"] = str(rng.choice(["K1", "K2", "K4"]))
        items.append(item)
    return items


def plan(items: list[dict]) -> list[tuple[dict, str, str]]:
    """(item, probe, condition) of one model."""
    k1_seeds = {
        it["seed_id"]
        for it in items
        if it["label"] == "forged"
        and it.get("family") == "K1"
        and it.get("saliency") in ("C2", "C3")
    }
    out = []
    for it in items:
        out += [(it, "L0", "full"), (it, "L1", "full")]
        forged = it["label"] == "forged"
        if forged:
            out.append((it, "RECOG", "full"))
        pk1 = forged and it.get("family") == "K1" and it.get("saliency") in ("C2", "C3")
        if pk1 or (not forged and it["seed_id"] in k1_seeds):
            out += [(it, "L1", c) for c in ("full_caption", "crop", "crop_caption")]
    return out


def build_store(run: Path, n_models: int, seed: int = 0) -> int:
    """Write the synthetic store; returns the number of answers."""
    from forgebench.suites.mandela.verdict import PARSER_VERSION

    rng = np.random.default_rng(seed)
    items = build_items(rng)
    tasks = plan(items)
    con = sqlite3.connect(run / "run.sqlite")
    con.executescript(SCHEMA)
    con.execute("INSERT INTO meta VALUES ('schema_version', ?)", (json.dumps(SCHEMA_VERSION),))
    con.executemany(
        "INSERT INTO items(benchmark, item_id, data) VALUES ('mandela', ?, ?)",
        [(it["id"], json.dumps(it)) for it in items],
    )
    now = time.time()
    n = 0
    for m in range(n_models):
        model = f"model-{m:02d}"
        bias, recog_p = rng.normal(-0.3, 0.8), rng.uniform(0.1, 0.9)
        t_rows, a_rows, v_rows, g_rows = [], [], [], []
        recognized = {it["id"]: rng.random() < recog_p for it in items}
        for k, (it, probe, cond) in enumerate(tasks):
            key = f"{m:02d}-{k:06d}"
            forged = it["label"] == "forged"
            if probe == "RECOG":
                verdict = "RECOGNISED" if recognized[it["id"]] else "NOT_RECOGNISED"
                text = "Yes: Event, 1960." if verdict == "RECOGNISED" else "NOT RECOGNISED"
            else:
                p_fake = 1 / (
                    1 + np.exp(-(bias + (0.8 if forged else -1.2) - 0.5 * recognized[it["id"]]))
                )
                verdict = (
                    "MISS" if rng.random() < 0.02 else ("FAKE" if rng.random() < p_fake else "REAL")
                )
                text = (
                    f"{verdict}. Synthetic explanation." if verdict != "MISS" else "I cannot tell."
                )
            t_rows.append(
                (key, it["id"], probe, cond, model, "prompt", "v2", None, "{}", "{}", now)
            )
            a_rows.append((key, text, "{}", "stop", 500, 40, 1.0, 1, "{}", now))
            v_rows.append((key, verdict, "{}", PARSER_VERSION))
            if probe in ("L0", "L1") and forged:
                level = int(rng.choice([1, 2, 3, 4])) if verdict == "FAKE" else 0
                g_rows.append(
                    (key, JUDGE, "evidence", f"E{level}", level, "graded", "reason", "{}", "r1",
                     JUDGE, None, 1, now)
                )  # fmt: skip
        con.executemany(
            "INSERT INTO tasks(key, item_id, probe, condition, model, prompt, prompt_version, "
            "variant_id, params, extra, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            t_rows,
        )
        con.executemany(
            "INSERT INTO answers (task_key,text,raw,finish_reason,input_tokens,output_tokens,latency_s,attempts,request,created_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
            a_rows,
        )
        con.executemany("INSERT INTO verdicts VALUES (?,?,?,?)", v_rows)
        con.executemany(
            "INSERT INTO judgements (task_key,judge,kind,value,level,status,reason,detail,version,judge_spec,raw,attempts,created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            g_rows,
        )
        n += len(a_rows)
    con.commit()
    con.close()
    return n


def timed(label: str, fn, timings: dict[str, float], cpu: dict[str, float]):  # type: ignore[no-untyped-def]
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    timings[label] = time.perf_counter() - t0
    cpu[label] = time.process_time() - c0
    print(f"  {label:<28} {cpu[label]:7.2f} s CPU {timings[label]:7.2f} s wall", flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=36)
    parser.add_argument("--keep", type=Path, default=None, help="Build the run here and keep it.")
    parser.add_argument("--json", type=Path, help="Also write the figures here.")
    args = parser.parse_args()
    tmp = tempfile.TemporaryDirectory() if args.keep is None else None
    run = args.keep or Path(tmp.name) / "run"  # type: ignore[union-attr]
    run.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    if (run / "run.sqlite").is_file():
        n = (
            sqlite3.connect(run / "run.sqlite")
            .execute("SELECT COUNT(*) FROM answers")
            .fetchone()[0]
        )
        print(f"reusing {run / 'run.sqlite'}: {n:,} answers")
    else:
        n = build_store(run, args.models)
        print(f"built {run / 'run.sqlite'}: {args.models} models x 1,981 items, {n:,} answers "
              f"in {time.perf_counter() - t0:.1f} s")  # fmt: skip
    timings: dict[str, float] = {}
    cpu: dict[str, float] = {}

    def read() -> int:
        con = sqlite3.connect(run / "run.sqlite")
        rows = con.execute(
            "SELECT t.key, t.model, t.item_id, t.probe, t.condition, a.text, v.verdict, g.level FROM tasks t "
            "JOIN answers a ON a.task_key = t.key LEFT JOIN verdicts v ON v.task_key = t.key "
            "LEFT JOIN grades g ON g.task_key = t.key AND g.judge = ?",
            (JUDGE,),
        ).fetchall()
        con.close()
        return len(rows)

    timed("read rows (reference)", read, timings, cpu)
    from forgebench.suites.mandela.frame import load_frame
    from forgebench.suites.mandela.metrics import compute_metrics

    frame = timed("metrics: load_frame", lambda: load_frame(run, JUDGE), timings, cpu)
    metrics = timed("metrics: compute_metrics", lambda: compute_metrics(frame, JUDGE), timings, cpu)
    metrics.to_csv(run / "metrics.csv", index=False)
    from forgebench.report.table import Table, to_csv, to_latex, to_markdown
    from forgebench.suites.mandela.tables import build_tables
    from forgebench.suites.mandela.tables.inputs import Metrics, TableData
    from forgebench.suites.mandela.tables.stats import compute_statistics

    stats = timed(
        "statistics (fits + bootstrap)", lambda: compute_statistics(frame, reps=2000), timings, cpu
    )

    def tables() -> list:
        data = TableData(metrics=Metrics(metrics, JUDGE), groups={}, frame=frame)
        built = build_tables(data, stats)
        for t in built:
            if isinstance(t, Table):
                to_markdown(t), to_latex(t), to_csv(t)
        return built

    built = timed("tables (build + render)", tables, timings, cpu)
    from forgebench.suites.mandela.figures import write_figures

    figs = timed("figures (PNG + SVG)", lambda: write_figures(run, metrics=metrics), timings, cpu)
    written = [t.number for t in built if isinstance(t, Table)]
    print(f"tables built: {written}; figures: {len(figs)} files; frame rows {len(frame):,}; "
          f"metrics rows {len(metrics):,}")  # fmt: skip
    parts = ("metrics: load_frame", "metrics: compute_metrics", "statistics (fits + bootstrap)",
             "tables (build + render)")  # fmt: skip
    analysis_cpu = sum(cpu[k] for k in parts)
    analysis_wall = sum(timings[k] for k in parts)
    ref = timings["read rows (reference)"]
    fig = "figures (PNG + SVG)"
    print(f"metrics + statistics + tables: {analysis_cpu:6.2f} s CPU ({analysis_wall:.2f} s wall, "
          f"{analysis_wall / ref:.1f}x the reference read)   target < {TARGET_ANALYSIS_S} s")  # fmt: skip
    print(f"figures:                       {cpu[fig]:6.2f} s CPU ({timings[fig]:.2f} s wall, "
          f"{timings[fig] / ref:.1f}x the reference read)   target < {TARGET_FIGURES_S} s")  # fmt: skip
    out = {
        "answers": n, "analysis_cpu_s": round(analysis_cpu, 2),
        "analysis_wall_s": round(analysis_wall, 2), "target_analysis_s": TARGET_ANALYSIS_S,
        "figures_cpu_s": round(cpu[fig], 2), "figures_wall_s": round(timings[fig], 2),
        "target_figures_s": TARGET_FIGURES_S, "reference_read_wall_s": round(ref, 2),
        "stages_cpu_s": {k: round(v, 2) for k, v in cpu.items()},
        "stages_wall_s": {k: round(v, 2) for k, v in timings.items()},
        "load_avg": os.getloadavg()[0],
    }  # fmt: skip
    print(json.dumps(out))
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    if tmp is not None:
        tmp.cleanup()


if __name__ == "__main__":
    main()
