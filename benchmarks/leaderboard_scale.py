"""How long ``forgebench leaderboard`` takes on many paper-sized runs (measured, not asserted).

Builds one real run the way a user makes one, then ``--runs`` copies of it (each its own folder
and store, so every run is opened, read and bootstrapped on its own; their numbers are equal):

- a Forensics part: ``--models`` models x ``--items`` release questions over the release's type
  codes (``report_scale.forensics_run``: imported from a release-format TSV, prepared by the
  engine, every task answered through the Store API, scored by the real ``metrics`` stage);
- a Mandela part: ``--seeds`` authentic/forged pairs asked L0 under Full of the same models
  (``builtin/artefact``), scored by ``metrics``;
- a PIXAR part: three planted-edit pairs asked LOC of the same models, scored by ``metrics``.

Then ``api.leaderboard`` over every copy is timed (wall and CPU seconds): headline numbers from
each run's ``metrics.csv``, items per model from the store, the model settings, and the intervals
bootstrapped as the front page does (no run has a report here, the costly case); with
``--no-intervals`` as well. With Debian's chromium, the time until the first table of the site
is visible after opening ``index.html`` from disk, and the time a click on a heading takes to
sort 1,250 rows.

Targets (50 runs x 25 models x 1,000 Forensics items + Mandela + PIXAR): build < 30 s; first
table < 1 s.

    .venv/bin/python benchmarks/leaderboard_scale.py [--runs 50] [--models 25] [--items 1000]
        [--seeds 20] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))

from report_scale import FIRST_TABLE
from support.browser import CHROMIUM, FLAGS

TARGET_BUILD_S = 30.0
TARGET_FIRST_TABLE_MS = 1000.0


def template(keep: Path, models: int, items: int, seeds: int) -> Path:
    """The run every copy is made from (built once under ``keep``)."""
    from forgebench import api
    from forgebench.run.generate import GenerationSettings
    from forgebench.run.source import Selection
    from report_scale import forensics_run
    from support.mandela_data import write_mandela_dataset
    from support.pixar_loc import box_pairs

    run = forensics_run(keep, items, models)
    if (run / "parts-done").is_file():
        return run
    from forgebench.models.spec import ModelConfig

    specs = [ModelConfig(spec=f"m{k:02d}=builtin/artefact", max_tokens=64) for k in range(models)]
    t0 = time.perf_counter()
    mandela = keep / "mandela"
    if not mandela.is_dir():
        write_mandela_dataset(mandela, seeds=seeds)
    sel = Selection(probes=("L0",), conditions=("full",))
    api.run(mandela, run, specs, GenerationSettings(selection=sel, cache_dir=keep / "cache"))
    pairs = keep / "pairs"
    if not pairs.is_dir():
        box_pairs(pairs)
    api.run(pairs, run, specs, GenerationSettings(cache_dir=keep / "cache"))
    api.metrics(run)
    (run / "parts-done").write_text("")
    print(f"  Mandela and PIXAR parts in {time.perf_counter() - t0:.0f} s", flush=True)
    return run


def copies(keep: Path, run: Path, n: int) -> list[Path]:
    """``n`` copies of ``run`` under ``keep/runs`` (made once)."""
    out = []
    t0 = time.perf_counter()
    for k in range(n):
        dst = keep / "runs" / f"run-{k:02d}"
        if not (dst / "metrics.csv").is_file():
            shutil.rmtree(dst, ignore_errors=True)
            shutil.copytree(run, dst, ignore=shutil.ignore_patterns("report", "*.lock"))
        out.append(dst)
    print(f"  {n} runs ready in {time.perf_counter() - t0:.0f} s", flush=True)
    return out


def timed(runs: list[Path], site: Path, intervals: bool) -> tuple[float, float, int]:
    from forgebench import api

    shutil.rmtree(site, ignore_errors=True)
    t0, c0 = time.perf_counter(), time.process_time()
    done = api.leaderboard(runs, site, intervals=intervals)
    return time.perf_counter() - t0, time.process_time() - c0, len(done.rows)


def browser(index: Path) -> dict[str, float]:
    if CHROMIUM is None:
        return {}
    from playwright.sync_api import sync_playwright

    out: dict[str, float] = {}
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = b.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(index.as_uri(), wait_until="commit")
        out["first_table_ms"] = float(page.evaluate(FIRST_TABLE))
        page.wait_for_load_state("load")
        out["load_ms"] = float(
            page.evaluate("() => performance.getEntriesByType('navigation')[0].loadEventEnd")
        )
        button = page.locator("#board-forensics thead th button", has_text="acc").first
        t0 = time.perf_counter()
        button.click()
        page.wait_for_selector("#board-forensics th[aria-sort]")
        out["sort_click_ms"] = (time.perf_counter() - t0) * 1000
        b.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--models", type=int, default=25)
    parser.add_argument("--items", type=int, default=1000, help="Forensics questions per run.")
    parser.add_argument("--seeds", type=int, default=20, help="Mandela seeds (2 items each).")
    parser.add_argument("--keep", type=Path, help="Keep the built runs here (reused next time).")
    parser.add_argument("--json", type=Path, help="Write the figures here.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        keep = args.keep or Path(tmp)
        keep.mkdir(parents=True, exist_ok=True)
        print(f"building {args.runs} runs x ({args.models} models x {args.items} Forensics items "
              f"+ Mandela {2 * args.seeds} items + PIXAR 3 pairs)", flush=True)  # fmt: skip
        runs = copies(keep, template(keep, args.models, args.items, args.seeds), args.runs)
        figures: dict[str, float] = {}
        wall, cpu, rows = timed(runs, keep / "site", intervals=True)
        figures.update(build_s=wall, build_cpu_s=cpu, rows=rows)
        print(f"leaderboard of {args.runs} runs ({rows:,} rows, intervals bootstrapped): "
              f"{wall:.1f} s wall, {cpu:.1f} s CPU (target < {TARGET_BUILD_S:.0f} s)")  # fmt: skip
        wall2, cpu2, _ = timed(runs, keep / "site-no-intervals", intervals=False)
        figures.update(build_no_intervals_s=wall2, build_no_intervals_cpu_s=cpu2)
        print(f"  --no-intervals: {wall2:.1f} s wall, {cpu2:.1f} s CPU")
        size = (keep / "site" / "index.html").stat().st_size
        figures["index_html_bytes"] = size
        print(f"  index.html {size / 1e6:.2f} MB")
        seen = browser(keep / "site" / "index.html")
        if seen:
            figures.update(seen)
            print(f"  first table visible after {seen['first_table_ms']:.0f} ms "
                  f"(target < {TARGET_FIRST_TABLE_MS:.0f} ms); load event "
                  f"{seen['load_ms']:.0f} ms; sorting by acc {seen['sort_click_ms']:.0f} ms")  # fmt: skip
        else:
            print("  chromium not installed: time to first table not measured")
        if args.json:
            args.json.write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
